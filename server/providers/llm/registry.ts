import {
  llmProvider,
  type LlmProviderEntry,
  type OpenAiConnection,
} from "../../../shared/providers/llm_catalog.ts";
import { ProviderError } from "../../errors.ts";
import type { SettingsService } from "../../settings/service.ts";
import { AZURE_API_VERSION, type ProviderDeps } from "../endpoints.ts";
import { openAiCompatibleChatModel } from "./openai_compatible.ts";
import { ollamaChatModel } from "./ollama.ts";
import { anthropicChatModel } from "./anthropic.ts";
import { GEMINI_SAFETY_SETTINGS, geminiChatModel, type GeminiSafetySetting } from "./gemini.ts";
import { cohereChatModel } from "./cohere.ts";
import { bedrockChatModel } from "./bedrock.ts";
import { nativeChatModel } from "./native_llm/chat_model.ts";
import { nativeModelsDirectory } from "./native_llm/models.ts";
import type { ChatModel, ModelOverride } from "./types.ts";

const DEFAULT_MAX_TOKENS = 1024;

interface Context {
  settings: SettingsService;
  deps: ProviderDeps;
  /** The chosen model: the workspace's override, else the instance's. */
  model: (key: string) => string;
  required: (key: string) => string;
  number: (key: string, fallback?: number) => number;
  /** The workspace's own model, if it names one. */
  override?: string;
}

/**
 * The providers with a protocol of their own. Every provider that speaks the OpenAI protocol is built from its
 * row of the provider table instead (`openai` in shared/providers/llm_catalog.ts).
 */
const FACTORIES: Record<string, (context: Context) => ChatModel> = {
  ollama: ({ deps, required, model, number, settings }) =>
    ollamaChatModel({
      baseURL: required("OllamaLLMBasePath"),
      modelId: model("OllamaLLMModelPref"),
      contextWindow: number("OllamaLLMTokenLimit", 4096),
      maxTokens: DEFAULT_MAX_TOKENS,
      keepAliveSeconds: Number(settings.value("OllamaLLMKeepAliveSeconds") ?? 300),
      performanceMode: settings.value("OllamaLLMPerformanceMode") === "maximum" ? "maximum" : "base",
      authToken: settings.value("OllamaLLMAuthToken"),
      fetch: deps.fetch,
    }),
  anthropic: ({ deps, required, model }) =>
    anthropicChatModel({
      apiKey: required("AnthropicApiKey"),
      modelId: model("AnthropicModelPref"),
      contextWindow: 200_000,
      maxTokens: DEFAULT_MAX_TOKENS,
      baseURL: deps.endpoints?.anthropic,
      fetch: deps.fetch,
    }),
  gemini: ({ deps, required, model, settings }) => {
    const safety = settings.value("GeminiSafetySetting");
    return geminiChatModel({
      apiKey: required("GeminiLLMApiKey"),
      modelId: model("GeminiLLMModelPref"),
      contextWindow: llmProvider("gemini")?.defaultTokenLimit ?? 30_720,
      maxTokens: DEFAULT_MAX_TOKENS,
      safetySetting: (GEMINI_SAFETY_SETTINGS as readonly string[]).includes(safety ?? "")
        ? safety as GeminiSafetySetting
        : undefined,
      baseURL: deps.endpoints?.gemini,
      fetch: deps.fetch,
    });
  },
  cohere: ({ deps, required, model }) =>
    cohereChatModel({
      apiKey: required("CohereApiKey"),
      modelId: model("CohereModelPref"),
      contextWindow: llmProvider("cohere")?.defaultTokenLimit ?? 128_000,
      maxTokens: DEFAULT_MAX_TOKENS,
      baseURL: deps.endpoints?.cohere,
      fetch: deps.fetch,
    }),
  bedrock: ({ deps, required, model, number, settings }) => {
    const connectionMethod = settings.value("AwsBedrockLLMConnectionMethod") === "sessionToken"
      ? "sessionToken"
      : "iam";
    return bedrockChatModel({
      connectionMethod,
      accessKeyId: required("AwsBedrockLLMAccessKeyId"),
      secretAccessKey: required("AwsBedrockLLMAccessKey"),
      sessionToken: connectionMethod === "sessionToken" ? required("AwsBedrockLLMSessionToken") : undefined,
      region: settings.value("AwsBedrockLLMRegion") || "us-west-2",
      modelId: model("AwsBedrockLLMModel"),
      contextWindow: number("AwsBedrockLLMTokenLimit", llmProvider("bedrock")?.defaultTokenLimit ?? 8191),
      maxTokens: DEFAULT_MAX_TOKENS,
      endpoint: deps.endpoints?.bedrock,
      fetch: deps.fetch,
    });
  },
  native: ({ deps, model, number }) => {
    if (!deps.modelsDir) throw new ProviderError("The built-in model has no models folder.");
    return nativeChatModel({
      modelsDir: nativeModelsDirectory(deps.modelsDir),
      modelId: model("NativeLLMModelPref"),
      contextWindow: number("NativeLLMTokenLimit", 4096),
    });
  },
};

