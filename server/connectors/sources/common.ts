import { createHash } from "../../hash.ts";
import { ConnectorError } from "../source.ts";

/** A document's version from its text: equal text, equal version (a second import skips it). */
export function textVersion(...parts: string[]): string {
  return createHash("sha256").update(JSON.stringify(parts)).digest("hex").slice(0, 32);
}

/** The message of a thrown value, without its final period, to end a sentence of our own. */
export function reasonOf(error: unknown): string {
  const name = (error as Error)?.name;
  if (name === "TimeoutError") return "no answer in time";
  const message = error instanceof Error ? error.message : String(error);
  return message.trim().replace(/[.\s]+$/, "") || "unknown error";
}

/**
 * "Could not reach {service}: {why}." for a fetch that failed before an answer (refused by the URL guard,
 * connection refused, name not found). A cancelled import's abort is thrown as it is.
 */
export function unreachable(service: string, error: unknown, signal?: AbortSignal): Error {
  if (signal?.aborted) {
    return signal.reason instanceof Error ? signal.reason : new DOMException("Aborted", "AbortError");
  }
  if (error instanceof ConnectorError) return error;
  return new ConnectorError(`Could not reach ${service}: ${reasonOf(error)}.`);
}

const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

/** Decodes the XML/HTML character references caption text carries (often encoded twice). */
export function decodeEntities(text: string): string {
  let current = text;
  for (let pass = 0; pass < 2; pass++) {
    const next = current.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
      if (name[0] === "#") {
        const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : Number(name.slice(1));
        return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
      }
      return NAMED[name.toLowerCase()] ?? whole;
    });
    if (next === current) break;
    current = next;
  }
  return current;
}

/** Waits `ms`, or less when the signal aborts (then it throws the abort). */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    signal.throwIfAborted();
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
