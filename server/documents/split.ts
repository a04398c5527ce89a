// The text splitter and the chunk header, with nothing else imported: the parse worker splits (and, for the
// built-in lexical embedder, embeds) in its own process with these, and the server with the same code.
import { createHash } from "node:crypto";

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
