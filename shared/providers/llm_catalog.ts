import {
  type DataDestination,
  type DataHandling,
  endpoint,
  LLM_RECEIVES,
  THIS_MACHINE,
  vendor,
} from "./data_handling.ts";
import { AWS_REGIONS } from "./aws_regions.ts";

/** The language-model providers of spec 02 §3, in the order the provider list shows them. */
export const LLM_PROVIDER_IDS = [
  "openai",
  "azure",
  "anthropic",
  "gemini",
  "huggingface",
  "ollama",
  "novita",
  "lmstudio",
  "localai",
  "koboldcpp",
  "textgenwebui",
  "togetherai",
  "fireworksai",
  "mistral",
  "perplexity",
  "openrouter",
  "groq",
  "cohere",
  "litellm",
  "deepseek",
  "apipie",
  "generic-openai",
  "bedrock",
  "xai",
  "native",
] as const;
export type LlmProviderId = (typeof LLM_PROVIDER_IDS)[number];

/**
 * How a submitted value is checked (shared/settings.ts turns these into schemas). Without one a field is
 * checked by its type: a URL is a URL, a number a whole number of at least `min` (1), a select one of its
 * options, anything required not empty.
 */
export type FieldCheck =
  | "url"
  | "urlWithV1"
  | "notEmpty"
  | "anyText"
  | "wholeNumber"
  | { startsWith: string; message: string };

/** What a field is for; its label and hint come from `settings.fieldRoles.<role>` unless the key has its own. */
export type FieldRole =
  | "apiKey"
  | "baseUrl"
  | "model"
  | "tokenLimit"
  | "maxTokens"
  | "streamTimeout";

export interface SettingOption {
  value: string;
  label: string;
  /** Options with a group are shown under it (an `optgroup`). */
  group?: string;
}

export interface SettingField {
  /** The update-env key, spelt as the reference spells it. */
  key: string;
  /** The environment variable that fixes it (the operator's); LLM fields always name theirs. */
  env?: string;
  /**
   * `model` is a select filled by the provider's model lookup (`POST /api/system/custom-models`); `select`
   * offers the fixed `options`. A `model` field with `options` offers those until the lookup lists models.
   */
  type: "url" | "password" | "text" | "number" | "select" | "model";
  required: boolean;
  placeholder?: string;
  defaultValue?: string;
  options?: readonly SettingOption[];
  check?: FieldCheck;
  role?: FieldRole;
  /** The smallest number a number field takes (1 unless said). */
  min?: number;
  /** Shown, saved and used only while another field has this value (Bedrock's session token). */
  showWhen?: { key: string; equals: string };
}

/** How the form finds the provider's models (docs/api-compat.md#model-lookups). */
export interface ModelLookup {
  /** The `provider` sent to custom-models. */
  provider: string;
  /** The field whose value is sent as `apiKey`; the lookup waits for it ("-- waiting for API key --"). */
  apiKeyField?: string;
  /** The field whose value is sent as `basePath`; the lookup waits for it ("-- waiting for URL --"). */
  basePathField?: string;
  /** The lookup only runs when the base path contains this (LocalAI, KoboldCPP, LiteLLM: "/v1"). */
  basePathMustContain?: string;
  /**
   * More values the lookup needs, sent as `options` (the reference sends Bedrock's `{region}` so): option name
   * → the field holding it. A saved secret still masked is sent as `true` ("the stored one").
   */
  optionFields?: Readonly<Record<string, string>>;
}

/** Where a local server usually listens, for endpoint auto-detect. */
export interface AutoDetect {
  /**
   * Port and path, e.g. ":11434" or ":1234/v1"; tried on localhost, 127.0.0.1, host.docker.internal and the
   * page's host. `suffixes` adds more (KoboldCPP listens on 5001 by default, the reference tries 5000).
   */
  suffix: string;
  suffixes?: readonly string[];
}

/**
 * Where a provider runs, which the provider lists show as its icon: a hosted cloud API, a model server on
 * this machine or network, an OpenAI-compatible or self-hosted endpoint of the admin's, or built into Lectern.
 */
export type ProviderKind = "cloud" | "local" | "self-hosted" | "built-in";

/**
 * How a provider that speaks the OpenAI protocol is reached: the server's chat model
 * (server/providers/llm/openai_compatible.ts) is built from this alone.
 */
export interface OpenAiConnection {
  /** A hosted vendor's fixed base URL (tests point `deps.endpoints[<id>]` at a loopback fake instead). */
  baseUrl?: string;
  /** Or the field that holds the base URL, with `baseUrlSuffix` added (HuggingFace TGI: "/v1"). */
  baseUrlField?: string;
  baseUrlSuffix?: string;
  /** The field holding the key, sent as a Bearer token (Azure: as api-key). */
  apiKeyField?: string;
  /** Headers every request carries (OpenRouter's and Novita's attribution). */
  headers?: Readonly<Record<string, string>>;
  /** The field holding the most tokens one answer may use (1024 without one). */
  maxTokensField?: string;
  /**
   * The field holding the quiet time in milliseconds (at least 500) after which a stream that already
   * yielded text is taken as complete: some models never send a finish reason (OpenRouter, Novita).
   */
  streamTimeoutField?: string;
  /** The model sent when the provider has no model field (HuggingFace TGI, TextGenWebUI). */
  fixedModel?: string;
  /** Azure OpenAI: the base URL is the resource endpoint and the model the deployment. */
  azure?: boolean;
}

