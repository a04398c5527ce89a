// The rerankers of the "accuracy optimized" search preference (a workspace's vectorSearchMode "rerank") and
// the instance settings that choose one. Without settings the local cross-encoder runs, as in the reference.

export const RERANKER_SETTINGS = {
  provider: "RerankerProvider",
  model: "RerankerModelPref",
  basePath: "RerankerBasePath",
  apiKey: "RerankerApiKey",
} as const;

export type RerankerProviderId = "native" | "cohere" | "jina" | "voyageai" | "generic";

export interface RerankerEntry {
  id: RerankerProviderId;
  name: string;
  defaultModel: string;
  /** The API's base URL when the operator gives none (none for the generic /rerank servers). */
  defaultBasePath?: string;
  needsKey: boolean;
}

/** The cross-encoder the reference's native reranker runs (transformers.js layout, 8-bit weights: 23 MB). */
export const NATIVE_RERANKER_MODEL = "Xenova/ms-marco-MiniLM-L-6-v2";

export const RERANKERS: readonly RerankerEntry[] = [
  {
    id: "native",
    name: "Built-in (local cross-encoder)",
    defaultModel: NATIVE_RERANKER_MODEL,
    needsKey: false,
  },
  {
    id: "cohere",
    name: "Cohere",
    defaultModel: "rerank-v3.5",
    defaultBasePath: "https://api.cohere.com",
    needsKey: true,
  },
  {
    id: "jina",
    name: "Jina AI",
    defaultModel: "jina-reranker-v2-base-multilingual",
    defaultBasePath: "https://api.jina.ai",
    needsKey: true,
  },
  {
    id: "voyageai",
    name: "Voyage AI",
    defaultModel: "rerank-2.5-lite",
    defaultBasePath: "https://api.voyageai.com",
    needsKey: true,
  },
  // llama.cpp server (--reranking), vLLM, Infinity, Hugging Face TEI: POST <base>/rerank.
  {
    id: "generic",
    name: "Any /rerank API (llama.cpp, vLLM, Infinity, TEI)",
    defaultModel: "",
    needsKey: false,
  },
];

export function rerankerEntry(id: string | undefined): RerankerEntry | undefined {
  return RERANKERS.find((entry) => entry.id === (id || "native"));
}

/** How many candidates the search hands the reranker before cutting to the workspace's topN. */
export const RERANK_CANDIDATES = 30;
