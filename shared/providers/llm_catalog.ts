import {
  type DataDestination,
  type DataHandling,
  endpoint,
  LLM_RECEIVES,
  THIS_MACHINE,
  vendor,
} from "./data_handling.ts";

/** The language-model providers the reference offers, in the order the provider list shows them. */
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

export interface SettingField {
  /** The update-env key, spelt as the reference spells it. */
  key: string;
  /**
   * `model` is a select filled by the provider's model lookup (`POST /api/system/custom-models`); `select`
   * offers the fixed `options`.
   */
  type: "url" | "password" | "text" | "number" | "select" | "model";
  required: boolean;
  placeholder?: string;
  defaultValue?: string;
  options?: readonly { value: string; label: string }[];
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
}

/** Where a local server usually listens, for endpoint auto-detect. */
export interface AutoDetect {
  /** Port and path, e.g. ":11434" or ":1234/v1"; tried on localhost, 127.0.0.1, host.docker.internal and the page's host. */
  suffix: string;
}

/**
 * Where a provider runs, which the provider lists show as its icon: a hosted cloud API, a model server on
 * this machine or network, an OpenAI-compatible or self-hosted endpoint of the admin's, or built into Lectern.
 */
export type ProviderKind = "cloud" | "local" | "self-hosted" | "built-in";

