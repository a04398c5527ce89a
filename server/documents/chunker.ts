import { LABELS } from "../settings/service.ts";

export interface SplitOptions {
  /**
   * Characters; the embedder's maximum wins over a larger setting
   * (docs/api-compat.md#splitting-and-chunk-headers).
   */
  chunkSize: number;
  chunkOverlap: number;
}

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

/** The separators tried in turn: paragraphs, lines, words, characters. */
const SEPARATORS = ["\n\n", "\n", " ", ""];

/**
 * The pieces of `text` cut before each occurrence of `separator` after its first character (as LangChain's
 * `split(/(?=separator)/)` cuts, overlapping occurrences included); none empty.
 */
function splitBefore(text: string, separator: string): string[] {
  if (separator === "") return text.split("");
  const pieces: string[] = [];
  let start = 0;
  for (let at = text.indexOf(separator, 1); at !== -1; at = text.indexOf(separator, at + 1)) {
    pieces.push(text.slice(start, at));
    start = at;
  }
  if (start < text.length) pieces.push(text.slice(start));
  return pieces;
}

/**
 * Joins consecutive pieces into chunks of at most `size` characters; each chunk starts with as many of the
 * previous chunk's last pieces as fit in `overlap` characters.
 */
function mergePieces(pieces: string[], size: number, overlap: number, out: string[]) {
  const current: string[] = [];
  let first = 0;
  let total = 0;
  const flush = () => {
    const chunk = current.slice(first).join("").trim();
    if (chunk !== "") out.push(chunk);
  };
  for (const piece of pieces) {
    if (total + piece.length > size && current.length > first) {
      flush();
      while (total > overlap || (total + piece.length > size && total > 0)) {
        total -= current[first++].length;
      }
    }
    current.push(piece);
    total += piece.length;
  }
  flush();
}

function splitRecursive(text: string, separators: string[], options: SplitOptions, out: string[]) {
  let separator = separators[separators.length - 1];
  let rest: string[] | undefined;
  for (let index = 0; index < separators.length; index++) {
    const candidate = separators[index];
    if (candidate === "") {
      separator = candidate;
      break;
    }
    if (text.includes(candidate)) {
      separator = candidate;
      rest = separators.slice(index + 1);
      break;
    }
  }
  let fitting: string[] = [];
  for (const piece of splitBefore(text, separator)) {
    if (piece.length < options.chunkSize) {
      fitting.push(piece);
      continue;
    }
    if (fitting.length > 0) {
      mergePieces(fitting, options.chunkSize, options.chunkOverlap, out);
      fitting = [];
    }
    if (rest) splitRecursive(piece, rest, options, out);
    else out.push(piece);
  }
  if (fitting.length > 0) mergePieces(fitting, options.chunkSize, options.chunkOverlap, out);
}

/**
 * The reference's splitter (LangChain's RecursiveCharacterTextSplitter with its defaults: separators kept at
 * the start of the piece they cut, lengths in UTF-16 units), so chunk boundaries match; written here without
 * its await per piece, which made a book take seconds. chunker_test.ts compares the two.
 */
export function splitText(text: string, options: SplitOptions): Promise<string[]> {
  const overlap = Math.min(options.chunkOverlap, Math.max(0, options.chunkSize - 1));
  const chunks: string[] = [];
  splitRecursive(text, SEPARATORS, { chunkSize: options.chunkSize, chunkOverlap: overlap }, chunks);
  return Promise.resolve(chunks.filter((chunk) => chunk.trim().length > 0));
}

export interface ChunkHeaderFields {
  title: string;
  published: string;
  chunkSource?: string;
}

/**
 * The metadata header each chunk carries into the embedder and the prompt
 * (docs/api-compat.md#splitting-and-chunk-headers).
 */
export function chunkHeader(document: ChunkHeaderFields): string {
  const source = document.chunkSource ?? "";
  const sourceLine = source.startsWith("link://") || source.startsWith("youtube://")
    ? `source: ${source.replace(/^(link|youtube):\/\//, "")}\n`
    : "";
  return `<document_metadata>\nsourceDocument: ${document.title}\npublished: ${document.published}\n${sourceLine}</document_metadata>\n\n`;
}
