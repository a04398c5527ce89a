// The text splitter and the chunk header, with nothing else imported: the parse worker splits (and, for the
// built-in lexical embedder, embeds) in its own process with these, and the server with the same code.
import { createHash } from "../hash.ts";

export interface SplitOptions {
  /**
   * Characters; the embedder's maximum wins over a larger setting
   * (docs/api-compat.md#splitting-and-chunk-headers).
   */
  chunkSize: number;
  chunkOverlap: number;
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

/** The page (1-based) that holds character `offset`, given the page start offsets. */
export function pageAt(pageBreaks: number[], offset: number): number {
  let page = 1;
  for (let index = 0; index < pageBreaks.length; index++) if (pageBreaks[index] <= offset) page = index + 1;
  return page;
}

/**
 * Each chunk's page, found by walking the text (chunks come in order and overlap a little); the walk goes on
 * from one batch of chunks to the next.
 */
export class ChunkPages {
  private cursor = 0;
  constructor(private readonly content: string, private readonly pageBreaks: number[] | undefined) {}

  /** Where `chunk` is in the text (-1 when the walk does not find it), and the page it starts on. */
  place(chunk: string): { offset: number; page: number | undefined } {
    const found = this.content.indexOf(chunk, Math.max(0, this.cursor - chunk.length));
    if (found >= 0) this.cursor = found + 1;
    const page = this.pageBreaks?.length
      ? pageAt(this.pageBreaks, found >= 0 ? found : this.cursor)
      : undefined;
    return { offset: found, page };
  }

  pageOf(chunk: string): number | undefined {
    return this.pageBreaks?.length ? this.place(chunk).page : undefined;
  }
}

/** The vector cache's hash of what a document's chunks were made from (its text, header and page offsets). */
export function contentHash(parts: unknown[]): string {
  return createHash("sha256").update(JSON.stringify(parts)).digest("hex");
}