/**
 * How `POST /api/system/custom-models` reads the provider's models: `GET {base}/models` (the OpenAI list, on
 * the connection's base URL), a fixed list, or a protocol of its own (`native`: wired in
 * server/providers/llm/models.ts).
 */
export type ModelListing =
  | {
    source: "openai";
    /** No key, no lookup (an empty list): the hosted vendors that list models only for a key. */
    needsKey?: boolean;
    /** The key is not sent (OpenRouter and Novita list their models openly). */
    anonymous?: boolean;
    /** The model's id: these fields joined by "/" (APIpie: provider/model); default `id`. */
    id?: readonly string[];
    /** The model's name: the first of these fields present; default the id. */
    name?: readonly string[];
    /**
     * Its organization, by which the form groups the list: a field (`owned_by`, `organization`,
     * `provider`), the id's part before the first "/" capitalised (`idPrefix`), or a fixed name with
     * exceptions by id prefix (OpenAI's fine-tunes).
     */
    organization?:
      | { field: string; fallback?: string }
      | "idPrefix"
      | { fixed: string; byPrefix?: Readonly<Record<string, string>> };
    /** Only models whose `field` contains one of `values` (Together AI: type chat). */
    only?: { field: string; values: readonly string[] };
    /** Ids matching this pattern are kept (OpenAI: chat models). */
    idPattern?: string;
    /** Ids containing any of these are left out (embedding, audio, tool-use models). */
    exclude?: readonly string[];
    /** Sorted by id (OpenAI); otherwise in the vendor's order. */
    sort?: boolean;
  }
  | { source: "static"; models: readonly { id: string; name: string; organization?: string }[] }
  | { source: "native" };

export interface LlmProviderEntry {
  id: string;
  name: string;
  kind: ProviderKind;
  /** The settings form; the update-env keys, their checks and the form all come from these fields. */
  fields: SettingField[];
  /** The key that names the chosen model, reported as `LLMModel`. */
  modelKey?: string;
  /** The key that holds the model's context window in tokens. */
  tokenLimitKey?: string;
  /** A fixed context window when the provider has no token-limit field (or the field is empty). */
  defaultTokenLimit?: number;
  lookup?: ModelLookup;
  listing?: ModelListing;
  autoDetect?: AutoDetect;
  /** Runs on the user's own machine or network (the "locally hosted" notice applies). */
  local?: boolean;
  /** Speaks the OpenAI protocol: everything the server needs to chat with it. */
  openai?: OpenAiConnection;
  /** What the provider is sent for a chat answer and where it goes (the privacy screen). */
  dataHandling: DataHandling;
}

