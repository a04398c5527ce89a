/** Why a file could not be read; the message is shown to the user as it is. */
export type ParseFailureKind = "unsupported" | "encrypted" | "corrupt" | "empty" | "limit";

export class ParseFailure extends Error {
  constructor(readonly kind: ParseFailureKind, message: string) {
    super(message);
    this.name = "ParseFailure";
  }
}

/** What a parser found in one file. Missing fields get the per-type defaults of api-contract.md §8.1. */
export interface ParsedDocument {
  text: string;
  docAuthor: string;
  description: string;
  docSource: string;
  /** Character offsets in `text` where each page starts, page 1 first (paged formats only). */
  pageBreaks?: number[];
  /** The title the file itself names (HTML `<title>`, PDF or EPUB metadata), when it has one. */
  innerTitle?: string;
}

export interface ParseInput {
  /** The file name as the user gave it; only its extension and base name are used. */
  name: string;
  bytes: Uint8Array;
  /** A link's Content-Type, for the charset of text and HTML. */
  contentType?: string;
}

export type Parser = (input: ParseInput) => Promise<ParsedDocument>;

export const encryptedMessage = (name: string) =>
  `${name} is encrypted (password-protected) and cannot be read.`;
export const corruptMessage = (name: string, what: string, detail?: string) =>
  `${name} is not a valid ${what} file or is damaged${detail ? `: ${detail.replace(/\.$/, "")}` : ""}.`;
export const emptyMessage = (name: string) => `No text content found in ${name}.`;
