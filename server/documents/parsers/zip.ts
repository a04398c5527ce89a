import type JSZip from "jszip";
import { corruptMessage, encryptedMessage, ParseFailure } from "./types.ts";

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

/**
 * Opens a ZIP-based document (OOXML, ODF, EPUB). A password-protected Office file is an OLE container rather
 * than a ZIP, so that is recognised and named; any other failure is a damaged file.
 */
export async function openZip(bytes: Uint8Array, name: string, what: string): Promise<JSZip> {
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

/** The text of one entry, or null when the archive has no such entry. */
export async function readEntry(zip: JSZip, path: string): Promise<string | null> {
  const entry = zip.file(path.replace(/^\//, ""));
  if (!entry) return null;
  const text = await entry.async("string");
  return text.replace(/^\uFEFF/, "");
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