const AZURE_TOKEN_LIMITS = [
  { value: "4096", label: "4,096 (gpt-3.5-turbo)" },
  { value: "16384", label: "16,384 (gpt-3.5-16k)" },
  { value: "8192", label: "8,192 (gpt-4)" },
  { value: "32768", label: "32,768 (gpt-4-32k)" },
  { value: "128000", label: "128,000 (gpt-4-turbo, gpt-4o, gpt-4o-mini)" },
] as const;
const OLLAMA_KEEP_ALIVE = [
  { value: "0", label: "No cache" },
  { value: "300", label: "5 minutes" },
  { value: "3600", label: "1 hour" },
  { value: "-1", label: "Forever" },
] as const;
const OLLAMA_PERFORMANCE = [{ value: "base", label: "Base" }, {
  value: "maximum",
  label: "Maximum",
}] as const;
/** Anthropic's models as the reference's form offers them (spec 02 §3); the lookup lists the account's own. */
const ANTHROPIC_MODELS = [
  "claude-instant-1.2",
  "claude-2.0",
  "claude-2.1",
  "claude-3-haiku-20240307",
  "claude-3-sonnet-20240229",
  "claude-3-opus-latest",
  "claude-3-5-haiku-latest",
  "claude-3-5-haiku-20241022",
  "claude-3-5-sonnet-latest",
  "claude-3-5-sonnet-20241022",
  "claude-3-5-sonnet-20240620",
].map((id) => ({ value: id, label: id }));
const GEMINI_MODELS = [
  { value: "gemini-pro", label: "gemini-pro", group: "Stable" },
  { value: "gemini-2.0-flash-exp-02-05", label: "gemini-2.0-flash-exp-02-05", group: "Experimental" },
  {
    value: "gemini-2.0-flash-thinking-exp-02-05",
    label: "gemini-2.0-flash-thinking-exp-02-05",
    group: "Experimental",
  },
  { value: "gemini-2.0-flash-001", label: "gemini-2.0-flash-001", group: "Experimental" },
];
const GEMINI_SAFETY = [
  { value: "BLOCK_NONE", label: "None" },
  { value: "BLOCK_ONLY_HIGH", label: "Block few" },
  { value: "BLOCK_MEDIUM_AND_ABOVE", label: "Block some (default)" },
  { value: "BLOCK_LOW_AND_ABOVE", label: "Block most" },
];
const COHERE_MODELS = [
  "command-r",
  "command-r-plus",
  "command",
  "command-light",
  "command-nightly",
  "command-light-nightly",
].map((id) => ({ value: id, label: id }));
const BEDROCK_CONNECTION = [
  { value: "iam", label: "IAM user" },
  { value: "sessionToken", label: "Session token" },
];
const BEDROCK_REGIONS = AWS_REGIONS.map((region) => ({
  value: region.code,
  label: `${region.name} (${region.code})`,
  group: region.public ? "Public" : "Restricted",
}));
/** Fireworks AI and Perplexity list no models of their own; the reference offers these. */
const FIREWORKS_MODELS = [
  {
    id: "accounts/fireworks/models/llama-v3p3-70b-instruct",
    name: "Llama 3.3 70B Instruct",
    organization: "Meta",
  },
  {
    id: "accounts/fireworks/models/llama-v3p1-405b-instruct",
    name: "Llama 3.1 405B Instruct",
    organization: "Meta",
  },
  {
    id: "accounts/fireworks/models/llama-v3p1-8b-instruct",
    name: "Llama 3.1 8B Instruct",
    organization: "Meta",
  },
  {
    id: "accounts/fireworks/models/mixtral-8x22b-instruct",
    name: "Mixtral MoE 8x22B Instruct",
    organization: "mistralai",
  },
  {
    id: "accounts/fireworks/models/qwen2p5-72b-instruct",
    name: "Qwen2.5 72B Instruct",
    organization: "Qwen",
  },
  { id: "accounts/fireworks/models/deepseek-v3", name: "DeepSeek V3", organization: "DeepSeek" },
  { id: "accounts/fireworks/models/deepseek-r1", name: "DeepSeek R1", organization: "DeepSeek" },
];
const PERPLEXITY_MODELS = [
  { id: "sonar-pro", name: "sonar-pro" },
  { id: "sonar", name: "sonar" },
  { id: "sonar-reasoning", name: "sonar-reasoning" },
];
/** OpenRouter's and Novita's attribution headers, as the reference sends them. */
const ATTRIBUTION = {
  "HTTP-Referer": "https://github.com/lectern-app/lectern",
  "X-Title": "Lectern",
} as const;

type FieldOptions = Partial<Omit<SettingField, "key" | "env">>;
/** An API key: secret, required unless said. */
const apiKey = (key: string, env: string, options: FieldOptions = {}): SettingField => ({
  key,
  env,
  type: "password",
  required: true,
  role: "apiKey",
  ...options,
});
/** The chat model, chosen from the provider's model lookup (or typed, with `type: "text"`). */
const model = (key: string, env: string, options: FieldOptions = {}): SettingField => ({
  key,
  env,
  type: "model",
  required: true,
  role: "model",
  ...options,
});
const baseUrl = (key: string, env: string, options: FieldOptions = {}): SettingField => ({
  key,
  env,
  type: "url",
  required: true,
  role: "baseUrl",
  ...options,
});
/** The model's context window in tokens: a whole number of at least 1. */
const tokenLimit = (key: string, env: string, options: FieldOptions = {}): SettingField => ({
  key,
  env,
  type: "number",
  required: true,
  role: "tokenLimit",
  ...options,
});
/** OpenRouter's and Novita's quiet time in milliseconds: at least 500, 500 by default. */
const streamTimeout = (key: string, env: string): SettingField => ({
  key,
  env,
  type: "number",
  required: false,
  role: "streamTimeout",
  defaultValue: "500",
  min: 500,
});

const entry = (
  id: string,
  name: string,
  kind: ProviderKind,
  destination: DataDestination,
  rest: Partial<Omit<LlmProviderEntry, "dataHandling">> & { policyUrl?: string } = {},
): LlmProviderEntry => {
  const { policyUrl, ...others } = rest;
  return {
    id,
    name,
    kind,
    fields: [],
    ...others,
    dataHandling: { receives: LLM_RECEIVES, destination, ...(policyUrl ? { policyUrl } : {}) },
  };
};

/**
 * A hosted vendor of the OpenAI protocol with a key and a model: its id, name, host, fixed base URL and the
 * spelling of its two keys. `rest` adds what differs (its model listing, time-out, headers).
 */
const hostedOpenAi = (
  id: string,
  name: string,
  baseUrlValue: string,
  keys: { apiKey: [string, string]; model: [string, string] },
  rest: Partial<Omit<LlmProviderEntry, "dataHandling">> & {
    policyUrl?: string;
    extraFields?: SettingField[];
  } = {},
): LlmProviderEntry => {
  const { extraFields = [], openai, ...others } = rest;
  return entry(id, name, "cloud", vendor(new URL(baseUrlValue).hostname), {
    fields: [apiKey(...keys.apiKey), model(...keys.model), ...extraFields],
    modelKey: keys.model[0],
    defaultTokenLimit: 4096,
    lookup: { provider: id, apiKeyField: keys.apiKey[0] },
    listing: { source: "openai", needsKey: true },
    openai: { baseUrl: baseUrlValue, apiKeyField: keys.apiKey[0], ...openai },
    ...others,
  });
};

