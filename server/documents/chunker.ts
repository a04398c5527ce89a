import { LABELS } from "../settings/service.ts";

export type { SplitOptions } from "./split.ts";
import type { SplitOptions } from "./split.ts";

export const DEFAULT_CHUNK_OVERLAP = 20;

export function chunkSizeFor(setting: number | undefined, embedderMaximum: number): number {
  if (!setting || !Number.isFinite(setting) || setting <= 0) return embedderMaximum;
  return Math.min(Math.floor(setting), embedderMaximum);
}

/**
 * The splitter settings for an embedder: the text_splitter_chunk_size setting clamped to the embedder's
 * maximum (the maximum when unset), and text_splitter_chunk_overlap (20 when unset) kept below the size.
 */
export function chunkSettings(
  settings: { label(label: string): string | undefined },
  embedderMaximum: number,
): SplitOptions {
  const chunkSize = chunkSizeFor(Number(settings.label(LABELS.textSplitterChunkSize)), embedderMaximum);
  const overlapSetting = Number(settings.label(LABELS.textSplitterChunkOverlap) ?? DEFAULT_CHUNK_OVERLAP);
  const overlap = Number.isFinite(overlapSetting) && overlapSetting >= 0
    ? Math.floor(overlapSetting)
    : DEFAULT_CHUNK_OVERLAP;
  return { chunkSize, chunkOverlap: Math.min(overlap, Math.max(0, chunkSize - 1)) };
}

/**
 * Checks new splitter settings against each other and the embedder (size 1 to the embedder's maximum, overlap
 * 0 to size − 1); returns every problem, empty when they are fine.
 */
export function splitterProblems(
  values: { chunkSize: number; chunkOverlap: number },
  embedderMaximum: number,
): string[] {
  const problems: string[] = [];
  const { chunkSize, chunkOverlap } = values;
  if (!Number.isInteger(chunkSize) || chunkSize < 1) {
    problems.push("text_splitter_chunk_size: the chunk size must be a whole number of at least 1.");
  } else if (chunkSize > embedderMaximum) {
    problems.push(
      `text_splitter_chunk_size: the chunk size cannot be larger than the embedder's maximum of ${embedderMaximum} characters.`,
    );
  }
  if (!Number.isInteger(chunkOverlap) || chunkOverlap < 0) {
    problems.push("text_splitter_chunk_overlap: the overlap must be a whole number of at least 0.");
  } else if (Number.isInteger(chunkSize) && chunkOverlap >= chunkSize) {
    problems.push("text_splitter_chunk_overlap: the overlap must be smaller than the chunk size.");
  }
  return problems;
}

export { chunkHeader, type ChunkHeaderFields, splitText } from "./split.ts";
