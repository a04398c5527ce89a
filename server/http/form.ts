import type { Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { HTTPException } from "hono/http-exception";
import { parseMultipartRequest } from "@remix-run/multipart-parser";
import { AppError, fail } from "../errors.ts";

/**
 * The file name of a part exactly as the client sent it. Browsers and fetch write it as HTML's multipart
 * encoding says: between quotes, with `"` and line breaks percent-encoded and backslashes left as they are.
 * The parser's own reading unescapes backslashes (`..\\x.txt` became `..x.txt`) and, when a raw line break
 * ends the header inside the quotes, keeps a stray quote (`"a`); such a name is refused with a sentence
 * instead. An RFC 5987 `filename*` is the parser's decoding.
 */
function fileNameOf(disposition: string | undefined, parsed: string | undefined): string | undefined {
  if (disposition === undefined || /;\s*filename\*\s*=/i.test(disposition)) return parsed;
  const start = /;\s*filename\s*=\s*/i.exec(disposition);
  if (!start) return parsed;
  const rest = disposition.slice(start.index + start[0].length);
  if (!rest.startsWith('"')) return rest.split(";")[0].trim();
  const end = rest.indexOf('"', 1);
  if (end === -1 || !/^\s*(;|$)/.test(rest.slice(end + 1))) {
    fail(
      "invalid_input",
      "The upload's file name is not one quoted name: a file name cannot hold a line break or an unencoded quote.",
    );
  }
  return rest.slice(1, end);
}

/**
 * A file part as its bytes (readForm's `files: "bytes"`), for an upload that is read once: a File copies the
 * part's bytes into a Blob and reading it back copies them again, which for a large upload is megabytes held
 * twice over (issue 21). `take` hands the bytes over once, so the form that carried them holds them no longer.
 */
export class FormFile {
  #bytes: Uint8Array | null;
  readonly size: number;

  constructor(readonly name: string, readonly type: string, bytes: Uint8Array) {
    this.#bytes = bytes;
    this.size = bytes.length;
  }

  /** The bytes, once. */
  take(): Uint8Array {
    const bytes = this.#bytes;
    if (!bytes) throw new Error(`The bytes of ${this.name} were taken already.`);
    this.#bytes = null;
    return bytes;
  }

  /** As a File reads in text (`String(value)`): "[object File]". */
  get [Symbol.toStringTag](): string {
    return "File";
  }
}

/**
 * A multipart body as fields: text for text parts, a File for file parts (a FormFile with `files: "bytes"`) (the last part of a name wins). Parsed
 * by @remix-run/multipart-parser, because Deno's own form parser cuts a quoted file name at its first "="
 * (`"<img src=x>.txt"` became `"<img src`); file names reach the caller exactly as sent. A broken form is a
 * clear 400; a body-limit 413 passes through.
 */
export async function readForm(
  c: Context,
  options: { files?: "File" | "bytes" } = {},
): Promise<Record<string, unknown>> {
  const fields: Record<string, unknown> = {};
  try {
    // Sizes are bounded by the body limits of the app and of the route, with their own messages.
    for await (const part of parseMultipartRequest(c.req.raw, { maxFileSize: Number.POSITIVE_INFINITY })) {
      if (!part.name) continue;
      if (!part.isFile) {
        fields[part.name] = part.text;
        continue;
      }
      const name = fileNameOf(part.headers["content-disposition"], part.filename) ?? "";
      fields[part.name] = options.files === "bytes"
        ? new FormFile(name, part.mediaType ?? "", part.bytes)
        : new File([part.arrayBuffer], name, { type: part.mediaType ?? "" });
    }
  } catch (error) {
    if (error instanceof AppError || error instanceof HTTPException) throw error;
    return fail("invalid_input", `The upload is not a valid multipart form: ${(error as Error).message}`);
  }
  return fields;
}

/** Refuses bodies over `maxBytes` (plus room for the multipart framing) with 413 and `message`. */
export function uploadLimit(maxBytes: number, message: string) {
  return bodyLimit({
    maxSize: maxBytes + 64 * 1024,
    onError: () => {
      throw new AppError("too_large", message);
    },
  });
}
