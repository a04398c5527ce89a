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
 * Reciprocal rank fusion (the hybrid search's fusion before `fuseHybrid`; the evaluation still reports it) of rankings of the same kind of item, best first. An item in several lists keeps the
 * object of the first list that holds it; ties keep the order of the first list, then the next.
 */
export function reciprocalRankFusion<T>(
  rankings: readonly (readonly T[])[],
  idOf: (item: T) => string,
  k = RRF_K,
): Fused<T>[] {
  const merged = new Map<string, Fused<T> & { order: number }>();
  let order = 0;
  for (const ranking of rankings) {
    ranking.forEach((item, index) => {
      const id = idOf(item);
      const contribution = 1 / (k + index + 1);
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

/**
 * How deep each side of a hybrid search ranks for `topK` hits: deeper than asked, so a chunk ranked fairly by
 * both sides can win. Past 40 the evaluation (bench/eval) found no chunk that changed the top 10.
 */
export function fusionDepth(topK: number): number {
  return Math.min(1000, Math.max(40, topK * 4));
}

/**
 * The share of the BM25 side in the hybrid score. Chosen with `deno task eval` (tuned on squad-a, confirmed on
 * squad-b and the Rust book headings): with the built-in lexical embedder, reciprocal rank fusion with equal
 * weights lost 4-6 points of recall@4 to BM25 alone, because the hashed vectors rank the right passage far
 * lower than BM25 does and RRF counts both ranks alike. Scores, not ranks, keep how sure each side is: a
 * passage BM25 puts well ahead stays ahead unless the vectors strongly disagree. 0.7 was best for recall@4 on
 * the tuning set (0.6-0.8 within half a point) and on the others beat or tied both sides at recall@1/4/10.
 */
export const TEXT_WEIGHT = 0.7;

export interface FusionOptions {
  /** The BM25 side's share in [0, 1]; the vector side gets the rest. */
  textWeight?: number;
}

/**
 * The hybrid ranking of a vector ranking and a BM25 ranking of the same chunks, cut to `topK`: each candidate
 * scores `w · bm25 / max bm25 + (1 − w) · cosine / max cosine`, where a chunk the BM25 side did not find has
 * BM25 0, and every chunk has its cosine similarity (`hit.score`, which text hits carry too). The items keep
 * their `score` (the similarity the threshold judges). Ties keep the vector side's order, then the text side's.
 */
export function fuseHybrid<T extends { id: string; score: number }>(
  byVector: readonly T[],
  byText: readonly T[],
  textScores: readonly number[],
  topK: number,
  options: FusionOptions = {},
): T[] {
  const textWeight = options.textWeight ?? TEXT_WEIGHT;
  const candidates = new Map<string, { item: T; bm25: number; order: number }>();
  for (const item of byVector) {
    if (!candidates.has(item.id)) candidates.set(item.id, { item, bm25: 0, order: candidates.size });
  }
  byText.forEach((item, index) => {
    const bm25 = Math.max(0, Number(textScores[index]) || 0);
    const seen = candidates.get(item.id);
    if (seen) seen.bm25 = Math.max(seen.bm25, bm25);
    else candidates.set(item.id, { item, bm25, order: candidates.size });
  });
  let maxText = 0;
  let maxVector = 0;
  for (const { item, bm25 } of candidates.values()) {
    maxText = Math.max(maxText, bm25);
    maxVector = Math.max(maxVector, item.score);
  }
  const scored = [...candidates.values()].map((candidate) => ({
    ...candidate,
    fused: (maxText > 0 ? textWeight * candidate.bm25 / maxText : 0) +
      (maxVector > 0 ? (1 - textWeight) * candidate.item.score / maxVector : 0),
  }));
  return scored.sort((a, b) => b.fused - a.fused || a.order - b.order).slice(0, topK).map(({ item }) => item);
}
