import { ProviderError } from "../../errors.ts";
import { checkVectors, postJson } from "./http.ts";
import type { Embedder } from "./types.ts";

export const COHERE_BASE_URL = "https://api.cohere.com";

export interface CohereEmbedderOptions {
  apiKey: string;
  modelId: string;
  maxChunkLength: number;
  baseURL?: string;
  fetch?: typeof fetch;
}

/** Cohere's `POST /v2/embed`; passages and queries are told apart by `input_type`. */
export function cohereEmbedder(options: CohereEmbedderOptions): Embedder {
  const root = (options.baseURL ?? COHERE_BASE_URL).replace(/\/+$/, "");

  async function call(texts: string[], inputType: string, signal?: AbortSignal): Promise<number[][]> {
    const answer = await postJson(`${root}/v2/embed`, {
      model: options.modelId,
      texts,
      input_type: inputType,
      embedding_types: ["float"],
    }, {
      provider: "Cohere",
      headers: { Authorization: `Bearer ${options.apiKey}`, Accept: "application/json" },
      fetch: options.fetch,
      signal,
    });
    const embeddings = answer.embeddings as { float?: unknown[] } | unknown[] | undefined;
    // v2 answers {embeddings:{float:[…]}}; v1-style servers answer a bare list.
    const vectors = Array.isArray(embeddings) ? embeddings : embeddings?.float;
    if (!Array.isArray(vectors)) throw new ProviderError("Cohere answered without float embeddings.");
    return checkVectors("Cohere", vectors, texts.length);
  }

  return {
    fingerprint: `cohere:${root}:${options.modelId}`,
    modelId: options.modelId,
    maxChunkLength: options.maxChunkLength,
    // Cohere's limit on texts per call.
    maxInputsPerCall: 96,
    embed: (texts, signal) => call(texts, "search_document", signal),
    embedQuery: async (text, signal) => (await call([text], "search_query", signal))[0],
  };
}
