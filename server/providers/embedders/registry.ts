import {
  embedder as embedderEntry,
  maxChunkLengthFor,
  nativeEmbeddingModel,
} from "../../../shared/providers/embedder_catalog.ts";
import { ProviderError } from "../../errors.ts";
import { AZURE_API_VERSION, OPENAI_BASE_URL, type ProviderDeps } from "../endpoints.ts";
import { cohereEmbedder } from "./cohere.ts";
import { nativeEmbedder } from "./native.ts";
import { neuralEmbedder } from "./neural.ts";
import { ollamaEmbedder } from "./ollama.ts";
import { openAiCompatibleEmbedder } from "./openai_compatible.ts";
import { DEFAULT_RETRY, retrying, type RetryPolicy } from "./retry.ts";
import type { Embedder, SettingsView } from "./types.ts";
import { voyageEmbedder } from "./voyageai.ts";

/** How embedders reach their services and files (tests point the hosted ones at loopback fakes). */
export interface EmbedderDeps extends ProviderDeps {
  endpoints?: ProviderDeps["endpoints"] & { cohere?: string; voyageai?: string; huggingface?: string };
  /** STORAGE_DIR/models: where the native engine's neural models are. */
  modelsDir?: string;
  retry?: Partial<RetryPolicy>;
}

interface Context {
  settings: SettingsView;
  deps: EmbedderDeps;
  required: (key: string) => string;
  /** EmbeddingModelPref, else the engine form's default model. */
  model: () => string;
  maxChunkLength: number;
  positive: (key: string) => number | undefined;
}

/** One factory per engine of shared/providers/embedder_catalog.ts. */
const FACTORIES: Record<string, (context: Context) => Embedder> = {
  native: ({ settings, deps, maxChunkLength }) => {
    const model = nativeEmbeddingModel(settings.value("EmbeddingModelPref"));
    if (model.builtIn) return nativeEmbedder();
    if (!deps.modelsDir) throw new ProviderError("The native embedder has no models folder to read from.");
    return neuralEmbedder({
      modelsDir: deps.modelsDir,
      modelId: model.id,
      dimensions: model.dimensions,
      maxChunkLength,
    });
  },
  openai: ({ deps, required, model, maxChunkLength }) =>
    openAiCompatibleEmbedder({
      providerId: "openai",
      baseURL: deps.endpoints?.openai ?? OPENAI_BASE_URL,
      apiKey: required("OpenAiKey"),
      modelId: model(),
      maxChunkLength,
      maxInputsPerCall: 500,
      fetch: deps.fetch,
    }),
  azure: ({ deps, required, maxChunkLength }) =>
    openAiCompatibleEmbedder({
      providerId: "azure",
      baseURL: required("AzureOpenAiEndpoint"),
      apiKey: required("AzureOpenAiKey"),
      modelId: required("AzureOpenAiEmbeddingModelPref"),
      maxChunkLength,
      // Azure OpenAI takes at most 16 inputs per embeddings call.
      maxInputsPerCall: 16,
      azure: { apiVersion: AZURE_API_VERSION },
      fetch: deps.fetch,
    }),
  localai: ({ deps, settings, required, maxChunkLength }) =>
    openAiCompatibleEmbedder({
      providerId: "localai",
      baseURL: required("EmbeddingBasePath"),
      apiKey: settings.value("LocalAiApiKey"),
      modelId: required("EmbeddingModelPref"),
      maxChunkLength,
      maxInputsPerCall: 50,
      fetch: deps.fetch,
    }),
  lmstudio: ({ deps, required, maxChunkLength }) =>
    openAiCompatibleEmbedder({
      providerId: "lmstudio",
      baseURL: required("EmbeddingBasePath"),
      modelId: required("EmbeddingModelPref"),
      maxChunkLength,
      maxInputsPerCall: 32,
      fetch: deps.fetch,
    }),
  litellm: ({ deps, settings, required, maxChunkLength }) =>
    openAiCompatibleEmbedder({
      providerId: "litellm",
      baseURL: required("LiteLLMBasePath"),
      apiKey: settings.value("LiteLLMAPIKey"),
      modelId: required("EmbeddingModelPref"),
      maxChunkLength,
      maxInputsPerCall: 500,
      fetch: deps.fetch,
    }),
  "generic-openai": ({ deps, settings, required, maxChunkLength, positive }) =>
    openAiCompatibleEmbedder({
      providerId: "generic-openai",
      baseURL: required("EmbeddingBasePath"),
      apiKey: settings.value("GenericOpenAiEmbeddingApiKey"),
      modelId: required("EmbeddingModelPref"),
      maxChunkLength,
      maxInputsPerCall: positive("GenericOpenAiEmbeddingMaxConcurrentChunks") ?? 500,
      fetch: deps.fetch,
    }),
  ollama: ({ deps, settings, required, maxChunkLength }) =>
    ollamaEmbedder({
      baseURL: required("EmbeddingBasePath"),
      modelId: required("EmbeddingModelPref"),
      maxChunkLength,
      authToken: settings.value("OllamaLLMAuthToken"),
      fetch: deps.fetch,
    }),
  cohere: ({ deps, required, model, maxChunkLength }) =>
    cohereEmbedder({
      apiKey: required("CohereApiKey"),
      modelId: model(),
      maxChunkLength,
      baseURL: deps.endpoints?.cohere,
      fetch: deps.fetch,
    }),
  voyageai: ({ deps, required, model, maxChunkLength }) =>
    voyageEmbedder({
      apiKey: required("VoyageAiApiKey"),
      modelId: model(),
      maxChunkLength,
      baseURL: deps.endpoints?.voyageai,
      fetch: deps.fetch,
    }),
};

/**
 * The embedder `settings` describe (native when none is chosen), wrapped in the retry policy. Building it
 * touches no network and no file: a missing setting is a ProviderError naming it; unreachable services and
 * missing model files show on the first call.
 */
export function embedderFromSettings(settings: SettingsView, deps: EmbedderDeps = {}): Embedder {
  const engine = settings.value("EmbeddingEngine") ?? "native";
  const entry = embedderEntry(engine);
  const factory = FACTORIES[engine];
  if (!entry || !factory) {
    throw new ProviderError(`The embedding engine ${engine} is not available in this version of Lectern.`);
  }
  const required = (key: string) => {
    const value = settings.value(key);
    if (!value) throw new ProviderError(`The ${entry.name} embedder is not configured: ${key} is not set.`);
    return value;
  };
  const positive = (key: string) => {
    const value = Number(settings.value(key));
    return Number.isFinite(value) && value > 0 ? Math.floor(value) : undefined;
  };
  const modelField = entry.fields.find((field) => field.key === "EmbeddingModelPref");
  const model = () => {
    const value = settings.value("EmbeddingModelPref") || modelField?.defaultValue;
    if (!value) {
      throw new ProviderError(`The ${entry.name} embedder is not configured: EmbeddingModelPref is not set.`);
    }
    return value;
  };
  const maxChunkLength = maxChunkLengthFor(
    engine,
    settings.value("EmbeddingModelPref"),
    positive("EmbeddingModelMaxChunkLength"),
  );
  const embedder = factory({ settings, deps, required, model, maxChunkLength, positive });
  return engine === "native" && embedder.modelId === nativeEmbeddingModel(undefined).id
    ? embedder
    : retrying(embedder, { ...DEFAULT_RETRY, ...deps.retry });
}
