/**
 * The usual constant of reciprocal rank fusion (Cormack et al. 2009): large enough that the first few ranks of
 * one list do not drown out agreement between the lists.
 */
export const RRF_K = 60;

/** At most this many distinct words of a question go to the full-text search; long pastes stay cheap. */
const MAX_QUERY_TERMS = 64;

export interface Fused<T> {
  item: T;
  /** Σ 1 / (k + rank) over the lists that hold the item (ranks from 1). */
  fused: number;
}

/**
 * Reciprocal rank fusion of rankings of the same kind of item, best first. An item in several lists keeps the
 * object of the first list that holds it; ties keep the order of the first list, then the next.
 */
export function reciprocalRankFusion<T>(
  rankings: readonly (readonly T[])[],
  idOf: (item: T) => string,
  k = RRF_K,
  weights: readonly number[] = [],
): Fused<T>[] {
  const merged = new Map<string, Fused<T> & { order: number }>();
  let order = 0;
  for (const [list, ranking] of rankings.entries()) {
    const weight = weights[list] ?? 1;
    ranking.forEach((item, index) => {
      const id = idOf(item);
      const contribution = weight / (k + index + 1);
      const seen = merged.get(id);
      if (seen) seen.fused += contribution;
      else merged.set(id, { item, fused: contribution, order: order++ });
    });
  }
  return [...merged.values()]
    .sort((a, b) => b.fused - a.fused || a.order - b.order)
    .map(({ item, fused }) => ({ item, fused }));
}

/**
 * The words of a question as a plain full-text query: letters and digits only, so nothing in the message is
 * read as query syntax, each word once. Empty when the question has no word at all.
 */
export function fullTextQuery(text: string): string {
  const words = text.normalize("NFKC").toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(words)].slice(0, MAX_QUERY_TERMS).join(" ");
}

/** How deep each side of a hybrid search ranks for `topK` hits. */
export function fusionDepth(topK: number): number {
  return Math.min(1000, Math.max(20, topK * 4));
}

export interface FusionOptions {
  k?: number;
  vectorWeight?: number;
  textWeight?: number;
}

/** The hybrid ranking of a vector ranking and a BM25 ranking of the same chunks, cut to `topK`. */
export function fuseHybrid<T extends { id: string }>(
  byVector: readonly T[],
  byText: readonly T[],
  topK: number,
  options: FusionOptions = {},
): T[] {
  return reciprocalRankFusion([byVector, byText], (hit) => hit.id, options.k ?? RRF_K, [
    options.vectorWeight ?? 1,
    options.textWeight ?? 1,
  ]).slice(0, topK).map(({ item }) => item);
}
