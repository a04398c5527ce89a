import { z } from "zod";
import { STORAGE_KEYS } from "../../lib/storage.ts";

/** The answer of `POST /api/request-token` and of the single sign-on login (spec 01 §3, §7.1). */
export const LoginAnswer = z.looseObject({
  valid: z.boolean().optional(),
  user: z.looseObject({}).nullable().optional(),
  token: z.string().nullable().optional(),
  message: z.string().nullable().optional(),
});
export type LoginAnswer = z.infer<typeof LoginAnswer>;

/**
 * Reads a login answer; a body that is not JSON becomes the error's message (spec 01 §2.4). Throws with the
 * server's message, else `fallback`, unless the answer is valid and carries a token.
 */
export function validLogin(body: unknown, fallback: string): LoginAnswer & { token: string } {
  if (typeof body === "string" && body.trim()) throw new Error(body.trim());
  const parsed = LoginAnswer.safeParse(body);
  if (!parsed.success) throw new Error(fallback);
  const answer = parsed.data;
  if (!answer.valid || !answer.token) throw new Error(answer.message || fallback);
  return answer as LoginAnswer & { token: string };
}

function storage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

/** Forgets the stored user, token and auth timestamp (spec 01 §4). */
export function clearSession() {
  const store = storage();
  if (!store) return;
  for (const key of Object.values(STORAGE_KEYS)) store.removeItem(key);
}

/** Stores a new session: the token, the user in multi-user mode, and the time of this auth check. */
export function storeSession(session: { token: string; user?: Record<string, unknown> | null }) {
  const store = storage();
  if (!store) return;
  store.setItem(STORAGE_KEYS.token, session.token);
  if (session.user) store.setItem(STORAGE_KEYS.user, JSON.stringify(session.user));
  else store.removeItem(STORAGE_KEYS.user);
  store.setItem(STORAGE_KEYS.authTimestamp, String(Date.now()));
}

/** A redirect target of this site only: a path starting with one "/", else home. */
export function safeRedirect(target: string | null | undefined): string {
  return target && target.startsWith("/") && !target.startsWith("//") && !target.startsWith("/\\")
    ? target
    : "/";
}
