import { ACCEPTED_DOCUMENT_TYPES } from "../../shared/api/document_types.ts";

/** Every extension the parsers read, lower-case with the dot. */
export const ACCEPTED_EXTENSIONS: ReadonlySet<string> = new Set(
  Object.values(ACCEPTED_DOCUMENT_TYPES).flat(),
);

export function extensionOf(name: string): string {
  const match = /\.[^./\\]+$/.exec(name);
  return match ? match[0].toLowerCase() : "";
}

/** The extension the parsers use for a MIME type (a link's Content-Type), or null when none reads it. */
export function extensionForMime(mime: string): string | null {
  const bare = mime.split(";")[0].trim().toLowerCase();
  if (bare === "application/xhtml+xml") return ".html";
  if (bare === "text/markdown" || bare === "text/x-markdown") return ".md";
  if (bare === "application/x-pdf") return ".pdf";
  return ACCEPTED_DOCUMENT_TYPES[bare]?.[0] ?? null;
}

export function unsupportedMessage(extension: string): string {
  return `File extension ${
    extension || "(none)"
  } not supported for parsing and cannot be assumed as text file type.`;
}

/** The charset a Content-Type or `<meta charset>` names, if the runtime can decode it. */
export function charsetFrom(value: string | null | undefined): string | undefined {
  const match = /charset\s*=\s*["']?([\w.:-]+)/i.exec(value ?? "");
  if (!match) return undefined;
  try {
    new TextDecoder(match[1]);
    return match[1].toLowerCase();
  } catch {
    return undefined;
  }
}

export interface DecodedText {
  text: string;
  /** Share of characters that were not valid in the encoding (U+FFFD after decoding). */
  invalidShare: number;
}

/**
 * Bytes as text: a byte-order mark picks UTF-8 or UTF-16 (and is dropped); otherwise `charset`, else UTF-8.
 * Line ends become `\n`.
 */
export function decodeText(bytes: Uint8Array, charset?: string): DecodedText {
  let encoding = charset ?? "utf-8";
  let start = 0;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) [encoding, start] = ["utf-8", 3];
  else if (bytes[0] === 0xff && bytes[1] === 0xfe) [encoding, start] = ["utf-16le", 2];
  else if (bytes[0] === 0xfe && bytes[1] === 0xff) [encoding, start] = ["utf-16be", 2];
  const text = new TextDecoder(encoding).decode(bytes.subarray(start)).replace(/^\uFEFF/, "");
  let invalid = 0;
  for (let index = text.indexOf("\uFFFD"); index >= 0; index = text.indexOf("\uFFFD", index + 1)) invalid++;
  return { text: text.replace(/\r\n?/g, "\n"), invalidShare: text.length === 0 ? 0 : invalid / text.length };
}

function hasUtf16Bom(bytes: Uint8Array): boolean {
  return (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
}

/** True when the bytes hold NUL characters outside a UTF-16 text: the mark of a binary file. */
export function holdsBinary(bytes: Uint8Array): boolean {
  return !hasUtf16Bom(bytes) && bytes.includes(0);
}

/**
 * Whether a file of unknown type can be read as text: no NUL bytes (outside UTF-16 with a BOM) and at most
 * 1 % of the characters invalid in UTF-8 (a stray Latin-1 byte in a log file is fine; an image is not).
 */
export function looksLikeText(bytes: Uint8Array): boolean {
  if (holdsBinary(bytes)) return false;
  const sample = bytes.subarray(0, 1024 * 1024);
  const { text, invalidShare } = decodeText(sample);
  // Control characters other than tab, newline, form feed and escape are rare in text and common in binaries.
  // deno-lint-ignore no-control-regex
  const controls = text.match(/[\x01-\x08\x0e-\x1a\x1c-\x1f\x7f]/g)?.length ?? 0;
  return invalidShare <= 0.01 && controls <= Math.max(2, text.length * 0.001);
}
