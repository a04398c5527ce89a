import type { Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { AppError, fail } from "../errors.ts";

/** A multipart body as fields; a broken form is a clear 400, a body-limit 413 passes through. */
export async function readForm(c: Context): Promise<Record<string, unknown>> {
  try {
    return await c.req.parseBody();
  } catch (error) {
    if (error instanceof AppError) throw error;
    return fail("invalid_input", `The upload is not a valid multipart form: ${(error as Error).message}`);
  }
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
