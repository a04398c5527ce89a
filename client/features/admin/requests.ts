import { api, ApiError } from "../../lib/api.ts";
import { lazySchema } from "../../lib/lazy_schema.ts";

/**
 * Calls an endpoint that answers `{success, error}`. A refusal throws an ApiError with the server's own
 * message, whether it came with an error status or as `success: false`.
 */
export async function act(
  path: string,
  options: { method?: string; json?: unknown },
  fallback: string,
): Promise<void> {
  const answer = await api(path, { ...options, schema: lazySchema((s) => s.auth.SuccessAnswer) });
  if (!answer.success || answer.error) throw new ApiError(answer.error || fallback, 200, answer);
}

/** The message of anything a call threw. */
export function messageOf(caught: unknown): string {
  return caught instanceof Error ? caught.message : String(caught);
}

/** The `error` a JSON answer carries, if any. */
export function errorIn(body: unknown): string | null {
  const error = (body as { error?: unknown } | null)?.error;
  return typeof error === "string" && error ? error : null;
}
