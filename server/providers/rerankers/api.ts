// Rerankers behind an HTTP API: Cohere, Jina, Voyage, and any server with the common /rerank call.
import { ProviderError } from "../../errors.ts";
import type { Reranker } from "./types.ts";

/** A reranker answers within this or the search goes on unreranked. */
export const RERANK_TIMEOUT_MS = 15_000;

export interface ApiRerankerOptions {
  baseUrl: string;
  model: string;
  apiKey?: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

async function post(
  label: string,
  url: string,
  body: unknown,
  options: ApiRerankerOptions,
  signal?: AbortSignal,
): Promise<unknown> {
  const timeout = AbortSignal.timeout(options.timeoutMs ?? RERANK_TIMEOUT_MS);
  const response = await (options.fetch ?? fetch)(url, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      ...(options.apiKey ? { Authorization: `Bearer ${options.apiKey}` } : {}),
    },
    body: JSON.stringify(body),
    signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
  });
  const text = await response.text();
  if (!response.ok) {
    const detail = text.slice(0, 200).trim() || response.statusText;
    throw new ProviderError(
      `The ${label} reranker answered ${response.status}: ${detail}${/[.!?]$/.test(detail) ? "" : "."}`,
    );
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new ProviderError(`The ${label} reranker did not answer JSON.`);
  }
}

/**
 * Scores in the texts' order from `[{index, relevance_score | score}]`, found at `results` (Cohere, Jina,
 * llama.cpp, vLLM, Infinity), `data` (Voyage) or the top level (TEI). A text the answer leaves out scores
 * below every other.
 */
export function scoresOf(label: string, answer: unknown, count: number): number[] {
  const record = answer as Record<string, unknown> | null;
  const list = Array.isArray(answer)
    ? answer
    : Array.isArray(record?.results)
    ? record.results
    : record?.data;
  if (!Array.isArray(list)) throw new ProviderError(`The ${label} reranker's answer has no results.`);
  const scores = new Array<number>(count).fill(-Infinity);
  for (const item of list as Record<string, unknown>[]) {
    const index = Number(item?.index);
    const score = Number(item?.relevance_score ?? item?.score);
    if (!Number.isInteger(index) || index < 0 || index >= count || !Number.isFinite(score)) {
      throw new ProviderError(`The ${label} reranker returned a result that is not an index and a score.`);
    }
    scores[index] = score;
  }
  return scores;
}

const trim = (url: string) => url.replace(/\/+$/, "");

/** Cohere v2: POST /v2/rerank {model, query, documents, top_n} → {results: [{index, relevance_score}]}. */
export function cohereReranker(options: ApiRerankerOptions): Reranker {
  const label = "Cohere";
  return {
    label: `cohere:${options.model}`,
    score: async (query, texts, signal) =>
      scoresOf(
        label,
        await post(
          label,
          `${trim(options.baseUrl)}/v2/rerank`,
          {
            model: options.model,
            query,
            documents: texts,
            top_n: texts.length,
          },
          options,
          signal,
        ),
        texts.length,
      ),
  };
}

/** Jina: POST /v1/rerank {model, query, documents, top_n, return_documents: false}. */
export function jinaReranker(options: ApiRerankerOptions): Reranker {
  const label = "Jina";
  return {
    label: `jina:${options.model}`,
    score: async (query, texts, signal) =>
      scoresOf(
        label,
        await post(
          label,
          `${trim(options.baseUrl)}/v1/rerank`,
          {
            model: options.model,
            query,
            documents: texts,
            top_n: texts.length,
            return_documents: false,
          },
          options,
          signal,
        ),
        texts.length,
      ),
  };
}

/** Voyage: POST /v1/rerank {model, query, documents, top_k} → {data: [{index, relevance_score}]}. */
export function voyageReranker(options: ApiRerankerOptions): Reranker {
  const label = "Voyage AI";
  return {
    label: `voyageai:${options.model}`,
    score: async (query, texts, signal) =>
      scoresOf(
        label,
        await post(
          label,
          `${trim(options.baseUrl)}/v1/rerank`,
          {
            model: options.model,
            query,
            documents: texts,
            top_k: texts.length,
            truncation: true,
          },
          options,
          signal,
        ),
        texts.length,
      ),
  };
}

/**
 * The common /rerank call: POST <base>/rerank with the texts as `documents` (llama.cpp, vLLM, Infinity) and as
 * `texts` (Hugging Face TEI); the base is the server's root or its /v1.
 */
export function genericReranker(options: ApiRerankerOptions): Reranker {
  const label = `${new URL(options.baseUrl).host} /rerank`;
  return {
    label: `rerank:${options.model || new URL(options.baseUrl).host}`,
    score: async (query, texts, signal) =>
      scoresOf(
        label,
        await post(
          label,
          `${trim(options.baseUrl)}/rerank`,
          {
            ...(options.model ? { model: options.model } : {}),
            query,
            documents: texts,
            texts,
            top_n: texts.length,
          },
          options,
          signal,
        ),
        texts.length,
      ),
  };
}
