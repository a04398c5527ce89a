/** Usernames: lowercase letters, numbers, underscores and hyphens, no spaces (spec 01 §5). */
export const USERNAME_PATTERN = /^[a-z0-9_-]+$/;
export const PASSWORD_MIN_LENGTH = 8;

/** The i18n key of the first problem with a username, or null when it is acceptable. */
export function usernameProblem(username: string, minLength: number): string | null {
  if (username.length < minLength) return "invite.errors.usernameTooShort";
  if (!USERNAME_PATTERN.test(username)) return "invite.errors.usernameCharacters";
  return null;
}
