import {
  AUTH_MESSAGES,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  USERNAME_MAX_LENGTH,
  USERNAME_MIN_LENGTH,
  USERNAME_PATTERN,
} from "../../../shared/limits.ts";

/** Up to two letters for an avatar without a picture: the username's first two, else AA. */
export function initials(username: string | null | undefined): string {
  return username?.trim().slice(0, 2) || "AA";
}

/**
 * The first problem the server's rules (shared/api/auth.ts: `Username`, `Password`) find with a username, or
 * null. Checked by hand with the same limits and messages, in the schemas' order: the account form is in the
 * page's first load, which carries no zod (account_rules_test compares the two).
 */
export function usernameProblem(value: string): string | null {
  const name = value.trim();
  if (name.length < USERNAME_MIN_LENGTH) return AUTH_MESSAGES.usernameTooShort;
  if (name.length > USERNAME_MAX_LENGTH) return AUTH_MESSAGES.usernameTooLong;
  if (!USERNAME_PATTERN.test(name)) return AUTH_MESSAGES.usernameCharacters;
  return null;
}

/** The first problem the server's rules find with a password, or null (see `usernameProblem`). */
export function passwordProblem(value: string): string | null {
  if (value.length < PASSWORD_MIN_LENGTH) return AUTH_MESSAGES.passwordTooShort;
  if (value.length > PASSWORD_MAX_LENGTH) return AUTH_MESSAGES.passwordTooLong;
  return null;
}

/**
 * The account form's problems (AccountModal), by the rules the server applies: the username always, the new
 * password only when one was typed (left empty, the password stays as it is).
 */
export function accountProblems(username: string, password: string) {
  return { username: usernameProblem(username), password: password ? passwordProblem(password) : null };
}
