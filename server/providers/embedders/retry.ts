import { TransientProviderError } from "./http.ts";
import type { Embedder } from "./types.ts";

export interface RetryPolicy {
  /** Tries in all, the first included. */
  attempts: number;
  /** The wait before the first retry; it doubles each time, with up to a quarter of jitter. */
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 5, baseDelayMs: 500, maxDelayMs: 15_000 };

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", stop, { once: true });
  });
}

/**
 * Runs `call`, retrying rate limits (429), server errors (5xx) and connection failures with exponential
 * backoff; any other failure (a bad key, a wrong model: 4xx) is final at once.
 */
export async function withRetry<T>(
  call: () => Promise<T>,
  policy: RetryPolicy,
  signal?: AbortSignal,
): Promise<T> {
  for (let attempt = 1;; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof TransientProviderError) || attempt >= policy.attempts || signal?.aborted) {
        throw error;
      }
      const backoff = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
      const wait = Math.max(
        backoff * (1 + Math.random() / 4),
        Math.min(error.retryAfterMs ?? 0, policy.maxDelayMs),
      );
      await sleep(wait, signal);
    }
  }
}

/** The same embedder with every call retried as `withRetry` says. */
export function retrying(embedder: Embedder, policy: RetryPolicy = DEFAULT_RETRY): Embedder {
  return {
    fingerprint: embedder.fingerprint,
    modelId: embedder.modelId,
    maxChunkLength: embedder.maxChunkLength,
    maxInputsPerCall: embedder.maxInputsPerCall,
    embed: (texts, signal) => withRetry(() => embedder.embed(texts, signal), policy, signal),
    embedQuery: (text, signal) => withRetry(() => embedder.embedQuery(text, signal), policy, signal),
  };
}
