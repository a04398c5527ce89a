export interface Reranker {
  /** Names the reranker in logs and the evaluation. */
  readonly label: string;
  /** A relevance score per text, in the texts' order (higher is more relevant). */
  score(query: string, texts: string[], signal?: AbortSignal): Promise<number[]>;
}
