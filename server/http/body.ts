import type { Context } from "hono";
import type * as z from "zod";
import { ERROR_STATUS, type ErrorCode } from "../../shared/api/errors.ts";
import { AppError } from "../errors.ts";

type ErrorBody = (message: string) => Record<string, unknown>;
const defaultBody: ErrorBody = (message) => ({ success: false, error: message });

/**
 * Reads a JSON body whatever the Content-Type says (clients send text/plain). An empty body reads as `{}`;
 * malformed JSON is a 400 with a clear message, in the answer shape of the calling route.
 */
async function readJson(c: Context, errorBody: ErrorBody): Promise<unknown> {
  const text = await c.req.text();
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text);
  } catch (error) {
    const message = `The request body is not valid JSON: ${(error as Error).message}`;
    throw new AppError("invalid_input", message, { body: errorBody(message) });
  }
}

/** The error code a schema's custom issue asks for (`params: {code: "too_large"}`), else invalid_input. */
function codeOf(issue: z.core.$ZodIssue | undefined): ErrorCode {
  const code = issue?.code === "custom" ? issue.params?.code : undefined;
  return typeof code === "string" && code in ERROR_STATUS ? code as ErrorCode : "invalid_input";
}

/**
 * Reads and validates a JSON body; the first problem becomes the answer's message (a 400 unless the schema's
 * issue names another code), prefixed with the field's path unless `bareMessages` (for schemas whose messages
 * already name the field, such as "name cannot be null"; a function says it per field).
 */
export async function parseJson<T extends z.ZodType>(
  c: Context,
  schema: T,
  errorBody: ErrorBody = defaultBody,
  options: { bareMessages?: boolean | ((field: string) => boolean) } = {},
): Promise<z.output<T>> {
  const value = await readJson(c, errorBody);
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue?.path.join(".") ?? "";
  const bare = typeof options.bareMessages === "function"
    ? options.bareMessages(field)
    : options.bareMessages;
  const where = field && !bare ? `${field}: ` : "";
  const message = `${where}${issue?.message ?? "Invalid request body"}`;
  throw new AppError(codeOf(issue), message, { body: errorBody(message) });
}
