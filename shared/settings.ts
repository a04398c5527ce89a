import { z } from "zod";
import { LLM_PROVIDER_IDS, llmProvider } from "./providers/llm_catalog.ts";
import {
  embedder,
  EMBEDDING_ENGINE_IDS,
  isSelectableEmbedder,
  VECTOR_DBS,
} from "./providers/embedder_catalog.ts";
import { AUDIO_SETTINGS, type AudioCheck } from "./providers/audio_catalog.ts";

/** What a stored secret looks like in every answer and in the forms (20 asterisks). */
export const MASKED_SECRET = "*".repeat(20);

/** A value the forms send back for a secret they did not change. */
export function isMaskedSecret(value: string): boolean {
  return /^\*{6,}$/.test(value);
}

const url = z.string().trim().refine((value) => {
  try {
    const parsed = new URL(value);
    return parsed.protocol === "http:" || parsed.protocol === "https:";
  } catch {
    return false;
  }
}, "URL is not a valid URL.").transform((value) => value.replace(/\/+$/, ""));

const notEmpty = z.string().trim().min(1, "Value cannot be empty");
const positiveInteger = z.string().trim().regex(/^\d+$/, "Value must be a whole number.").refine(
  (value) => Number(value) > 0,
  "Value must be greater than zero",
).transform((value) => String(Number(value)));
const anyText = z.string().trim();
const startsWith = (prefix: string, message: string) =>
  z.string().trim().refine((value) => value.startsWith(prefix), message);
const urlWithV1 = url.refine((value) => value.includes("/v1"), "URL must contain /v1.");
const wholeNumber = z.string().trim().regex(/^-?\d+$/, "Value must be a whole number.").transform((value) =>
  String(Number(value))
);
const oneOf = (values: readonly string[]) =>
  z.string().trim().refine((value) => values.includes(value), `Value must be one of ${values.join(", ")}`);

const llmProviderId = z.string().trim().superRefine((value, context) => {
  if (!(LLM_PROVIDER_IDS as readonly string[]).includes(value)) {
    context.addIssue({ code: "custom", message: `${value} is not a valid LLM provider.` });
  } else if ((llmProvider(value)?.fields.length ?? 0) === 0) {
    context.addIssue({ code: "custom", message: `${value} is not available in this version of Lectern.` });
  }
});
const embeddingEngineId = z.string().trim().superRefine((value, context) => {
  const entry = embedder(value);
  if (!(EMBEDDING_ENGINE_IDS as readonly string[]).includes(value) || !entry) {
    context.addIssue({ code: "custom", message: `${value} is not a supported embedding engine.` });
  } else if (!isSelectableEmbedder(entry)) {
    context.addIssue({ code: "custom", message: `${value} is not available in this version of Lectern.` });
  }
});
const vectorDbId = z.string().trim().superRefine((value, context) => {
  const entry = VECTOR_DBS.find((database) => database.id === value);
  if (!entry) context.addIssue({ code: "custom", message: `${value} is not a supported vector database.` });
  else if (!entry.builtIn) {
    context.addIssue({ code: "custom", message: `${value} is not available in this version of Lectern.` });
  }
});

export interface SettingDefinition {
  /** The update-env key. */
  key: string;
  /** The environment variable an operator sets to fix the value (it then wins and the UI shows it locked). */
  env: string;
  /** Secrets are stored encrypted and never returned: answers show `true`/`false` or 20 asterisks. */
  secret: boolean;
  /** Validates and normalises a submitted value; an empty string clears a setting that is not required. */
  schema: z.ZodType<string, string>;
  defaultValue?: string;
}

const setting = (
  key: string,
  env: string,
  schema: z.ZodType<string, string>,
  options: { secret?: boolean; defaultValue?: string } = {},
): SettingDefinition => ({
  key,
  env,
  schema,
  secret: options.secret ?? false,
  defaultValue: options.defaultValue,
});

