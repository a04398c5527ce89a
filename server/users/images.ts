import { fail } from "../errors.ts";

export const MAX_PICTURE_BYTES = 5 * 1024 * 1024;

const SIGNATURES: { type: string; extension: string; matches: (bytes: Uint8Array) => boolean }[] = [
  {
    type: "image/png",
    extension: ".png",
    matches: (b) => b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47,
  },
  { type: "image/jpeg", extension: ".jpg", matches: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  {
    type: "image/gif",
    extension: ".gif",
    matches: (b) => b[0] === 0x47 && b[1] === 0x49 && b[2] === 0x46 && b[3] === 0x38,
  },
  {
    type: "image/webp",
    extension: ".webp",
    matches: (b) =>
      String.fromCharCode(...b.slice(0, 4)) === "RIFF" && String.fromCharCode(...b.slice(8, 12)) === "WEBP",
  },
];

/**
 * The kind of an uploaded picture from its first bytes (the declared type and name are not trusted). SVG is
 * refused: it can carry script.
 */
export function pictureKind(bytes: Uint8Array): { type: string; extension: string } {
  if (bytes.length === 0) fail("invalid_input", "The picture is empty.");
  if (bytes.length > MAX_PICTURE_BYTES) fail("too_large", "The picture is too large: the limit is 5 MB.");
  const kind = SIGNATURES.find((signature) => signature.matches(bytes));
  if (!kind) fail("invalid_input", "The file is not a PNG, JPEG, GIF or WebP image.");
  return { type: kind.type, extension: kind.extension };
}

export function pictureType(filename: string): string {
  return SIGNATURES.find((signature) => filename.endsWith(signature.extension))?.type ??
    "application/octet-stream";
}

/** Reads a multipart picture upload (field "file"), checks it and stores it under a generated name. */
export async function storeUploadedPicture(
  form: Record<string, unknown>,
  directory: string,
  writeFile: (path: string, bytes: Uint8Array) => Promise<void>,
): Promise<string> {
  const file = form.file;
  if (!(file instanceof File)) {
    fail("invalid_input", 'No file was sent: use a multipart form with the field "file".');
  }
  const bytes = new Uint8Array(await file.arrayBuffer());
  const kind = pictureKind(bytes);
  const filename = `${crypto.randomUUID()}${kind.extension}`;
  await writeFile(`${directory}/${filename}`, bytes);
  return filename;
}

/** A stored picture as an HTTP answer's parts, or null when it is gone. */
export async function readStoredPicture(
  directory: string,
  filename: string | null,
): Promise<{ bytes: Uint8Array<ArrayBuffer>; type: string } | null> {
  if (!filename) return null;
  try {
    return { bytes: await Deno.readFile(`${directory}/${filename}`), type: pictureType(filename) };
  } catch {
    return null;
  }
}

export async function removeStoredPicture(directory: string, filename: string | null): Promise<void> {
  if (filename) await Deno.remove(`${directory}/${filename}`).catch(() => {});
}
