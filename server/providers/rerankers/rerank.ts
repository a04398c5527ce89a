import type { Logger } from "../../log.ts";
import { messageOf } from "../../errors.ts";
import type { Reranker } from "./types.ts";

/**
 * The candidates re-scored by the reranker, best first, cut to `topN`. When the reranker fails (or answers
 * the wrong number of scores), the candidates keep their search order, cut to `topN`, and a warning names
 * why: a reranker never fails a chat.
 */
export async function rerankHits<T extends { text: string }>(
  reranker: Reranker | null,
  query: string,
  candidates: T[],
  topN: number,
  log: Logger,
  signal?: AbortSignal,
): Promise<T[]> {
  if (!reranker || candidates.length <= 1) return candidates.slice(0, topN);
  try {
    const scores = await reranker.score(query, candidates.map((hit) => hit.text), signal);
    if (scores.length !== candidates.length) {
      throw new Error(`${scores.length} scores for ${candidates.length} candidates`);
    }
    return candidates.map((hit, index) => ({ hit, index, score: scores[index] }))
      .sort((a, b) => b.score - a.score || a.index - b.index)
      .slice(0, topN)
      .map(({ hit }) => hit);
  } catch (error) {
    if (signal?.aborted) throw error;
    log.warn("Reranking failed; the search order is kept", {
      reranker: reranker.label,
      error: messageOf(error),
    });
    return candidates.slice(0, topN);
  }
}
