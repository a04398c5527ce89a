import { llmProvider } from "../../../shared/providers/llm_catalog.ts";
import { ProviderError } from "../../errors.ts";
import type { SettingsService } from "../../settings/service.ts";
import { AZURE_API_VERSION, OPENAI_BASE_URL, type ProviderDeps } from "../endpoints.ts";
import { openAiCompatibleChatModel } from "./openai_compatible.ts";
import { ollamaChatModel } from "./ollama.ts";
import { anthropicChatModel } from "./anthropic.ts";
import type { ChatModel, ModelOverride } from "./types.ts";

const DEFAULT_MAX_TOKENS = 1024;

interface Context {
  settings: SettingsService;
  deps: ProviderDeps;
  /** The chosen model: the workspace's override, else the instance's. */
  model: (key: string) => string;
  required: (key: string) => string;
  number: (key: string, fallback?: number) => number;
}

/** One factory per provider that has a settings form (shared/providers/llm_catalog.ts). */
const FACTORIES: Record<string, (context: Context) => ChatModel> = {
  "generic-openai": ({ deps, required, model, number, settings }) =>
    openAiCompatibleChatModel({
      providerId: "generic-openai",
      baseURL: required("GenericOpenAiBasePath"),
      apiKey: settings.value("GenericOpenAiKey"),
      modelId: model("GenericOpenAiModelPref"),
      contextWindow: number("GenericOpenAiTokenLimit"),
      maxTokens: number("GenericOpenAiMaxTokens", DEFAULT_MAX_TOKENS),
      fetch: deps.fetch,
    }),
  openai: ({ deps, required, model }) =>
    openAiCompatibleChatModel({
      providerId: "openai",
      baseURL: deps.endpoints?.openai ?? OPENAI_BASE_URL,
      apiKey: required("OpenAiKey"),
      modelId: model("OpenAiModelPref"),
      contextWindow: 128_000,
      maxTokens: DEFAULT_MAX_TOKENS,
      fetch: deps.fetch,
    }),
  azure: ({ deps, required, model, number }) =>
    openAiCompatibleChatModel({
      providerId: "azure",
      baseURL: required("AzureOpenAiEndpoint"),
      apiKey: required("AzureOpenAiKey"),
      modelId: model("AzureOpenAiModelPref"),
      contextWindow: number("AzureOpenAiTokenLimit", 4096),
      maxTokens: DEFAULT_MAX_TOKENS,
      azure: { apiVersion: AZURE_API_VERSION },
      fetch: deps.fetch,
    }),
  lmstudio: ({ deps, required, model, number }) =>
    openAiCompatibleChatModel({
      providerId: "lmstudio",
      baseURL: required("LMStudioBasePath"),
      modelId: model("LMStudioModelPref"),
      contextWindow: number("LMStudioTokenLimit", 4096),
      maxTokens: DEFAULT_MAX_TOKENS,
      fetch: deps.fetch,
    }),
  localai: ({ deps, required, model, number, settings }) =>
    openAiCompatibleChatModel({
      providerId: "localai",
      baseURL: required("LocalAiBasePath"),
      apiKey: settings.value("LocalAiApiKey"),
      modelId: model("LocalAiModelPref"),
      contextWindow: number("LocalAiTokenLimit"),
      maxTokens: DEFAULT_MAX_TOKENS,
      fetch: deps.fetch,
    }),
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
};

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
  const factory = FACTORIES[providerId];
  if (!factory) {
    throw new ProviderError(`The LLM provider ${providerId} is not available in this version of Lectern.`);
  }
  const name = llmProvider(providerId)?.name ?? providerId;
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
    number: (key, fallback) => {
      const value = Number(settings.value(key));
      if (Number.isFinite(value) && value > 0) return value;
      if (fallback !== undefined) return fallback;
      throw new ProviderError(`${name} is not configured: ${key} is not set.`);
    },
  });
}

/** The context window of the configured model, or null when no usable provider is set. */
export function contextWindowFromSettings(settings: SettingsService): number | null {
  const providerId = settings.value("LLMProvider");
  const entry = providerId ? llmProvider(providerId) : undefined;
  if (!entry) return null;
  const value = entry.tokenLimitKey
    ? Number(settings.value(entry.tokenLimitKey))
    : entry.defaultTokenLimit ?? NaN;
  return Number.isFinite(value) && value > 0 ? value : null;
}
