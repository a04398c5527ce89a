import {
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  USERNAME_MAX_LENGTH,
  USERNAME_MIN_LENGTH,
  USERNAME_PATTERN,
} from "../../../shared/api/auth.ts";

/** The i18n key of the first rule a username breaks (shared/api/auth.ts), or null. */
export function usernameProblem(username: string): string | null {
  if (username.length < USERNAME_MIN_LENGTH) return "users.validation.usernameTooShort";
  if (username.length > USERNAME_MAX_LENGTH) return "users.validation.usernameTooLong";
  if (!USERNAME_PATTERN.test(username)) return "users.validation.usernameCharacters";
  return null;
}

/** The i18n key of the rule a password breaks, or null. */
export function passwordProblem(password: string): string | null {
  if (password.length < PASSWORD_MIN_LENGTH) return "users.validation.passwordTooShort";
  if (password.length > PASSWORD_MAX_LENGTH) return "users.validation.passwordTooLong";
  return null;
}

/** Options for i18n texts of these rules. */
export const RULES = {
  usernameMin: USERNAME_MIN_LENGTH,
  usernameMax: USERNAME_MAX_LENGTH,
  passwordMin: PASSWORD_MIN_LENGTH,
  passwordMax: PASSWORD_MAX_LENGTH,
};