/** The base URL of a provider of the OpenAI protocol: the field's (plus its suffix), or the vendor's own. */
export function openAiBaseUrl(
  entry: LlmProviderEntry,
  connection: OpenAiConnection,
  value: (key: string) => string | undefined,
  deps: ProviderDeps,
): string | undefined {
  if (connection.baseUrlField) {
    const base = value(connection.baseUrlField)?.replace(/\/+$/, "");
    return base ? `${base}${connection.baseUrlSuffix ?? ""}` : undefined;
  }
  return deps.endpoints?.[entry.id] ?? connection.baseUrl;
}

/** A chat model from a row of the provider table that speaks the OpenAI protocol. */
function fromRow(entry: LlmProviderEntry, connection: OpenAiConnection, context: Context): ChatModel {
  const { deps, settings, required, model, number } = context;
  const baseURL = connection.baseUrlField
    ? openAiBaseUrl(entry, connection, required, deps)!
    : openAiBaseUrl(entry, connection, (key) => settings.value(key), deps);
  if (!baseURL) throw new ProviderError(`${entry.name} has no base URL.`);
  const keyField = entry.fields.find((field) => field.key === connection.apiKeyField);
  const apiKey = keyField
    ? (keyField.required ? required(keyField.key) : settings.value(keyField.key))
    : undefined;
  const stale = connection.streamTimeoutField ? Number(settings.value(connection.streamTimeoutField)) : NaN;
  return openAiCompatibleChatModel({
    providerId: entry.id,
    providerName: entry.name,
    baseURL,
    apiKey,
    modelId: entry.modelKey ? model(entry.modelKey) : context.override ?? connection.fixedModel ?? entry.id,
    contextWindow: entry.tokenLimitKey
      ? number(entry.tokenLimitKey, entry.defaultTokenLimit)
      : entry.defaultTokenLimit ?? 4096,
    maxTokens: connection.maxTokensField
      ? number(connection.maxTokensField, DEFAULT_MAX_TOKENS)
      : DEFAULT_MAX_TOKENS,
    azure: connection.azure ? { apiVersion: AZURE_API_VERSION } : undefined,
    headers: connection.headers,
    // At least 500 ms, as the reference has it.
    staleCloseMs: connection.streamTimeoutField
      ? Math.max(500, Number.isFinite(stale) ? stale : 500)
      : undefined,
    requestUsage: !connection.baseUrlField,
    fetch: deps.fetch,
  });
}

/** The chat model the instance settings describe, or a ProviderError saying what is missing. */
export function chatModelFromSettings(
  settings: SettingsService,
  deps: ProviderDeps = {},
  override: ModelOverride = { provider: null, model: null },
): ChatModel {
  const providerId = override.provider ?? settings.value("LLMProvider");
  if (!providerId) {
    throw new ProviderError("No LLM provider is set. Choose one in Settings → LLM Preference.");
  }
  const entry = llmProvider(providerId);
  const connection = entry?.openai;
  const factory = FACTORIES[providerId] ??
    (entry && connection ? (context: Context) => fromRow(entry, connection, context) : undefined);
  if (!factory) {
    throw new ProviderError(`The LLM provider ${providerId} is not available in this version of Lectern.`);
  }
  const name = entry?.name ?? providerId;
  const required = (key: string) => {
    const value = settings.value(key);
    if (!value) throw new ProviderError(`${name} is not configured: ${key} is not set.`);
    return value;
  };
  return factory({
    settings,
    deps,
    required,
    model: (key) => override.model || required(key),
    override: override.model || undefined,
    number: (key, fallback) => {
      const value = Number(settings.value(key));
      if (Number.isFinite(value) && value > 0) return value;
      if (fallback !== undefined) return fallback;
      throw new ProviderError(`${name} is not configured: ${key} is not set.`);
    },
  });
}

/**
 * `chatModelFromSettings`, with the models of the OpenAI protocol kept while the settings stay the same
 * (`settings.version`): a chat then reuses its model and the SDK client in it (its connection settings, its
 * headers) instead of building them per message. Models of the other protocols are built per call as before.
 */
export function cachedChatModels(
  settings: SettingsService,
  deps: ProviderDeps = {},
): (override?: ModelOverride) => ChatModel {
  let version = -1;
  const models = new Map<string, ChatModel>();
  return (override = { provider: null, model: null }) => {
    if (settings.version !== version) {
      models.clear();
      version = settings.version;
    }
    const providerId = override.provider ?? settings.value("LLMProvider");
    const cacheable = providerId !== undefined && !FACTORIES[providerId] && llmProvider(providerId)?.openai;
    const key = `${override.provider ?? ""}\u0000${override.model ?? ""}`;
    const known = cacheable ? models.get(key) : undefined;
    if (known) return known;
    const model = chatModelFromSettings(settings, deps, override);
    if (cacheable) models.set(key, model);
    return model;
  };
}

/** The context window of the configured model, or null when no usable provider is set. */
export function contextWindowFromSettings(settings: SettingsService): number | null {
  const providerId = settings.value("LLMProvider");
  const entry = providerId ? llmProvider(providerId) : undefined;
  if (!entry) return null;
  const limit = entry.tokenLimitKey ? Number(settings.value(entry.tokenLimitKey)) : NaN;
  const value = Number.isFinite(limit) && limit > 0 ? limit : entry.defaultTokenLimit ?? NaN;
  return Number.isFinite(value) && value > 0 ? value : null;
}
