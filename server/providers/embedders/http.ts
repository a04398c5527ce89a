import { ProviderError } from "../../errors.ts";

/** How long one embedding request may take before it counts as a connection failure and is retried. */
export const REQUEST_TIMEOUT_MS = 120_000;

/** A provider failure worth retrying: rate limits, server errors and connection problems. */
export class TransientProviderError extends ProviderError {
  constructor(message: string, status?: number, readonly retryAfterMs?: number, options?: ErrorOptions) {
    super(message, status, options);
    this.name = "TransientProviderError";
  }
}

function retryAfter(header: string | null): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isFinite(date) ? Math.max(0, date - Date.now()) : undefined;
}

function messageOf(body: unknown, text: string): string {
  if (body && typeof body === "object") {
    const record = body as Record<string, unknown>;
    const error = record.error;
    if (typeof error === "string") return error;
    if (error && typeof error === "object" && typeof (error as { message?: unknown }).message === "string") {
      return (error as { message: string }).message;
    }
    for (const key of ["message", "detail"]) {
      if (typeof record[key] === "string") return record[key] as string;
    }
  }
  return text.slice(0, 300);
}

/**
 * POSTs JSON to an embedding API and returns the parsed answer. HTTP failures become a ProviderError with the
 * provider's own message and status (429 and 5xx as TransientProviderError); a refused connection or a timeout
 * is transient too. A caller's abort passes through unchanged.
 */
export async function postJson(
  url: string,
  body: unknown,
  options: { provider: string; headers?: Record<string, string>; fetch?: typeof fetch; signal?: AbortSignal },
): Promise<Record<string, unknown>> {
  const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  let response: Response;
  try {
    response = await (options.fetch ?? fetch)(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...options.headers },
      body: JSON.stringify(body),
      signal,
    });
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason ?? error;
    const reason = timeout.aborted
      ? `no answer within ${REQUEST_TIMEOUT_MS / 1000} s`
      : (error as Error).message;
    throw new TransientProviderError(
      `Could not connect to the ${options.provider} embedder at ${new URL(url).origin}: ${reason}`,
      undefined,
      undefined,
      { cause: error },
    );
  }
  const text = await response.text();
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON: the status and the text say what went wrong.
  }
  if (!response.ok) {
    const message = `The ${options.provider} embedder answered ${response.status}: ${
      messageOf(parsed, text) || response.statusText
    }`;
    if (response.status === 429 || response.status >= 500) {
      throw new TransientProviderError(
        message,
        response.status,
        retryAfter(response.headers.get("retry-after")),
      );
    }
    throw new ProviderError(message, response.status);
  }
  if (!parsed || typeof parsed !== "object") {
    throw new ProviderError(
      `The ${options.provider} embedder at ${new URL(url).origin} did not answer JSON.`,
    );
  }
  return parsed as Record<string, unknown>;
}

/** Checks that an answer holds one numeric vector per text, in order. */
export function checkVectors(provider: string, vectors: unknown[], count: number): number[][] {
  if (vectors.length !== count) {
    throw new ProviderError(
      `The ${provider} embedder returned ${vectors.length} vectors for ${count} texts.`,
    );
  }
  for (const vector of vectors) {
    if (!Array.isArray(vector) || vector.length === 0 || typeof vector[0] !== "number") {
      throw new ProviderError(`The ${provider} embedder returned something that is not a vector.`);
    }
  }
  return vectors as number[][];
}