export interface LlmProviderEntry {
  id: LlmProviderId;
  name: string;
  kind: ProviderKind;
  /** The settings form; a provider whose form is empty cannot be chosen in this version. */
  fields: SettingField[];
  /** The key that names the chosen model, reported as `LLMModel`. */
  modelKey?: string;
  /** The key that holds the model's context window in tokens. */
  tokenLimitKey?: string;
  /** A fixed context window when the provider has no token-limit field. */
  defaultTokenLimit?: number;
  lookup?: ModelLookup;
  autoDetect?: AutoDetect;
  /** Runs on the user's own machine or network (the "locally hosted" notice applies). */
  local?: boolean;
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

const entry = (
  id: LlmProviderId,
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

export const LLM_PROVIDERS: readonly LlmProviderEntry[] = [
  entry("openai", "OpenAI", "cloud", vendor("api.openai.com"), {
    policyUrl: "https://openai.com/policies/privacy-policy/",
    fields: [
      { key: "OpenAiKey", type: "password", required: true, placeholder: "sk-..." },
      { key: "OpenAiModelPref", type: "model", required: true, defaultValue: "gpt-4o-mini" },
    ],
    modelKey: "OpenAiModelPref",
    defaultTokenLimit: 128_000,
    lookup: { provider: "openai", apiKeyField: "OpenAiKey" },
  }),
  entry("azure", "Azure OpenAI", "cloud", endpoint("AzureOpenAiEndpoint"), {
    policyUrl: "https://privacy.microsoft.com/privacystatement",
    fields: [
      {
        key: "AzureOpenAiEndpoint",
        type: "url",
        required: true,
        placeholder: "https://my-resource.openai.azure.com",
      },
      { key: "AzureOpenAiKey", type: "password", required: true },
      { key: "AzureOpenAiModelPref", type: "text", required: true, placeholder: "my-gpt-4o-deployment" },
      {
        key: "AzureOpenAiTokenLimit",
        type: "select",
        required: true,
        defaultValue: "4096",
        options: AZURE_TOKEN_LIMITS,
      },
    ],
    modelKey: "AzureOpenAiModelPref",
    tokenLimitKey: "AzureOpenAiTokenLimit",
  }),
  entry("anthropic", "Anthropic", "cloud", vendor("api.anthropic.com"), {
    policyUrl: "https://www.anthropic.com/privacy",
    fields: [
      { key: "AnthropicApiKey", type: "password", required: true, placeholder: "sk-ant-..." },
      { key: "AnthropicModelPref", type: "model", required: true, defaultValue: "claude-2" },
    ],
    modelKey: "AnthropicModelPref",
    defaultTokenLimit: 200_000,
    lookup: { provider: "anthropic", apiKeyField: "AnthropicApiKey" },
  }),
  entry("gemini", "Gemini", "cloud", vendor("generativelanguage.googleapis.com"), {
    policyUrl: "https://policies.google.com/privacy",
  }),
  entry("huggingface", "HuggingFace", "cloud", endpoint("HuggingFaceLLMEndpoint")),
  entry("ollama", "Ollama", "local", endpoint("OllamaLLMBasePath"), {
    fields: [
      { key: "OllamaLLMBasePath", type: "url", required: true, placeholder: "http://127.0.0.1:11434" },
      { key: "OllamaLLMModelPref", type: "model", required: true },
      { key: "OllamaLLMTokenLimit", type: "number", required: true, defaultValue: "4096" },
      {
        key: "OllamaLLMKeepAliveSeconds",
        type: "select",
        required: true,
        defaultValue: "300",
        options: OLLAMA_KEEP_ALIVE,
      },
      {
        key: "OllamaLLMPerformanceMode",
        type: "select",
        required: true,
        defaultValue: "base",
        options: OLLAMA_PERFORMANCE,
      },
      { key: "OllamaLLMAuthToken", type: "password", required: false },
    ],
    modelKey: "OllamaLLMModelPref",
    tokenLimitKey: "OllamaLLMTokenLimit",
    lookup: { provider: "ollama", basePathField: "OllamaLLMBasePath", apiKeyField: "OllamaLLMAuthToken" },
    autoDetect: { suffix: ":11434" },
    local: true,
  }),
  entry("novita", "Novita AI", "cloud", vendor("api.novita.ai"), {
    policyUrl: "https://novita.ai/legal/privacy-policy",
  }),
  entry("lmstudio", "LM Studio", "local", endpoint("LMStudioBasePath"), {
    fields: [
      { key: "LMStudioBasePath", type: "url", required: true, placeholder: "http://localhost:1234/v1" },
      { key: "LMStudioModelPref", type: "model", required: true },
      { key: "LMStudioTokenLimit", type: "number", required: true, defaultValue: "4096" },
    ],
    modelKey: "LMStudioModelPref",
    tokenLimitKey: "LMStudioTokenLimit",
    lookup: { provider: "lmstudio", basePathField: "LMStudioBasePath" },
    autoDetect: { suffix: ":1234/v1" },
    local: true,
  }),
  entry("localai", "Local AI", "local", endpoint("LocalAiBasePath"), {
    fields: [
      { key: "LocalAiBasePath", type: "url", required: true, placeholder: "http://localhost:8080/v1" },
      { key: "LocalAiApiKey", type: "password", required: false },
      { key: "LocalAiModelPref", type: "model", required: true },
      { key: "LocalAiTokenLimit", type: "number", required: true, placeholder: "4096" },
    ],
    modelKey: "LocalAiModelPref",
    tokenLimitKey: "LocalAiTokenLimit",
    lookup: {
      provider: "localai",
      basePathField: "LocalAiBasePath",
      apiKeyField: "LocalAiApiKey",
      basePathMustContain: "/v1",
    },
    autoDetect: { suffix: ":8080/v1" },
    local: true,
  }),
  entry("koboldcpp", "KoboldCPP", "local", endpoint("KoboldCPPBasePath")),
  entry("textgenwebui", "Oobabooga Web UI", "local", endpoint("TextGenWebUIBasePath")),
  entry("togetherai", "Together AI", "cloud", vendor("api.together.xyz"), {
    policyUrl: "https://www.together.ai/privacy",
  }),
  entry("fireworksai", "Fireworks AI", "cloud", vendor("api.fireworks.ai"), {
    policyUrl: "https://fireworks.ai/privacy-policy",
  }),
  entry("mistral", "Mistral", "cloud", vendor("api.mistral.ai"), {
    policyUrl: "https://legal.mistral.ai/terms/privacy-policy",
  }),
  entry("perplexity", "Perplexity AI", "cloud", vendor("api.perplexity.ai"), {
    policyUrl: "https://www.perplexity.ai/privacy",
  }),
  entry("openrouter", "OpenRouter", "cloud", vendor("openrouter.ai"), {
    policyUrl: "https://openrouter.ai/privacy",
  }),
  entry("groq", "Groq", "cloud", vendor("api.groq.com"), { policyUrl: "https://groq.com/privacy-policy/" }),
  entry("cohere", "Cohere", "cloud", vendor("api.cohere.com"), { policyUrl: "https://cohere.com/privacy" }),
  entry("litellm", "LiteLLM", "self-hosted", endpoint("LiteLLMBasePath")),
  entry("deepseek", "DeepSeek", "cloud", vendor("api.deepseek.com"), {
    policyUrl: "https://cdn.deepseek.com/policies/en-US/deepseek-privacy-policy.html",
  }),
  entry("apipie", "APIpie", "cloud", vendor("apipie.ai"), {
    policyUrl: "https://apipie.ai/docs/Terms/privacy",
  }),
  entry("generic-openai", "Generic OpenAI", "self-hosted", endpoint("GenericOpenAiBasePath"), {
    fields: [
      {
        key: "GenericOpenAiBasePath",
        type: "url",
        required: true,
        placeholder: "https://api.example.com/v1",
      },
      { key: "GenericOpenAiKey", type: "password", required: false },
      { key: "GenericOpenAiModelPref", type: "text", required: true, placeholder: "my-model" },
      { key: "GenericOpenAiTokenLimit", type: "number", required: true, placeholder: "4096" },
      { key: "GenericOpenAiMaxTokens", type: "number", required: true, defaultValue: "1024" },
    ],
    modelKey: "GenericOpenAiModelPref",
    tokenLimitKey: "GenericOpenAiTokenLimit",
  }),
  entry("bedrock", "AWS Bedrock", "cloud", vendor(), {
    policyUrl: "https://aws.amazon.com/bedrock/security-compliance/",
  }),
  entry("xai", "xAI", "cloud", vendor("api.x.ai"), { policyUrl: "https://x.ai/legal/privacy-policy" }),
  entry("native", "Native", "built-in", THIS_MACHINE),
];

export function llmProvider(id: string): LlmProviderEntry | undefined {
  return LLM_PROVIDERS.find((provider) => provider.id === id);
}
