import { ProviderError } from "../../errors.ts";
import { checkVectors, postJson } from "./http.ts";
import { prefixesFor } from "./prefixes.ts";
import type { Embedder } from "./types.ts";

export interface OpenAiCompatibleEmbedderOptions {
  providerId: string;
  /** The API root including `/v1` (OpenAI, LocalAI, LM Studio, LiteLLM…); for Azure the resource endpoint. */
  baseURL: string;
  apiKey?: string;
  modelId: string;
  maxChunkLength: number;
  maxInputsPerCall: number;
  /** Azure OpenAI: `modelId` is the deployment, called under /openai/deployments with this API version. */
  azure?: { apiVersion: string };
  fetch?: typeof fetch;
}

/** Decodes a base64 embedding (little-endian float32), which some servers send whatever was asked. */
function decodeBase64(text: string): number[] {
  const bytes = Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
  return Array.from(new Float32Array(bytes.buffer, 0, Math.floor(bytes.length / 4)));
}

/**
 * Any OpenAI-compatible `/embeddings` endpoint, called with fetch: one request per batch, no retries of its
 * own (the registry wraps every embedder in one retry policy).
 */
export function openAiCompatibleEmbedder(options: OpenAiCompatibleEmbedderOptions): Embedder {
  const root = options.baseURL.replace(/\/+$/, "");
  const url = options.azure
    ? `${root}/openai/deployments/${
      encodeURIComponent(options.modelId)
    }/embeddings?api-version=${options.azure.apiVersion}`
    : `${root}/embeddings`;
  const headers: Record<string, string> = {};
  if (options.azure && options.apiKey) headers["api-key"] = options.apiKey;
  else if (options.apiKey) headers.Authorization = `Bearer ${options.apiKey}`;
  const prefixes = prefixesFor(options.modelId);

  async function call(input: string[], signal?: AbortSignal): Promise<number[][]> {
    const answer = await postJson(url, { model: options.modelId, input }, {
      provider: options.providerId,
      headers,
      fetch: options.fetch,
      signal,
    });
    if (!Array.isArray(answer.data)) {
      throw new ProviderError(`The ${options.providerId} embedder at ${root} answered without a data list.`);
    }
    const items = [...answer.data as { index?: number; embedding?: unknown }[]]
      .sort((a, b) => (a.index ?? 0) - (b.index ?? 0))
      .map((item) => typeof item.embedding === "string" ? decodeBase64(item.embedding) : item.embedding);
    return checkVectors(options.providerId, items, input.length);
  }

  return {
    fingerprint: `${options.providerId}:${options.baseURL}:${options.modelId}`,
    modelId: options.modelId,
    maxChunkLength: options.maxChunkLength,
    maxInputsPerCall: options.maxInputsPerCall,
    embed: (texts, signal) => call(texts.map((text) => prefixes.passage + text), signal),
    embedQuery: async (text, signal) => (await call([prefixes.query + text], signal))[0],
  };
}
