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
 * One split: the pieces of `text` between `start` and `end` are kept as offsets, never copied; a chunk is one
 * slice of the text, from its first piece's start to its last piece's end (the pieces of a chunk are
 * consecutive, so that slice is what joining them gave).
 */
class Splitter {
  readonly chunks: string[] = [];
  constructor(
    private readonly text: string,
    private readonly size: number,
    private readonly overlap: number,
  ) {}

  private emit(from: number, to: number) {
    const chunk = this.text.slice(from, to).trim();
    if (chunk !== "") this.chunks.push(chunk);
  }

  /**
   * Joins consecutive pieces (`bounds`: the start of each, then the end of the last) into chunks of at most
   * `size` characters; each chunk starts with as many of the previous chunk's last pieces as fit in `overlap`.
   */
  private merge(bounds: number[]) {
    const pieces = bounds.length - 1;
    let first = 0;
    let total = 0;
    for (let index = 0; index < pieces; index++) {
      const length = bounds[index + 1] - bounds[index];
      if (total + length > this.size && index > first) {
        this.emit(bounds[first], bounds[index]);
        while (total > this.overlap || (total + length > this.size && total > 0)) {
          total -= bounds[first + 1] - bounds[first];
          first++;
        }
      }
      total += length;
    }
    if (pieces > first) this.emit(bounds[first], bounds[pieces]);
  }

  /**
   * The text between `start` and `end`, cut before each occurrence of the first separator it holds after its
   * first character (as LangChain's `split(/(?=separator)/)` cuts, overlapping occurrences included); pieces
   * shorter than the size are merged, longer ones split again with the next separators.
   */
  split(start: number, end: number, level: number) {
    const text = this.text;
    let separator = "";
    let next = SEPARATORS.length;
    for (let index = level; index < SEPARATORS.length; index++) {
      const candidate = SEPARATORS[index];
      if (candidate === "") break;
      const at = text.indexOf(candidate, start);
      if (at !== -1 && at + candidate.length <= end) {
        separator = candidate;
        next = index + 1;
        break;
      }
    }
    let fitting: number[] = [];
    const piece = (from: number, to: number) => {
      if (to - from < this.size) {
        if (fitting.length === 0) fitting.push(from);
        fitting.push(to);
        return;
      }
      if (fitting.length > 0) {
        this.merge(fitting);
        fitting = [];
      }
      if (next < SEPARATORS.length) this.split(from, to, next);
      else this.emit(from, to);
    };
    if (separator === "") {
      for (let at = start; at < end; at++) piece(at, at + 1);
    } else {
      let from = start;
      for (let at = text.indexOf(separator, start + 1); at !== -1; at = text.indexOf(separator, at + 1)) {
        if (at + separator.length > end) break;
        piece(from, at);
        from = at;
      }
      if (from < end) piece(from, end);
    }
    if (fitting.length > 0) this.merge(fitting);
  }
}

/**
 * The reference's splitter (LangChain's RecursiveCharacterTextSplitter with its defaults: separators kept at
 * the start of the piece they cut, lengths in UTF-16 units), so chunk boundaries match; written here in one
 * pass over the text, without its await per piece (which made a book take seconds) and without a copy of each
 * piece. chunker_test.ts compares the two.
 */
export function splitText(text: string, options: SplitOptions): Promise<string[]> {
  const overlap = Math.min(options.chunkOverlap, Math.max(0, options.chunkSize - 1));
  const splitter = new Splitter(text, options.chunkSize, overlap);
  splitter.split(0, text.length, 0);
  return Promise.resolve(splitter.chunks);
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
