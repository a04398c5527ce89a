import { ProviderError } from "../../errors.ts";
import { checkVectors, postJson } from "./http.ts";
import type { Embedder } from "./types.ts";

export const VOYAGE_BASE_URL = "https://api.voyageai.com/v1";

export interface VoyageEmbedderOptions {
  apiKey: string;
  modelId: string;
  maxChunkLength: number;
  baseURL?: string;
  fetch?: typeof fetch;
}

/** Voyage AI's `POST /v1/embeddings`; passages and queries are told apart by `input_type`. */
export function voyageEmbedder(options: VoyageEmbedderOptions): Embedder {
  const root = (options.baseURL ?? VOYAGE_BASE_URL).replace(/\/+$/, "");

  async function call(input: string[], inputType: string, signal?: AbortSignal): Promise<number[][]> {
    const answer = await postJson(`${root}/embeddings`, {
      model: options.modelId,
      input,
      input_type: inputType,
      truncation: true,
    }, {
      provider: "Voyage AI",
      headers: { Authorization: `Bearer ${options.apiKey}` },
      fetch: options.fetch,
      signal,
    });
    if (!Array.isArray(answer.data)) throw new ProviderError("Voyage AI answered without a data list.");
    const vectors = [...answer.data as { index?: number; embedding?: unknown }[]]
      .sort((a, b) => (a.index ?? 0) - (b.index ?? 0))
      .map((item) => item.embedding);
    return checkVectors("Voyage AI", vectors, input.length);
  }

  return {
    fingerprint: `voyageai:${root}:${options.modelId}`,
    modelId: options.modelId,
    maxChunkLength: options.maxChunkLength,
    // Voyage's limit on inputs per call.
    maxInputsPerCall: 128,
    embed: (texts, signal) => call(texts, "document", signal),
    embedQuery: async (text, signal) => (await call([text], "query", signal))[0],
  };
}
