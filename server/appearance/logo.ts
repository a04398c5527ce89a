import { join } from "node:path";
import { fail } from "../errors.ts";
import { writeFileAtomic } from "../storage.ts";
import { MAX_LOGO_BYTES } from "../../shared/api/appearance.ts";

export type LogoTheme = "light" | "dark";

export const LOGO_TOO_LARGE = `The logo is too large: the limit is ${MAX_LOGO_BYTES / 1024 / 1024} MB.`;
export const NOT_A_LOGO = "The logo must be a PNG, JPEG, WebP or SVG image.";

const KINDS = [
  {
    type: "image/png",
    extension: ".png",
    matches: (b: Uint8Array) => b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47,
  },
  {
    type: "image/jpeg",
    extension: ".jpg",
    matches: (b: Uint8Array) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  },
  {
    type: "image/webp",
    extension: ".webp",
    matches: (b: Uint8Array) =>
      String.fromCharCode(...b.slice(0, 4)) === "RIFF" && String.fromCharCode(...b.slice(8, 12)) === "WEBP",
  },
] as const;

/** A stored logo's name: chosen by the server, never from the upload (`logo-<uuid>.<ext>`). */
const STORED_NAME = /^logo-[0-9a-f-]{36}\.(png|jpg|webp|svg)$/;

export function logoType(filename: string): string {
  if (filename.endsWith(".svg")) return "image/svg+xml";
  return KINDS.find((kind) => filename.endsWith(kind.extension))?.type ?? "application/octet-stream";
}

/**
 * The bytes to keep for an uploaded logo and their extension, from the content (the declared type and the name
 * are not trusted): PNG, JPEG and WebP as sent; SVG rebuilt by `sanitiseSvg`.
 */
export async function checkedLogo(bytes: Uint8Array): Promise<{ bytes: Uint8Array; extension: string }> {
  if (bytes.length === 0) fail("invalid_input", "The logo file is empty.");
  if (bytes.length > MAX_LOGO_BYTES) fail("too_large", LOGO_TOO_LARGE);
  const kind = KINDS.find((candidate) => candidate.matches(bytes));
  if (kind) return { bytes, extension: kind.extension };
  // The SVG check (and its XML parser) loads on the first logo upload, not with the server.
  const { looksLikeSvg, sanitiseSvg } = await import("./svg.ts");
  if (looksLikeSvg(bytes)) {
    let text: string;
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch {
      return fail("invalid_input", "The SVG is not UTF-8 text.");
    }
    return { bytes: new TextEncoder().encode(sanitiseSvg(text)), extension: ".svg" };
  }
  return fail("invalid_input", NOT_A_LOGO);
}

/** Stores a checked logo in the assets folder under a new name, and returns the name. */
export async function storeLogo(directory: string, logo: { bytes: Uint8Array; extension: string }) {
  await Deno.mkdir(directory, { recursive: true });
  const filename = `logo-${crypto.randomUUID()}${logo.extension}`;
  await writeFileAtomic(join(directory, filename), logo.bytes);
  return filename;
}

/** A stored logo's bytes, or null when the name is not one the server gave or the file is gone. */
export async function readLogo(directory: string, filename: string | null | undefined) {
  if (!filename || !STORED_NAME.test(filename)) return null;
  try {
    return { bytes: await Deno.readFile(join(directory, filename)), type: logoType(filename) };
  } catch {
    return null;
  }
}

export async function removeLogo(directory: string, filename: string | null | undefined): Promise<void> {
  if (filename && STORED_NAME.test(filename)) await Deno.remove(join(directory, filename)).catch(() => {});
}
