import type { FusionWeights } from "./fusion_weights.ts";

export interface VectorRecord {
  id: string;
  docId: string;
  /**
   * Plain numbers; the built-in lexical embedder's vectors from the parse worker may be a Float32Array at run
   * time (`floatVectors`), which LanceDB takes as it is and the switching store turns into numbers for the others.
   */
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
  /**
   * Similarity in [0, 1]: 1 − cosine distance, clamped to [0, 1]. A chunk found only by full-text search
   * has it too, so the similarity threshold judges every hit the same way.
   */
  score: number;
}

export interface SearchOptions {
  /** How many hits at most, best first. */
  topK: number;
  /**
   * The question as the user typed it. A store that can search text (LanceDB: BM25) ranks chunks by both
   * and fuses the two rankings; without it, or in a store that cannot, the search is by vector only.
   */
  text?: string;
  /**
   * The hybrid score's weights (LanceDB), chosen for the workspace's embedder (fusion_weights.ts); the
   * built-in lexical embedder's when absent.
   */
  fusion?: FusionWeights;
}

/** One namespace per workspace and embedder; the store never chunks, embeds or caches. */
export interface VectorStore {
  upsert(namespace: string, records: VectorRecord[]): Promise<void>;
  /**
   * Announces an upsert to `namespace` to come (an upload being parsed), so a store that commits writes in groups
   * can wait for it; the answer is called once the first upsert is through, or when none will come. Optional.
   */
  expectAdds?(namespace: string): () => void;
  search(namespace: string, vector: number[], options: SearchOptions): Promise<VectorHit[]>;
  count(namespace: string): Promise<number>;
  deleteDocuments(namespace: string, docIds: string[]): Promise<void>;
  /** Drops every namespace whose name starts with `prefix`. */
  dropNamespaces(prefix: string): Promise<void>;
  close(): Promise<void>;
}

/** Similarity from a cosine distance (1 − d, clamped to [0, 1]; unlike the reference, d ≥ 1 gives 0). */
export function similarityOf(distance: number): number {
  if (!Number.isFinite(distance)) return 0;
  return Math.min(1, Math.max(0, 1 - distance));
}

/** Cosine similarity of two vectors, clamped to [0, 1] like `similarityOf`. */
export function cosineSimilarity(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  const length = Math.min(a.length, b.length);
  for (let index = 0; index < length; index++) {
    dot += a[index] * b[index];
    normA += a[index] * a[index];
    normB += b[index] * b[index];
  }
  if (normA === 0 || normB === 0) return 0;
  return Math.min(1, Math.max(0, dot / Math.sqrt(normA * normB)));
}

/**
 * Records whose vectors are float32 already (a Float32Array each, views of the parse worker's answer), typed as
 * the store's records: LanceDB copies them into its Arrow column as they are; `plainVectors` makes numbers of them
 * for a store that serialises them.
 */
export function floatVectors<T extends Omit<VectorRecord, "vector">>(
  records: (T & { vector: Float32Array })[],
): VectorRecord[] {
  return records as unknown as VectorRecord[];
}

/** The records with every Float32Array vector made plain numbers (for the stores other than LanceDB). */
export function plainVectors(records: VectorRecord[]): VectorRecord[] {
  if (!records.some((record) => ArrayBuffer.isView(record.vector))) return records;
  return records.map((record) =>
    ArrayBuffer.isView(record.vector) ? { ...record, vector: Array.from(record.vector) } : record
  );
}
