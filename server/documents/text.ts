import { ACCEPTED_DOCUMENT_TYPES } from "../../shared/api/documents.ts";
import { fail } from "../errors.ts";

const ACCEPTED_EXTENSIONS = new Set(Object.values(ACCEPTED_DOCUMENT_TYPES).flat());

export function extensionOf(name: string): string {
  const match = /\.[^./\\]+$/.exec(name);
  return match ? match[0].toLowerCase() : "";
}

/**
 * The text of an uploaded .txt or .md file: UTF-8 (a byte-order mark is dropped), refused when the bytes
 * are not text or hold nothing to read.
 */
export function textOfUpload(name: string, bytes: Uint8Array): string {
  const extension = extensionOf(name);
  if (!ACCEPTED_EXTENSIONS.has(extension)) {
    fail(
      "invalid_input",
      `File extension ${
        extension || "(none)"
      } not supported for parsing and cannot be assumed as text file type.`,
    );
  }
  if (bytes.includes(0)) fail("invalid_input", `${name} is not a text file: it holds binary data.`);
  const text = new TextDecoder("utf-8").decode(bytes).replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
  if (text.trim().length === 0) fail("invalid_input", `No text content found in ${name}.`);
  return text;
}