/** Every instance setting this version accepts through `POST /api/system/update-env`. */
export const SETTING_KEYS: readonly SettingDefinition[] = [
  setting("LLMProvider", "LLM_PROVIDER", llmProviderId),
  setting("GenericOpenAiBasePath", "GENERIC_OPEN_AI_BASE_PATH", url),
  setting("GenericOpenAiKey", "GENERIC_OPEN_AI_API_KEY", anyText, { secret: true }),
  setting("GenericOpenAiModelPref", "GENERIC_OPEN_AI_MODEL_PREF", notEmpty),
  setting("GenericOpenAiTokenLimit", "GENERIC_OPEN_AI_MODEL_TOKEN_LIMIT", positiveInteger),
  setting("GenericOpenAiMaxTokens", "GENERIC_OPEN_AI_MAX_TOKENS", positiveInteger, { defaultValue: "1024" }),
  setting("OpenAiKey", "OPEN_AI_KEY", startsWith("sk-", "OpenAI Key must start with sk-"), { secret: true }),
  setting("OpenAiModelPref", "OPEN_MODEL_PREF", notEmpty, { defaultValue: "gpt-4o-mini" }),
  setting("AzureOpenAiEndpoint", "AZURE_OPENAI_ENDPOINT", url),
  setting("AzureOpenAiKey", "AZURE_OPENAI_KEY", notEmpty, { secret: true }),
  setting("AzureOpenAiModelPref", "AZURE_OPENAI_MODEL_PREF", notEmpty),
  setting("AzureOpenAiTokenLimit", "AZURE_OPENAI_TOKEN_LIMIT", positiveInteger, { defaultValue: "4096" }),
  setting(
    "AnthropicApiKey",
    "ANTHROPIC_API_KEY",
    startsWith("sk-ant-", "Anthropic Key must start with sk-ant-"),
    {
      secret: true,
    },
  ),
  setting("AnthropicModelPref", "ANTHROPIC_MODEL_PREF", notEmpty, { defaultValue: "claude-2" }),
  setting("OllamaLLMBasePath", "OLLAMA_BASE_PATH", url),
  setting("OllamaLLMModelPref", "OLLAMA_MODEL_PREF", notEmpty),
  setting("OllamaLLMTokenLimit", "OLLAMA_MODEL_TOKEN_LIMIT", positiveInteger, { defaultValue: "4096" }),
  setting("OllamaLLMKeepAliveSeconds", "OLLAMA_KEEP_ALIVE_TIMEOUT", wholeNumber, { defaultValue: "300" }),
  setting("OllamaLLMPerformanceMode", "OLLAMA_PERFORMANCE_MODE", oneOf(["base", "maximum"]), {
    defaultValue: "base",
  }),
  setting("OllamaLLMAuthToken", "OLLAMA_AUTH_TOKEN", anyText, { secret: true }),
  setting("LMStudioBasePath", "LMSTUDIO_BASE_PATH", urlWithV1),
  setting("LMStudioModelPref", "LMSTUDIO_MODEL_PREF", notEmpty),
  setting("LMStudioTokenLimit", "LMSTUDIO_MODEL_TOKEN_LIMIT", positiveInteger, { defaultValue: "4096" }),
  setting("LocalAiBasePath", "LOCAL_AI_BASE_PATH", urlWithV1),
  setting("LocalAiApiKey", "LOCAL_AI_API_KEY", anyText, { secret: true }),
  setting("LocalAiModelPref", "LOCAL_AI_MODEL_PREF", notEmpty),
  setting("LocalAiTokenLimit", "LOCAL_AI_MODEL_TOKEN_LIMIT", positiveInteger),
  setting("EmbeddingEngine", "EMBEDDING_ENGINE", embeddingEngineId, { defaultValue: "native" }),
  setting("EmbeddingBasePath", "EMBEDDING_BASE_PATH", url),
  setting("EmbeddingModelPref", "EMBEDDING_MODEL_PREF", notEmpty),
  setting("GenericOpenAiEmbeddingApiKey", "GENERIC_OPEN_AI_EMBEDDING_API_KEY", anyText, { secret: true }),
  setting(
    "EmbeddingModelMaxChunkLength",
    "EMBEDDING_MODEL_MAX_CHUNK_LENGTH",
    positiveInteger.or(z.literal("")),
  ),
  setting(
    "GenericOpenAiEmbeddingMaxConcurrentChunks",
    "GENERIC_OPEN_AI_EMBEDDING_MAX_CONCURRENT_CHUNKS",
    positiveInteger.or(z.literal("")),
  ),
  setting("AzureOpenAiEmbeddingModelPref", "AZURE_OPENAI_EMBEDDING_MODEL_PREF", notEmpty),
  setting("CohereApiKey", "COHERE_API_KEY", notEmpty, { secret: true }),
  setting("VoyageAiApiKey", "VOYAGEAI_API_KEY", notEmpty, { secret: true }),
  setting("LiteLLMBasePath", "LITE_LLM_BASE_PATH", url),
  setting("LiteLLMAPIKey", "LITE_LLM_API_KEY", anyText, { secret: true }),
  setting("VectorDB", "VECTOR_DB", vectorDbId),
  setting("ChromaEndpoint", "CHROMA_ENDPOINT", url),
  setting("ChromaApiHeader", "CHROMA_API_HEADER", anyText),
  setting("ChromaApiKey", "CHROMA_API_KEY", anyText, { secret: true }),
  ...AUDIO_SETTINGS.map((entry) =>
    setting(entry.key, entry.env, audioSchema(entry.check), {
      secret: entry.secret,
      defaultValue: entry.defaultValue,
    })
  ),
];

/** The zod check of a speech setting (shared/providers/audio_catalog.ts keeps them as data). */
function audioSchema(check: AudioCheck): z.ZodType<string, string> {
  switch (check.kind) {
    case "url":
      return url;
    case "notEmpty":
      return notEmpty;
    case "any":
      return anyText;
    case "prefix":
      return startsWith(check.prefix, check.message);
    case "oneOf":
      return z.string().trim().superRefine((value, context) => {
        if (!check.values.includes(value)) {
          context.addIssue({ code: "custom", message: check.message(value) });
        }
      });
  }
}

export function settingDefinition(key: string): SettingDefinition | undefined {
  return SETTING_KEYS.find((definition) => definition.key === key);
}
