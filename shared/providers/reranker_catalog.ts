// The rerankers of the "accuracy optimized" search preference (a workspace's vectorSearchMode "rerank") and
// the instance settings that choose one. Without settings the local cross-encoder runs, as in the reference.
import type { ProviderKind, SettingField } from "./llm_catalog.ts";

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
  kind: ProviderKind;
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
    kind: "built-in",
    defaultModel: NATIVE_RERANKER_MODEL,
    needsKey: false,
  },
  {
    id: "cohere",
    name: "Cohere",
    kind: "cloud",
    defaultModel: "rerank-v3.5",
    defaultBasePath: "https://api.cohere.com",
    needsKey: true,
  },
  {
    id: "jina",
    name: "Jina AI",
    kind: "cloud",
    defaultModel: "jina-reranker-v2-base-multilingual",
    defaultBasePath: "https://api.jina.ai",
    needsKey: true,
  },
  {
    id: "voyageai",
    name: "Voyage AI",
    kind: "cloud",
    defaultModel: "rerank-2.5-lite",
    defaultBasePath: "https://api.voyageai.com",
    needsKey: true,
  },
  // llama.cpp server (--reranking), vLLM, Infinity, Hugging Face TEI: POST <base>/rerank.
  {
    id: "generic",
    name: "Any /rerank API (llama.cpp, vLLM, Infinity, TEI)",
    kind: "self-hosted",
    defaultModel: "",
    needsKey: false,
  },
];

export function rerankerEntry(id: string | undefined): RerankerEntry | undefined {
  return RERANKERS.find((entry) => entry.id === (id || "native"));
}

/** How many candidates the search hands the reranker before cutting to the workspace's topN. */
export const RERANK_CANDIDATES = 30;

/** The environment variables that fix the reranker settings (the operator's). */
export const RERANKER_ENV = {
  provider: "RERANKER_PROVIDER",
  model: "RERANKER_MODEL_PREF",
  basePath: "RERANKER_BASE_PATH",
  apiKey: "RERANKER_API_KEY",
} as const;

/**
 * The settings form's fields of one reranker, derived from its row: the API key where it needs one (else an
 * optional one), the base URL (required for the generic /rerank servers, else the vendor's by default), and
 * the model (the row's default when empty). The keys are shared: one reranker is configured at a time.
 */
export function rerankerFields(entry: RerankerEntry): SettingField[] {
  const model: SettingField = {
    key: RERANKER_SETTINGS.model,
    env: RERANKER_ENV.model,
    type: "text",
    required: false,
    placeholder: entry.defaultModel || undefined,
  };
  if (entry.id === "native") return [model];
  const apiKey: SettingField = {
    key: RERANKER_SETTINGS.apiKey,
    env: RERANKER_ENV.apiKey,
    type: "password",
    required: entry.needsKey,
  };
  const basePath: SettingField = {
    key: RERANKER_SETTINGS.basePath,
    env: RERANKER_ENV.basePath,
    type: "url",
    required: !entry.defaultBasePath,
    placeholder: entry.defaultBasePath ?? "http://localhost:8080/v1",
  };
  return entry.defaultBasePath ? [apiKey, model, basePath] : [basePath, model, apiKey];
}

/** The rerankers as the settings form's choices: each row with its fields. */
export const RERANKER_CHOICES = RERANKERS.map((entry) => ({
  id: entry.id,
  name: entry.name,
  kind: entry.kind,
  local: entry.id === "native",
  fields: rerankerFields(entry),
}));
