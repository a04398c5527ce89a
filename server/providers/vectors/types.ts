export interface VectorRecord {
  id: string;
  docId: string;
  vector: number[];
  /** The embedded string: metadata header plus chunk text. */
  text: string;
  /** Document metadata carried into citations. */
  metadata: Record<string, unknown>;
}

export interface VectorHit {
  id: string;
  docId: string;
  text: string;
  metadata: Record<string, unknown>;
  /** Similarity in [0, 1]: 1 − cosine distance, clamped (decisions.md). */
  score: number;
}

/** One namespace per workspace and embedder; the store never chunks, embeds or caches. */
export interface VectorStore {
  upsert(namespace: string, records: VectorRecord[]): Promise<void>;
  search(namespace: string, vector: number[], options: { topK: number }): Promise<VectorHit[]>;
  count(namespace: string): Promise<number>;
  deleteDocuments(namespace: string, docIds: string[]): Promise<void>;
  /** Drops every namespace whose name starts with `prefix`. */
  dropNamespaces(prefix: string): Promise<void>;
  close(): Promise<void>;
}
