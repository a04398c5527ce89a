import { ApiError } from "../../lib/api.ts";

/** The server's own words for a failed call: its `message`, else its `error`; null when it said nothing. */
export function serverMessage(caught: unknown): string | null {
  if (caught instanceof ApiError && caught.body && typeof caught.body === "object") {
    const body = caught.body as { message?: unknown; error?: unknown };
    for (const text of [body.message, body.error]) if (typeof text === "string" && text) return text;
  }
  return caught instanceof ApiError && caught.status === 0 ? caught.message : null;
}

/** The recovery codes as typed, trimmed, the empty ones left out (the server says how many it needs). */
export function codesToSend(codes: readonly string[]): string[] {
  return codes.map((code) => code.trim()).filter(Boolean);
}

/** The text of recovery_codes.txt: one code a line. */
export function recoveryCodesText(codes: readonly string[]): string {
  return codes.join("\n") + "\n";
}
