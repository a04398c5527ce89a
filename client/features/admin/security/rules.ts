import { passwordProblem } from "../validation.ts";

/**
 * The instance password form (PasswordProtection): with protection on, the password must follow the rules;
 * turning protection off when it is already off changes nothing, so there is nothing to save.
 */
export function passwordFormState(
  enabled: boolean,
  protectedNow: boolean,
  password: string,
): { problem: string | null; unchanged: boolean } {
  return { problem: enabled ? passwordProblem(password) : null, unchanged: !enabled && !protectedNow };
}

/**
 * After multi-user mode is turned on: keep the session the server returned only when password login is off
 * (simple SSO only), since the login screen could then never let the admin in; otherwise sign in again.
 */
export function keepsReturnedSession(
  passwordLoginOff: boolean,
  answer: { token?: string | null; user?: unknown },
): boolean {
  return passwordLoginOff && !!answer.token && !!answer.user;
}
