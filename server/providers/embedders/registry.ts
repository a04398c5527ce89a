import { ProviderError } from "../../errors.ts";
import type { SettingsService } from "../../settings/service.ts";
import type { ProviderDeps } from "../llm/registry.ts";
import { nativeEmbedder } from "./native.ts";
import { openAiCompatibleEmbedder } from "./openai_compatible.ts";
import type { Embedder } from "./types.ts";

/** The embedder the instance settings describe (native when none is chosen). */
export function embedderFromSettings(settings: SettingsService, deps: ProviderDeps = {}): Embedder {
  const engine = settings.value("EmbeddingEngine") ?? "native";
  switch (engine) {
    case "native":
      return nativeEmbedder();
    case "generic-openai": {
      const baseURL = settings.value("EmbeddingBasePath");
      const modelId = settings.value("EmbeddingModelPref");
      if (!baseURL || !modelId) {
        throw new ProviderError(
          "The Generic OpenAI embedder is not configured: EmbeddingBasePath and EmbeddingModelPref are needed.",
        );
      }
      return openAiCompatibleEmbedder({
        providerId: engine,
        baseURL,
        apiKey: settings.value("GenericOpenAiEmbeddingApiKey"),
        modelId,
        maxChunkLength: Number(settings.value("EmbeddingModelMaxChunkLength") ?? 1000),
        maxInputsPerCall: 500,
        fetch: deps.fetch,
      });
    }
    default:
      throw new ProviderError(`The embedding engine ${engine} is not available in this version of Lectern.`);
  }
}