/** The table: one row per provider. A vendor of the OpenAI protocol needs nothing but its row. */
export const LLM_PROVIDERS: LlmProviderEntry[] = [
  entry("openai", "OpenAI", "cloud", vendor("api.openai.com"), {
    policyUrl: "https://openai.com/policies/privacy-policy/",
    fields: [
      apiKey("OpenAiKey", "OPEN_AI_KEY", {
        placeholder: "sk-...",
        check: { startsWith: "sk-", message: "OpenAI Key must start with sk-" },
      }),
      model("OpenAiModelPref", "OPEN_MODEL_PREF", { defaultValue: "gpt-4o-mini" }),
    ],
    modelKey: "OpenAiModelPref",
    defaultTokenLimit: 128_000,
    lookup: { provider: "openai", apiKeyField: "OpenAiKey" },
    listing: {
      source: "openai",
      needsKey: true,
      idPattern: "^(gpt|o\\d|chatgpt|ft:)",
      exclude: [
        "embedding",
        "tts",
        "whisper",
        "dall-e",
        "audio",
        "realtime",
        "transcribe",
        "image",
        "moderation",
        "search",
        "instruct",
      ],
      organization: { fixed: "OpenAi", byPrefix: { "ft:": "Your Fine-Tunes" } },
      sort: true,
    },
    openai: { baseUrl: "https://api.openai.com/v1", apiKeyField: "OpenAiKey" },
  }),
  entry("azure", "Azure OpenAI", "cloud", endpoint("AzureOpenAiEndpoint"), {
    policyUrl: "https://privacy.microsoft.com/privacystatement",
    fields: [
      baseUrl("AzureOpenAiEndpoint", "AZURE_OPENAI_ENDPOINT", {
        placeholder: "https://my-resource.openai.azure.com",
      }),
      apiKey("AzureOpenAiKey", "AZURE_OPENAI_KEY"),
      model("AzureOpenAiModelPref", "AZURE_OPENAI_MODEL_PREF", {
        type: "text",
        placeholder: "my-gpt-4o-deployment",
      }),
      tokenLimit("AzureOpenAiTokenLimit", "AZURE_OPENAI_TOKEN_LIMIT", {
        type: "select",
        defaultValue: "4096",
        options: AZURE_TOKEN_LIMITS,
      }),
    ],
    modelKey: "AzureOpenAiModelPref",
    tokenLimitKey: "AzureOpenAiTokenLimit",
    defaultTokenLimit: 4096,
    openai: { baseUrlField: "AzureOpenAiEndpoint", apiKeyField: "AzureOpenAiKey", azure: true },
  }),
  entry("anthropic", "Anthropic", "cloud", vendor("api.anthropic.com"), {
    policyUrl: "https://www.anthropic.com/privacy",
    fields: [
      apiKey("AnthropicApiKey", "ANTHROPIC_API_KEY", {
        placeholder: "sk-ant-...",
        check: { startsWith: "sk-ant-", message: "Anthropic Key must start with sk-ant-" },
      }),
      model("AnthropicModelPref", "ANTHROPIC_MODEL_PREF", {
        defaultValue: "claude-2",
        options: ANTHROPIC_MODELS,
      }),
    ],
    modelKey: "AnthropicModelPref",
    defaultTokenLimit: 200_000,
    lookup: { provider: "anthropic", apiKeyField: "AnthropicApiKey" },
    listing: { source: "native" },
  }),
  entry("gemini", "Gemini", "cloud", vendor("generativelanguage.googleapis.com"), {
    policyUrl: "https://policies.google.com/privacy",
    fields: [
      apiKey("GeminiLLMApiKey", "GEMINI_API_KEY", { placeholder: "Google Gemini API Key" }),
      // The spec's models until the lookup lists the key's own, Stable and Experimental.
      model("GeminiLLMModelPref", "GEMINI_LLM_MODEL_PREF", {
        defaultValue: "gemini-pro",
        options: GEMINI_MODELS,
        check: "notEmpty",
      }),
      {
        key: "GeminiSafetySetting",
        env: "GEMINI_SAFETY_SETTING",
        type: "select",
        required: true,
        defaultValue: "BLOCK_MEDIUM_AND_ABOVE",
        options: GEMINI_SAFETY,
      },
    ],
    modelKey: "GeminiLLMModelPref",
    defaultTokenLimit: 30_720,
    lookup: { provider: "gemini", apiKeyField: "GeminiLLMApiKey" },
    listing: { source: "native" },
  }),
  entry("huggingface", "HuggingFace", "cloud", endpoint("HuggingFaceLLMEndpoint"), {
    policyUrl: "https://huggingface.co/privacy",
    fields: [
      baseUrl("HuggingFaceLLMEndpoint", "HUGGING_FACE_LLM_ENDPOINT", {
        placeholder: "https://example.endpoints.huggingface.cloud",
      }),
      apiKey("HuggingFaceLLMAccessToken", "HUGGING_FACE_LLM_API_KEY", {
        placeholder: "HuggingFace Access Token",
      }),
      tokenLimit("HuggingFaceLLMTokenLimit", "HUGGING_FACE_LLM_TOKEN_LIMIT", { placeholder: "4096" }),
    ],
    tokenLimitKey: "HuggingFaceLLMTokenLimit",
    defaultTokenLimit: 4096,
    // A TGI endpoint runs one model and speaks the OpenAI protocol under /v1.
    openai: {
      baseUrlField: "HuggingFaceLLMEndpoint",
      baseUrlSuffix: "/v1",
      apiKeyField: "HuggingFaceLLMAccessToken",
      fixedModel: "tgi",
    },
  }),
  entry("ollama", "Ollama", "local", endpoint("OllamaLLMBasePath"), {
    fields: [
      baseUrl("OllamaLLMBasePath", "OLLAMA_BASE_PATH", { placeholder: "http://127.0.0.1:11434" }),
      model("OllamaLLMModelPref", "OLLAMA_MODEL_PREF"),
      tokenLimit("OllamaLLMTokenLimit", "OLLAMA_MODEL_TOKEN_LIMIT", { defaultValue: "4096" }),
      {
        key: "OllamaLLMKeepAliveSeconds",
        env: "OLLAMA_KEEP_ALIVE_TIMEOUT",
        type: "select",
        required: true,
        defaultValue: "300",
        options: OLLAMA_KEEP_ALIVE,
        check: "wholeNumber",
      },
      {
        key: "OllamaLLMPerformanceMode",
        env: "OLLAMA_PERFORMANCE_MODE",
        type: "select",
        required: true,
        defaultValue: "base",
        options: OLLAMA_PERFORMANCE,
      },
      apiKey("OllamaLLMAuthToken", "OLLAMA_AUTH_TOKEN", { required: false }),
    ],
    modelKey: "OllamaLLMModelPref",
    tokenLimitKey: "OllamaLLMTokenLimit",
    lookup: { provider: "ollama", basePathField: "OllamaLLMBasePath", apiKeyField: "OllamaLLMAuthToken" },
    listing: { source: "native" },
    autoDetect: { suffix: ":11434" },
    local: true,
  }),
  hostedOpenAi("novita", "Novita AI", "https://api.novita.ai/v3/openai", {
    apiKey: ["NovitaLLMApiKey", "NOVITA_LLM_API_KEY"],
    model: ["NovitaLLMModelPref", "NOVITA_LLM_MODEL_PREF"],
  }, {
    policyUrl: "https://novita.ai/legal/privacy-policy",
    extraFields: [streamTimeout("NovitaLLMTimeout", "NOVITA_LLM_TIMEOUT_MS")],
    lookup: { provider: "novita" },
    listing: { source: "openai", anonymous: true, name: ["title"], organization: "idPrefix" },
    openai: {
      headers: { "HTTP-Referer": ATTRIBUTION["HTTP-Referer"], "X-Novita-Source": "lectern" },
      streamTimeoutField: "NovitaLLMTimeout",
    },
  }),
  entry("lmstudio", "LM Studio", "local", endpoint("LMStudioBasePath"), {
    fields: [
      baseUrl("LMStudioBasePath", "LMSTUDIO_BASE_PATH", {
        placeholder: "http://localhost:1234/v1",
        check: "urlWithV1",
      }),
      model("LMStudioModelPref", "LMSTUDIO_MODEL_PREF"),
      tokenLimit("LMStudioTokenLimit", "LMSTUDIO_MODEL_TOKEN_LIMIT", { defaultValue: "4096" }),
    ],
    modelKey: "LMStudioModelPref",
    tokenLimitKey: "LMStudioTokenLimit",
    lookup: { provider: "lmstudio", basePathField: "LMStudioBasePath" },
    listing: { source: "openai", organization: { field: "owned_by" } },
    openai: { baseUrlField: "LMStudioBasePath" },
    autoDetect: { suffix: ":1234/v1" },
    local: true,
  }),
  entry("localai", "Local AI", "local", endpoint("LocalAiBasePath"), {
    fields: [
      baseUrl("LocalAiBasePath", "LOCAL_AI_BASE_PATH", {
        placeholder: "http://localhost:8080/v1",
        check: "urlWithV1",
      }),
      apiKey("LocalAiApiKey", "LOCAL_AI_API_KEY", { required: false }),
      model("LocalAiModelPref", "LOCAL_AI_MODEL_PREF"),
      tokenLimit("LocalAiTokenLimit", "LOCAL_AI_MODEL_TOKEN_LIMIT", { placeholder: "4096" }),
    ],
    modelKey: "LocalAiModelPref",
    tokenLimitKey: "LocalAiTokenLimit",
    lookup: {
      provider: "localai",
      basePathField: "LocalAiBasePath",
      apiKeyField: "LocalAiApiKey",
      basePathMustContain: "/v1",
    },
    listing: { source: "openai" },
    openai: { baseUrlField: "LocalAiBasePath", apiKeyField: "LocalAiApiKey" },
    autoDetect: { suffix: ":8080/v1" },
    local: true,
  }),
  entry("koboldcpp", "KoboldCPP", "local", endpoint("KoboldCPPBasePath"), {
    fields: [
      baseUrl("KoboldCPPBasePath", "KOBOLD_CPP_BASE_PATH", { placeholder: "http://127.0.0.1:5000/v1" }),
      model("KoboldCPPModelPref", "KOBOLD_CPP_MODEL_PREF"),
      tokenLimit("KoboldCPPTokenLimit", "KOBOLD_CPP_MODEL_TOKEN_LIMIT", { defaultValue: "4096" }),
    ],
    modelKey: "KoboldCPPModelPref",
    tokenLimitKey: "KoboldCPPTokenLimit",
    lookup: { provider: "koboldcpp", basePathField: "KoboldCPPBasePath", basePathMustContain: "/v1" },
    listing: { source: "openai" },
    openai: { baseUrlField: "KoboldCPPBasePath" },
    // The reference tries 5000; KoboldCPP itself listens on 5001 unless told otherwise.
    autoDetect: { suffix: ":5000/v1", suffixes: [":5001/v1"] },
    local: true,
  }),
  entry("textgenwebui", "Oobabooga Web UI", "local", endpoint("TextGenWebUIBasePath"), {
    fields: [
      baseUrl("TextGenWebUIBasePath", "TEXT_GEN_WEB_UI_BASE_PATH", {
        placeholder: "http://127.0.0.1:5000/v1",
      }),
      tokenLimit("TextGenWebUITokenLimit", "TEXT_GEN_WEB_UI_MODEL_TOKEN_LIMIT", {
        placeholder: "Content window limit (eg: 4096)",
      }),
      apiKey("TextGenWebUIAPIKey", "TEXT_GEN_WEB_UI_API_KEY", {
        required: false,
        placeholder: "TextGen Web UI API Key",
      }),
    ],
    tokenLimitKey: "TextGenWebUITokenLimit",
    // No model field: the web UI answers with the model it has loaded. Its lookup only finds the endpoint.
    lookup: {
      provider: "textgenwebui",
      basePathField: "TextGenWebUIBasePath",
      apiKeyField: "TextGenWebUIAPIKey",
    },
    listing: { source: "openai" },
    openai: {
      baseUrlField: "TextGenWebUIBasePath",
      apiKeyField: "TextGenWebUIAPIKey",
      fixedModel: "default",
    },
    autoDetect: { suffix: ":5000/v1" },
    local: true,
  }),
  hostedOpenAi("togetherai", "Together AI", "https://api.together.xyz/v1", {
    apiKey: ["TogetherAiApiKey", "TOGETHER_AI_API_KEY"],
    model: ["TogetherAiModelPref", "TOGETHER_AI_MODEL_PREF"],
  }, {
    policyUrl: "https://www.together.ai/privacy",
    listing: {
      source: "openai",
      needsKey: true,
      name: ["display_name"],
      organization: { field: "organization", fallback: "Unknown" },
      only: { field: "type", values: ["chat"] },
    },
  }),
  hostedOpenAi("fireworksai", "Fireworks AI", "https://api.fireworks.ai/inference/v1", {
    apiKey: ["FireworksAiLLMApiKey", "FIREWORKS_AI_LLM_API_KEY"],
    model: ["FireworksAiLLMModelPref", "FIREWORKS_AI_LLM_MODEL_PREF"],
  }, {
    policyUrl: "https://fireworks.ai/privacy-policy",
    lookup: { provider: "fireworksai" },
    listing: { source: "static", models: FIREWORKS_MODELS },
  }),
  hostedOpenAi("mistral", "Mistral", "https://api.mistral.ai/v1", {
    apiKey: ["MistralApiKey", "MISTRAL_API_KEY"],
    model: ["MistralModelPref", "MISTRAL_MODEL_PREF"],
  }, {
    policyUrl: "https://legal.mistral.ai/terms/privacy-policy",
    defaultTokenLimit: 32_000,
    listing: { source: "openai", needsKey: true, exclude: ["embed"] },
  }),
  hostedOpenAi("perplexity", "Perplexity AI", "https://api.perplexity.ai", {
    apiKey: ["PerplexityApiKey", "PERPLEXITY_API_KEY"],
    model: ["PerplexityModelPref", "PERPLEXITY_MODEL_PREF"],
  }, {
    policyUrl: "https://www.perplexity.ai/privacy",
    defaultTokenLimit: 127_072,
    lookup: { provider: "perplexity" },
    listing: { source: "static", models: PERPLEXITY_MODELS },
  }),
  hostedOpenAi("openrouter", "OpenRouter", "https://openrouter.ai/api/v1", {
    apiKey: ["OpenRouterApiKey", "OPENROUTER_API_KEY"],
    model: ["OpenRouterModelPref", "OPENROUTER_MODEL_PREF"],
  }, {
    policyUrl: "https://openrouter.ai/privacy",
    extraFields: [streamTimeout("OpenRouterTimeout", "OPENROUTER_TIMEOUT_MS")],
    lookup: { provider: "openrouter" },
    listing: { source: "openai", anonymous: true, name: ["name"], organization: "idPrefix" },
    openai: { headers: ATTRIBUTION, streamTimeoutField: "OpenRouterTimeout" },
  }),
  hostedOpenAi("groq", "Groq", "https://api.groq.com/openai/v1", {
    apiKey: ["GroqApiKey", "GROQ_API_KEY"],
    model: ["GroqModelPref", "GROQ_MODEL_PREF"],
  }, {
    policyUrl: "https://groq.com/privacy-policy/",
    defaultTokenLimit: 8192,
    listing: { source: "openai", needsKey: true, exclude: ["whisper", "tool-use"] },
  }),
  entry("cohere", "Cohere", "cloud", vendor("api.cohere.com"), {
    policyUrl: "https://cohere.com/privacy",
    fields: [
      apiKey("CohereApiKey", "COHERE_API_KEY", { placeholder: "Cohere API Key" }),
      // The spec's models until the lookup lists those the key may chat with.
      model("CohereModelPref", "COHERE_MODEL_PREF", {
        defaultValue: "command-r",
        options: COHERE_MODELS,
        check: "notEmpty",
      }),
    ],
    modelKey: "CohereModelPref",
    defaultTokenLimit: 128_000,
    lookup: { provider: "cohere", apiKeyField: "CohereApiKey" },
    listing: { source: "native" },
  }),
  entry("litellm", "LiteLLM", "self-hosted", endpoint("LiteLLMBasePath"), {
    fields: [
      baseUrl("LiteLLMBasePath", "LITE_LLM_BASE_PATH", { placeholder: "http://127.0.0.1:4000" }),
      model("LiteLLMModelPref", "LITE_LLM_MODEL_PREF"),
      tokenLimit("LiteLLMTokenLimit", "LITE_LLM_MODEL_TOKEN_LIMIT", { placeholder: "4096" }),
      apiKey("LiteLLMAPIKey", "LITE_LLM_API_KEY", { required: false, placeholder: "sk-mysecretkey" }),
    ],
    modelKey: "LiteLLMModelPref",
    tokenLimitKey: "LiteLLMTokenLimit",
    defaultTokenLimit: 4096,
    lookup: {
      provider: "litellm",
      basePathField: "LiteLLMBasePath",
      apiKeyField: "LiteLLMAPIKey",
      basePathMustContain: "/v1",
    },
    listing: { source: "openai" },
    openai: { baseUrlField: "LiteLLMBasePath", apiKeyField: "LiteLLMAPIKey" },
    autoDetect: { suffix: ":4000/v1" },
  }),
  hostedOpenAi("deepseek", "DeepSeek", "https://api.deepseek.com/v1", {
    apiKey: ["DeepSeekApiKey", "DEEPSEEK_API_KEY"],
    model: ["DeepSeekModelPref", "DEEPSEEK_MODEL_PREF"],
  }, {
    policyUrl: "https://cdn.deepseek.com/policies/en-US/deepseek-privacy-policy.html",
    defaultTokenLimit: 64_000,
    listing: { source: "openai", needsKey: true, organization: { field: "owned_by" } },
  }),
  hostedOpenAi("apipie", "APIpie", "https://apipie.ai/v1", {
    apiKey: ["ApipieLLMApiKey", "APIPIE_LLM_API_KEY"],
    model: ["ApipieLLMModelPref", "APIPIE_LLM_MODEL_PREF"],
  }, {
    policyUrl: "https://apipie.ai/docs/Terms/privacy",
    listing: {
      source: "openai",
      id: ["provider", "model"],
      organization: { field: "provider" },
      only: { field: "subtype", values: ["chat", "chatx"] },
    },
  }),
  entry("generic-openai", "Generic OpenAI", "self-hosted", endpoint("GenericOpenAiBasePath"), {
    fields: [
      baseUrl("GenericOpenAiBasePath", "GENERIC_OPEN_AI_BASE_PATH", {
        placeholder: "https://api.example.com/v1",
      }),
      apiKey("GenericOpenAiKey", "GENERIC_OPEN_AI_API_KEY", { required: false }),
      model("GenericOpenAiModelPref", "GENERIC_OPEN_AI_MODEL_PREF", {
        type: "text",
        placeholder: "my-model",
      }),
      tokenLimit("GenericOpenAiTokenLimit", "GENERIC_OPEN_AI_MODEL_TOKEN_LIMIT", { placeholder: "4096" }),
      tokenLimit("GenericOpenAiMaxTokens", "GENERIC_OPEN_AI_MAX_TOKENS", {
        role: "maxTokens",
        defaultValue: "1024",
      }),
    ],
    modelKey: "GenericOpenAiModelPref",
    tokenLimitKey: "GenericOpenAiTokenLimit",
    lookup: {
      provider: "generic-openai",
      basePathField: "GenericOpenAiBasePath",
      apiKeyField: "GenericOpenAiKey",
    },
    listing: { source: "openai", organization: { field: "owned_by" } },
    openai: {
      baseUrlField: "GenericOpenAiBasePath",
      apiKeyField: "GenericOpenAiKey",
      maxTokensField: "GenericOpenAiMaxTokens",
    },
  }),
  entry("bedrock", "AWS Bedrock", "cloud", vendor(), {
    policyUrl: "https://aws.amazon.com/bedrock/security-compliance/",
    fields: [
      {
        key: "AwsBedrockLLMConnectionMethod",
        env: "AWS_BEDROCK_LLM_CONNECTION_METHOD",
        type: "select",
        required: true,
        defaultValue: "iam",
        options: BEDROCK_CONNECTION,
      },
      apiKey("AwsBedrockLLMAccessKeyId", "AWS_BEDROCK_LLM_ACCESS_KEY_ID", {
        placeholder: "AWS Bedrock IAM User Access ID",
        role: undefined,
      }),
      apiKey("AwsBedrockLLMAccessKey", "AWS_BEDROCK_LLM_ACCESS_KEY", {
        placeholder: "AWS Bedrock IAM User Access Key",
        role: undefined,
      }),
      apiKey("AwsBedrockLLMSessionToken", "AWS_BEDROCK_LLM_SESSION_TOKEN", {
        placeholder: "AWS Bedrock Session Token",
        role: undefined,
        check: "anyText",
        showWhen: { key: "AwsBedrockLLMConnectionMethod", equals: "sessionToken" },
      }),
      {
        key: "AwsBedrockLLMRegion",
        env: "AWS_BEDROCK_LLM_REGION",
        type: "select",
        required: true,
        defaultValue: "us-west-2",
        options: BEDROCK_REGIONS,
      },
      model("AwsBedrockLLMModel", "AWS_BEDROCK_LLM_MODEL_PREFERENCE", {
        type: "text",
        placeholder: "Model id from AWS eg: meta.llama3.1-v0.1",
      }),
      tokenLimit("AwsBedrockLLMTokenLimit", "AWS_BEDROCK_LLM_MODEL_TOKEN_LIMIT", {
        placeholder: "Content window limit (eg: 4096)",
      }),
    ],
    modelKey: "AwsBedrockLLMModel",
    tokenLimitKey: "AwsBedrockLLMTokenLimit",
    // The model stays free text (inference profiles and ARNs are not listed); the lookup suggests the
    // foundation models the keys may call, signed with the form's keys and region.
    lookup: {
      provider: "bedrock",
      apiKeyField: "AwsBedrockLLMAccessKey",
      optionFields: {
        connectionMethod: "AwsBedrockLLMConnectionMethod",
        accessKeyId: "AwsBedrockLLMAccessKeyId",
        sessionToken: "AwsBedrockLLMSessionToken",
        region: "AwsBedrockLLMRegion",
      },
    },
    listing: { source: "native" },
  }),
  hostedOpenAi("xai", "xAI", "https://api.x.ai/v1", {
    apiKey: ["XAIApiKey", "XAI_LLM_API_KEY"],
    model: ["XAIModelPref", "XAI_LLM_MODEL_PREF"],
  }, {
    policyUrl: "https://x.ai/legal/privacy-policy",
    defaultTokenLimit: 131_072,
  }),
  entry("native", "Native", "built-in", THIS_MACHINE, {
    fields: [
      model("NativeLLMModelPref", "NATIVE_LLM_MODEL_PREF"),
      tokenLimit("NativeLLMTokenLimit", "NATIVE_LLM_MODEL_TOKEN_LIMIT", { placeholder: "4096" }),
    ],
    modelKey: "NativeLLMModelPref",
    tokenLimitKey: "NativeLLMTokenLimit",
    lookup: { provider: "native-llm" },
    listing: { source: "native" },
  }),
];

export function llmProvider(id: string): LlmProviderEntry | undefined {
  return LLM_PROVIDERS.find((provider) => provider.id === id);
}

/** Every provider's model lookup names its provider: the lookup's name or the provider's id. */
export function llmProviderByLookup(name: string): LlmProviderEntry | undefined {
  return LLM_PROVIDERS.find((provider) => (provider.lookup?.provider ?? provider.id) === name);
}

/** Whether a field is shown, saved and used with the form's current values (Bedrock's session token). */
export function fieldApplies(field: SettingField, value: (key: string) => string | undefined): boolean {
  if (!field.showWhen) return true;
  const current = value(field.showWhen.key) ??
    LLM_PROVIDERS.flatMap((provider) => provider.fields).find((other) => other.key === field.showWhen?.key)
      ?.defaultValue;
  return current === field.showWhen.equals;
}

/** A model or limit field, hidden when a form asks only for credentials (`credentialsOnly`). */
export function isModelField(field: SettingField): boolean {
  return field.role === "model" || field.role === "tokenLimit" || field.role === "maxTokens";
}
