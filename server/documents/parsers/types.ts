/** Why a file could not be read; the message is shown to the user as it is. */
export type ParseFailureKind = "unsupported" | "encrypted" | "corrupt" | "empty" | "limit";

export class ParseFailure extends Error {
  constructor(readonly kind: ParseFailureKind, message: string) {
    super(message);
    this.name = "ParseFailure";
  }
}

/**
 * What a parser found in one file. Missing fields get the per-type defaults of
 * docs/api-compat.md#document-json.
 */
export interface ParsedDocument {
  text: string;
  docAuthor: string;
  description: string;
  docSource: string;
  /** Character offsets in `text` where each page starts, page 1 first (paged formats only). */
  pageBreaks?: number[];
  /** The title the file itself names (HTML `<title>`, PDF or EPUB metadata), when it has one. */
  innerTitle?: string;
  /**
   * The text's `token_count_estimate` (tokens.ts's estimateTokens), when the parse worker counted it: the server's
   * thread, which stores every upload, need not.
   */
  tokens?: number;
}

export interface ParseInput {
  /** The file name as the user gave it; only its extension and base name are used. */
  name: string;
  bytes: Uint8Array;
  /** A link's Content-Type, for the charset of text and HTML. */
  contentType?: string;
  /** The most text the parse may give, in characters (PARSE_MAX_TEXT_MB); DEFAULT_MAX_TEXT_CHARS when unset. */
  maxTextChars?: number;
}

export const MEBI = 1024 * 1024;
export const DEFAULT_MAX_TEXT_CHARS = 64 * MEBI;

/**
 * How much an archive's entries may unpack to, altogether: the markup around a document's text is several
 * times the text, and anything past this is a zip bomb rather than a document.
 */
export const unpackLimit = (maxTextChars: number) => maxTextChars * 4;

export type Parser = (input: ParseInput) => Promise<ParsedDocument>;

export const encryptedMessage = (name: string) =>
  `${name} is encrypted (password-protected) and cannot be read.`;
export const corruptMessage = (name: string, what: string, detail?: string) =>
  `${name} is not a valid ${what} file or is damaged${detail ? `: ${detail.replace(/\.$/, "")}` : ""}.`;
export const emptyMessage = (name: string) => `No text content found in ${name}.`;
export const textTooLargeMessage = (name: string, maxTextChars: number) =>
  `${name} could not be parsed: its text is larger than ${Math.round(maxTextChars / MEBI)} MB.`;
export const unpacksTooLargeMessage = (name: string, maxTextChars: number) =>
  `${name} could not be parsed: it unpacks to more than ${Math.round(unpackLimit(maxTextChars) / MEBI)} MB.`;
