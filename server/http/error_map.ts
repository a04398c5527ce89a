import { HTTPException } from "hono/http-exception";
import { AppError, isStorageFull, messageOf, ProviderError, STORAGE_FULL_MESSAGE } from "../errors.ts";
import type { Logger } from "../log.ts";

/** The request an error ended, for the log line. */
export interface Where {
  method: string;
  path: string;
}

/** What the client is told: a status and a JSON body, or a response made elsewhere (Hono's HTTPException). */
export type ErrorAnswer = { status: number; body: Record<string, unknown> } | Response;

interface ErrorRule {
  /** The error class this row answers, as the table reads. */
  name: string;
  matches(error: unknown): boolean;
  answer(error: unknown, log: Logger, where: Where): ErrorAnswer;
}

/** Shown for every error the table has no row for; the details go to the log, never to the client. */
export const UNEXPECTED_ERROR_MESSAGE = "Something went wrong on the server. The error was logged.";

/**
 * Every error a handler may throw, in the order they are tried, and what each answers. A malformed JSON body
 * (http/body.ts) and a body over its size limit (app.ts) are AppErrors with their own status and body.
 */
export const ERROR_MAP: readonly ErrorRule[] = [
  {
    name: "AppError",
    matches: (error) => error instanceof AppError,
    answer: (error, log, where) => {
      const { status, message, body } = error as AppError;
      if (status >= 500) log.error(message, { path: where.path });
      return { status, body };
    },
  },
  {
    name: "HTTPException",
    matches: (error) => error instanceof HTTPException,
    answer: (error) => (error as HTTPException).getResponse(),
  },
  {
    name: "storage full",
    matches: isStorageFull,
    answer: (error, log, where) => {
      log.error("The disk is full", { ...where, error: messageOf(error) });
      return { status: 507, body: { success: false, error: STORAGE_FULL_MESSAGE } };
    },
  },
  {
    // An LLM, embedder or vector database failed: its own message says what, and the server is not at fault.
    name: "ProviderError",
    matches: (error) => error instanceof ProviderError,
    answer: (error, log, where) => {
      const { message } = error as ProviderError;
      log.warn("A provider failed", { ...where, error: message });
      return { status: 502, body: { success: false, error: message } };
    },
  },
];

/** The answer to `error`: its row of ERROR_MAP, else a 500 that names nothing of the error (which is logged). */
export function answerError(error: unknown, log: Logger, where: Where): ErrorAnswer {
  const rule = ERROR_MAP.find((row) => row.matches(error));
  if (rule) return rule.answer(error, log, where);
  log.error("Unhandled error", { ...where, error: messageOf(error), stack: (error as Error)?.stack });
  return { status: 500, body: { success: false, error: UNEXPECTED_ERROR_MESSAGE } };
}
