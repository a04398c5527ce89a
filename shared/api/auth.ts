import { z } from "zod";
import { ROLES } from "../roles.ts";

/** Usernames: lowercase letters, digits, underscores and hyphens, 2 to 64 characters. */
export const USERNAME_PATTERN = /^[a-z0-9_-]+$/;
export const USERNAME_MIN_LENGTH = 2;
export const USERNAME_MAX_LENGTH = 64;
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 256;
/** Recovery codes handed out on first login; any two of them recover the account. */
export const RECOVERY_CODE_COUNT = 4;
export const RECOVERY_CODES_NEEDED = 2;

export const AUTH_MESSAGES = {
  usernameTooShort: `Username must be at least ${USERNAME_MIN_LENGTH} characters.`,
  usernameTooLong: `Username must be at most ${USERNAME_MAX_LENGTH} characters.`,
  usernameCharacters: "Username can only contain lowercase letters, numbers, underscores and hyphens.",
  usernameTaken: "That username is already taken.",
  passwordTooShort: `Password must be at least ${PASSWORD_MIN_LENGTH} characters.`,
  passwordTooLong: `Password must be at most ${PASSWORD_MAX_LENGTH} characters.`,
  /** One answer for an unknown username and a wrong password, so a login cannot tell which accounts exist. */
  invalidCredentials: "[001] Invalid login credentials.",
  invalidInstancePassword: "[003] Invalid password provided",
  suspended: "[004] Account suspended by admin.",
  credentialsDisabled: "[005] Login via credentials has been disabled by the administrator.",
  invalidRecovery: "Invalid recovery codes.",
  invalidResetToken: "Invalid or expired reset token.",
  passwordsDiffer: "Passwords do not match",
  passwordReset: "Password reset successful",
} as const;

export const Username = z.string({ error: "Username is required." }).trim()
  .min(USERNAME_MIN_LENGTH, AUTH_MESSAGES.usernameTooShort)
  .max(USERNAME_MAX_LENGTH, AUTH_MESSAGES.usernameTooLong)
  .regex(USERNAME_PATTERN, AUTH_MESSAGES.usernameCharacters);
export const Password = z.string({ error: "Password is required." })
  .min(PASSWORD_MIN_LENGTH, AUTH_MESSAGES.passwordTooShort)
  .max(PASSWORD_MAX_LENGTH, AUTH_MESSAGES.passwordTooLong);

/** A user as every answer presents it: never the password hash. */
export const User = z.object({
  id: z.number(),
  username: z.string().nullable(),
  pfpFilename: z.string().nullable(),
  role: z.enum(ROLES),
  suspended: z.number(),
  seen_recovery_codes: z.boolean(),
  createdAt: z.string(),
  lastUpdatedAt: z.string(),
  dailyMessageLimit: z.number().nullable(),
  bio: z.string(),
  preferredLanguage: z.string(),
});
export type User = z.infer<typeof User>;

/** `POST /api/request-token` (and the SSO redemption, without recoveryCodes). */
export const LoginAnswer = z.object({
  valid: z.boolean(),
  user: User.nullable(),
  token: z.string().nullable(),
  message: z.string().nullable(),
  recoveryCodes: z.array(z.string()).optional(),
});
export type LoginAnswer = z.infer<typeof LoginAnswer>;

export const RecoverAccountAnswer = z.object({
  success: z.boolean(),
  resetToken: z.string().optional(),
  error: z.string().optional(),
  message: z.string().optional(),
});

export const ResetPasswordAnswer = z.object({
  success: z.boolean(),
  message: z.string().optional(),
  error: z.string().optional(),
});

/** `GET /api/system/refresh-user`: the current user (null in single-user mode). */
export const RefreshUserAnswer = z.object({
  success: z.boolean(),
  user: User.nullable(),
  message: z.string().nullable(),
});

export const SuccessAnswer = z.object({ success: z.boolean(), error: z.string().nullable().optional() });

/** `POST /api/system/user` and `update-password`: a changed password comes with a fresh token for this session. */
export const UpdateAccountAnswer = SuccessAnswer.extend({ token: z.string().nullable().optional() });

/** Languages the account form offers; English is the only one. */
export const LANGUAGES = [{ code: "en", name: "English" }] as const;
