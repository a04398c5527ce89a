import { ERROR_STATUS, type ErrorCode } from "../shared/api/errors.ts";

/**
 * The one error type handlers throw. `body` keeps the answer shape the spec names for that call
 * (`{workspace:null, message}`, `{success:false, error}` …); without it the error handler answers
 * `{success:false, error:<message>}`.
 */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly options: ErrorOptions & { body?: Record<string, unknown> } = {},
  ) {
    super(message, options);
    this.name = "AppError";
    this.status = ERROR_STATUS[code];
  }
  get body(): Record<string, unknown> {
    return this.options.body ?? { success: false, error: this.message };
  }
}

export function fail(code: ErrorCode, message: string, body?: Record<string, unknown>): never {
  throw new AppError(code, message, { body });
}

/** A failure reported by an LLM, embedder or other upstream service; its message is the provider's own. */
export class ProviderError extends Error {
  constructor(message: string, readonly status?: number, options?: ErrorOptions) {
    super(message, options);
    this.name = "ProviderError";
  }
}

/** The model refused the tools it was offered (an Ollama model without tool support): agents prompt instead. */
export class ToolsUnsupportedError extends ProviderError {
  constructor(message: string, status?: number) {
    super(message, status);
    this.name = "ToolsUnsupportedError";
  }
}

/** What a request that could not be stored for want of disk space is told (HTTP 507). */
export const STORAGE_FULL_MESSAGE =
  "The server's disk is full, so this could not be saved. Free some disk space on the server and try again.";

/** True when `error` (or one of its causes) says the disk, or the database on it, has no room left. */
export function isStorageFull(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 8; depth++) {
    const { code, message, cause } = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (code === "ENOSPC" || code === "SQLITE_FULL") return true;
    if (typeof message === "string" && /No space left on device|database or disk is full/i.test(message)) {
      return true;
    }
    current = cause;
  }
  return false;
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Runs `work`; an AppError without its own body gets `body(message)`, the answer shape of the calling route. */
export async function withErrorBody<T>(
  body: (message: string) => Record<string, unknown>,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AppError && !error.options.body) {
      throw new AppError(error.code, error.message, { cause: error, body: body(error.message) });
    }
    throw error;
  }
}
