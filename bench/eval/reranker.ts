// The reranker the evaluation and the retrieval bench use, from the environment; none by default.
//   EVAL_RERANKER=native|cohere|jina|voyageai|generic, EVAL_RERANKER_MODEL, EVAL_RERANKER_URL, EVAL_RERANKER_KEY;
//   the local one reads EVAL_MODELS_DIR (STORAGE_DIR/models of an instance that fetched it).
import { RERANK_CANDIDATES, RERANKER_SETTINGS } from "../../shared/providers/reranker_catalog.ts";
import { rerankerFromSettings } from "../../server/providers/rerankers/registry.ts";

export interface EvalReranker {
  label: string;
  candidates: number;
  /** The candidates' indexes, best first. */
  rerank(query: string, texts: string[]): Promise<number[]>;
}

export function evalReranker(): Promise<EvalReranker | null> {
  const provider = Deno.env.get("EVAL_RERANKER");
  if (!provider) return Promise.resolve(null);
  const values: Record<string, string | undefined> = {
    [RERANKER_SETTINGS.provider]: provider,
    [RERANKER_SETTINGS.model]: Deno.env.get("EVAL_RERANKER_MODEL"),
    [RERANKER_SETTINGS.basePath]: Deno.env.get("EVAL_RERANKER_URL"),
    [RERANKER_SETTINGS.apiKey]: Deno.env.get("EVAL_RERANKER_KEY"),
  };
  const reranker = rerankerFromSettings({ value: (key) => values[key] }, {
    modelsDir: Deno.env.get("EVAL_MODELS_DIR"),
  });
  return Promise.resolve({
    label: reranker.label,
    candidates: RERANK_CANDIDATES,
    async rerank(query, texts) {
      const scores = await reranker.score(query, texts);
      return texts.map((_, index) => index).sort((a, b) => scores[b] - scores[a] || a - b);
    },
  });
}
