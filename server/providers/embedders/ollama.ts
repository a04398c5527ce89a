import { ProviderError } from "../../errors.ts";
import { checkVectors, postJson } from "./http.ts";
import { prefixesFor } from "./prefixes.ts";
import type { Embedder } from "./types.ts";

export interface OllamaEmbedderOptions {
  baseURL: string;
  modelId: string;
  maxChunkLength: number;
  authToken?: string;
  fetch?: typeof fetch;
}

/** Ollama's own `/api/embed`, which takes a list of inputs and answers `{embeddings:[[…]]}`. */
export function ollamaEmbedder(options: OllamaEmbedderOptions): Embedder {
  const root = options.baseURL.replace(/\/+$/, "").replace(/\/v1$/, "");
  const prefixes = prefixesFor(options.modelId);
  const headers: Record<string, string> = options.authToken
    ? { Authorization: `Bearer ${options.authToken}` }
    : {};

  async function call(input: string[], signal?: AbortSignal): Promise<number[][]> {
    const answer = await postJson(`${root}/api/embed`, { model: options.modelId, input }, {
      provider: "ollama",
      headers,
      fetch: options.fetch,
      signal,
    });
    if (!Array.isArray(answer.embeddings)) {
      throw new ProviderError(`Ollama at ${root} answered without embeddings.`);
    }
    return checkVectors("ollama", answer.embeddings, input.length);
  }

  return {
    fingerprint: `ollama:${root}:${options.modelId}`,
    modelId: options.modelId,
    maxChunkLength: options.maxChunkLength,
    // Ollama runs the batch on one local model; small batches keep each request short.
    maxInputsPerCall: 32,
    embed: (texts, signal) => call(texts.map((text) => prefixes.passage + text), signal),
    embedQuery: async (text, signal) => (await call([prefixes.query + text], signal))[0],
  };
}
