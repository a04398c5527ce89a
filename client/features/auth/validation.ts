import { USERNAME_PATTERN } from "../../../shared/api/auth.ts";

// The rules of docs/api-compat.md#accounts-passwords-and-recovery, shared with the server.
export { PASSWORD_MIN_LENGTH, USERNAME_MIN_LENGTH, USERNAME_PATTERN } from "../../../shared/api/auth.ts";

/** The i18n key of the first problem with a username, or null when it is acceptable. */
export function usernameProblem(username: string, minLength: number): string | null {
  if (username.length < minLength) return "invite.errors.usernameTooShort";
  if (!USERNAME_PATTERN.test(username)) return "invite.errors.usernameCharacters";
  return null;
}
