import { LoginAnswer } from "../../../shared/api/auth.ts";

// The stored session lives in lib/auth.ts; these re-exports keep the onboarding's imports working.
export { clearSession, storeSession } from "../../lib/auth.ts";

/** A login answer that let the visitor in: valid, with a token. */
export type ValidLogin = LoginAnswer & { token: string };

/**
 * Reads a login answer (`POST /api/request-token`, the single sign-on login); a body that is not JSON becomes the
 * error's message. Throws with the server's message, else `fallback`, unless the answer is valid
 * and carries a token.
 */
export function validLogin(body: unknown, fallback: string): ValidLogin {
  if (typeof body === "string" && body.trim()) throw new Error(body.trim());
  const parsed = LoginAnswer.safeParse(body);
  if (!parsed.success) throw new Error(fallback);
  const answer = parsed.data;
  if (!answer.valid || !answer.token) throw new Error(answer.message || fallback);
  return answer as ValidLogin;
}

/** What the login form sends: the instance password alone in single-user mode, else username and password. */
export function loginCredentials(mode: "single" | "multi", username: string, password: string) {
  return mode === "multi" ? { username: username.trim(), password } : { password };
}

/** A login answer of the login form: valid, with a token, and in multi-user mode with the user. */
export function formLogin(mode: "single" | "multi", body: unknown, fallback: string): ValidLogin {
  const answer = validLogin(body, fallback);
  if (mode === "multi" && !answer.user) throw new Error(answer.message || fallback);
  return answer;
}

/**
 * A redirect target of this site only, else home. The target is parsed the way the browser will parse it when
 * it navigates (tabs and newlines dropped, backslashes read as slashes), so "/\t/host" or "/\n/host", which
 * become "//host", are refused, and so is "/.//host", whose dot segment leaves "//host"; what is kept is the
 * path, query and fragment on this origin.
 */
export function safeRedirect(
  target: string | null | undefined,
  origin: string = globalThis.location?.origin ?? "http://localhost",
): string {
  if (!target || !target.startsWith("/")) return "/";
  try {
    const home = new URL(origin).origin;
    const url = new URL(target, origin);
    if (url.origin !== home) return "/";
    // Dot segments can leave a path that starts with "//" ("/..//host" is "//host"): the browser would read
    // that as another host, so the kept path must itself still lead here.
    const kept = `${url.pathname}${url.search}${url.hash}`;
    return new URL(kept, origin).origin === home ? kept : "/";
  } catch {
    return "/";
  }
}
