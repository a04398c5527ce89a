import type { Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { HTTPException } from "hono/http-exception";
import { parseMultipartRequest } from "@remix-run/multipart-parser";
import { AppError, fail } from "../errors.ts";

/**
 * A multipart body as fields: text for text parts, a File for file parts (the last part of a name wins). Parsed
 * by @remix-run/multipart-parser, because Deno's own form parser cuts a quoted file name at its first "="
 * (`"<img src=x>.txt"` became `"<img src`); file names reach the caller exactly as sent. A broken form is a
 * clear 400; a body-limit 413 passes through.
 */
export async function readForm(c: Context): Promise<Record<string, unknown>> {
  const fields: Record<string, unknown> = {};
  try {
    // Sizes are bounded by the body limits of the app and of the route, with their own messages.
    for await (const part of parseMultipartRequest(c.req.raw, { maxFileSize: Number.POSITIVE_INFINITY })) {
      if (!part.name) continue;
      fields[part.name] = part.isFile
        ? new File([part.arrayBuffer], part.filename ?? "", { type: part.mediaType ?? "" })
        : part.text;
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
