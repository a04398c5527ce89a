import type JSZip from "jszip";
import {
  corruptMessage,
  DEFAULT_MAX_TEXT_CHARS,
  encryptedMessage,
  ParseFailure,
  type ParseInput,
  unpackLimit,
  unpacksTooLargeMessage,
} from "./types.ts";

const OLE_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

/** `EncryptedPackage` as the UTF-16LE stream name an OLE container of an encrypted Office file holds. */
const ENCRYPTED_PACKAGE = new Uint8Array(
  [..."EncryptedPackage"].flatMap((character) => [character.charCodeAt(0), 0]),
);

function includesBytes(haystack: Uint8Array, needle: Uint8Array): boolean {
  const first = needle[0];
  for (let index = haystack.indexOf(first); index >= 0; index = haystack.indexOf(first, index + 1)) {
    let match = true;
    for (let offset = 1; offset < needle.length && match; offset++) {
      match = haystack[index + offset] === needle[offset];
    }
    if (match) return true;
  }
  return false;
}

/** What is left of each open archive's unpack allowance (unpackLimit), counted as entries are inflated. */
const allowances = new WeakMap<JSZip, { name: string; maxTextChars: number; left: number }>();

/**
 * Opens a ZIP-based document (OOXML, ODF, EPUB). A password-protected Office file is an OLE container rather
 * than a ZIP, so that is recognised and named; any other failure is a damaged file. The entries read from it
 * may unpack to unpackLimit bytes altogether; past that the file is refused as a "limit" failure.
 */
export async function openZip(input: ParseInput, what: string): Promise<JSZip> {
  const zip = await loadZip(input.bytes, input.name, what);
  const maxTextChars = input.maxTextChars ?? DEFAULT_MAX_TEXT_CHARS;
  allowances.set(zip, { name: input.name, maxTextChars, left: unpackLimit(maxTextChars) });
  return zip;
}

async function loadZip(bytes: Uint8Array, name: string, what: string): Promise<JSZip> {
  if (OLE_MAGIC.every((byte, index) => bytes[index] === byte)) {
    if (includesBytes(bytes, ENCRYPTED_PACKAGE)) throw new ParseFailure("encrypted", encryptedMessage(name));
    throw new ParseFailure(
      "corrupt",
      corruptMessage(name, what, "it is an older binary Office file; save it in the newer format first"),
    );
  }
  const { default: JSZipClass } = await import("jszip");
  try {
    return await JSZipClass.loadAsync(bytes);
  } catch (error) {
    const message = (error as Error).message ?? String(error);
    if (/encrypt/i.test(message)) throw new ParseFailure("encrypted", encryptedMessage(name));
    throw new ParseFailure("corrupt", corruptMessage(name, what, message));
  }
}

/** JSZip's documented `internalStream` (its StreamHelper), which its type declarations leave out. */
interface Streamable {
  internalStream(type: "uint8array"): StreamHelper;
}
interface StreamHelper {
  on(event: "data", listener: (chunk: Uint8Array) => void): StreamHelper;
  on(event: "error", listener: (error: Error) => void): StreamHelper;
  on(event: "end", listener: () => void): StreamHelper;
  pause(): StreamHelper;
  resume(): StreamHelper;
}

/**
 * Inflates one entry chunk by chunk, counting it against the archive's allowance, so a zip bomb is stopped
 * before its text is held. `keep` false only counts (for a part another library reads afterwards).
 */
function inflate(zip: JSZip, entry: JSZip.JSZipObject, keep: boolean): Promise<string> {
  const allowance = allowances.get(zip);
  const decoder = new TextDecoder();
  let text = "";
  return new Promise((resolve, reject) => {
    const stream = (entry as unknown as Streamable).internalStream("uint8array");
    stream
      .on("data", (chunk: Uint8Array) => {
        if (allowance) {
          allowance.left -= chunk.length;
          if (allowance.left < 0) {
            stream.pause();
            reject(new ParseFailure("limit", unpacksTooLargeMessage(allowance.name, allowance.maxTextChars)));
            return;
          }
        }
        if (keep) text += decoder.decode(chunk, { stream: true });
      })
      .on("error", reject)
      .on("end", () => resolve(keep ? text + decoder.decode() : ""))
      .resume();
  });
}

/** The text of one entry, or null when the archive has no such entry. */
export async function readEntry(zip: JSZip, path: string): Promise<string | null> {
  const entry = zip.file(path.replace(/^\//, ""));
  if (!entry) return null;
  const text = await inflate(zip, entry, true);
  return text.replace(/^\uFEFF/, "");
}

/** Counts an entry against the archive's allowance without keeping it: for parts a library inflates itself. */
export async function checkEntrySize(zip: JSZip, path: string): Promise<void> {
  const entry = zip.file(path);
  if (entry) await inflate(zip, entry, false);
}

/** Like readEntry, but a missing entry means the file is not what its extension says. */
export async function requireEntry(zip: JSZip, path: string, name: string, what: string): Promise<string> {
  const text = await readEntry(zip, path);
  if (text === null) throw new ParseFailure("corrupt", corruptMessage(name, what, `${path} is missing`));
  return text;
}

/** Resolves a relationship or manifest target against the folder of the file that names it. */
export function resolvePath(base: string, target: string): string {
  if (target.startsWith("/")) return target.slice(1);
  const parts = base.split("/").slice(0, -1);
  for (const part of decodePathPart(target).split("/")) {
    if (part === "..") parts.pop();
    else if (part !== "." && part !== "") parts.push(part);
  }
  return parts.join("/");
}

function decodePathPart(target: string): string {
  try {
    return decodeURIComponent(target.split("#")[0]);
  } catch {
    return target.split("#")[0];
  }
}
