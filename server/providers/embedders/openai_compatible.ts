import { lazyOpenAiClient } from "../llm/openai_compatible.ts";
import { ProviderError } from "../../errors.ts";
import type { Embedder } from "./types.ts";

export interface OpenAiCompatibleEmbedderOptions {
  providerId: string;
  baseURL: string;
  apiKey?: string;
  modelId: string;
  maxChunkLength: number;
  maxInputsPerCall: number;
  fetch?: typeof fetch;
}

/** Any OpenAI-compatible `/embeddings` endpoint. */
export function openAiCompatibleEmbedder(options: OpenAiCompatibleEmbedderOptions): Embedder {
  const call = lazyOpenAiClient(options);
  return {
    fingerprint: `${options.providerId}:${options.baseURL}:${options.modelId}`,
    modelId: options.modelId,
    maxChunkLength: options.maxChunkLength,
    maxInputsPerCall: options.maxInputsPerCall,
    async embed(texts: string[], signal?: AbortSignal) {
      const answer = await call((client) =>
        client.embeddings.create({ model: options.modelId, input: texts }, { signal })
      );
      const vectors = [...answer.data].sort((a, b) => a.index - b.index).map((item) => item.embedding);
      if (vectors.length !== texts.length) {
        throw new ProviderError(
          `The embedder at ${options.baseURL} returned ${vectors.length} vectors for ${texts.length} texts.`,
        );
      }
      return vectors;
    },
  };
}
