// The reranker the evaluation uses, from EVAL_RERANKER; none by default.
export interface EvalReranker {
  label: string;
  candidates: number;
  /** The candidates' indexes, best first. */
  rerank(query: string, texts: string[]): Promise<number[]>;
}

export function evalReranker(): Promise<EvalReranker | null> {
  return Promise.resolve(null);
}
