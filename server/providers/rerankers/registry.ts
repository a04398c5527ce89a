import { RERANKER_SETTINGS, rerankerEntry } from "../../../shared/providers/reranker_catalog.ts";
import { ProviderError } from "../../errors.ts";
import type { SettingsView } from "../embedders/types.ts";
import { cohereReranker, genericReranker, jinaReranker, voyageReranker } from "./api.ts";
import { localReranker, type RerankerDownloads } from "./local.ts";
import type { Reranker } from "./types.ts";

export interface RerankerDeps {
  /** STORAGE_DIR/models, where the local cross-encoder is. */
  modelsDir?: string;
  fetch?: typeof fetch;
  /** Fetches the local reranker's model when it is missing (the instance's model downloads). */
  downloads?: RerankerDownloads;
}

/** The instance's reranker from its settings (shared/providers/reranker_catalog.ts); the local one by default. */
export function rerankerFromSettings(settings: SettingsView, deps: RerankerDeps): Reranker {
  const provider = settings.value(RERANKER_SETTINGS.provider);
  const entry = rerankerEntry(provider);
  if (!entry) throw new ProviderError(`Unknown reranker: ${provider}.`);
  const model = settings.value(RERANKER_SETTINGS.model) || entry.defaultModel;
  if (entry.id === "native") {
    if (!deps.modelsDir) throw new ProviderError("The local reranker has no models folder to read from.");
    return localReranker({ modelsDir: deps.modelsDir, modelId: model, downloads: deps.downloads });
  }
  const baseUrl = settings.value(RERANKER_SETTINGS.basePath) || entry.defaultBasePath;
  if (!baseUrl) throw new ProviderError(`The ${entry.name} reranker needs a base URL.`);
  const apiKey = settings.value(RERANKER_SETTINGS.apiKey) || undefined;
  if (entry.needsKey && !apiKey) throw new ProviderError(`The ${entry.name} reranker needs an API key.`);
  const options = { baseUrl, model, apiKey, fetch: deps.fetch };
  switch (entry.id) {
    case "cohere":
      return cohereReranker(options);
    case "jina":
      return jinaReranker(options);
    case "voyageai":
      return voyageReranker(options);
    default:
      return genericReranker(options);
  }
}
