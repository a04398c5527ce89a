import * as z from "zod";
import { ROLES } from "../roles.ts";
import { jsonObject, laterChecked, textOr } from "./body.ts";
import { SUPPORTED_LANGUAGES } from "../languages.ts";
export { LANGUAGES } from "../language_names.ts";

// The limits and messages are in shared/limits.ts, without zod, for the client's first load.
import {
  AUTH_MESSAGES,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  RECOVERY_CODES_NEEDED,
  USERNAME_MAX_LENGTH,
  USERNAME_MIN_LENGTH,
  USERNAME_PATTERN,
} from "../limits.ts";

export {
  AUTH_MESSAGES,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  RECOVERY_CODE_COUNT,
  RECOVERY_CODES_NEEDED,
  USERNAME_MAX_LENGTH,
  USERNAME_MIN_LENGTH,
  USERNAME_PATTERN,
} from "../limits.ts";

export const Username = z.string({ error: "Username is required." }).trim()
  .min(USERNAME_MIN_LENGTH, AUTH_MESSAGES.usernameTooShort)
  .max(USERNAME_MAX_LENGTH, AUTH_MESSAGES.usernameTooLong)
  .regex(USERNAME_PATTERN, AUTH_MESSAGES.usernameCharacters);
export const Password = z.string({ error: "Password is required." })
  .min(PASSWORD_MIN_LENGTH, AUTH_MESSAGES.passwordTooShort)
  .max(PASSWORD_MAX_LENGTH, AUTH_MESSAGES.passwordTooLong);

/** A username as a login or recovery reads it: trimmed and lowercase; anything but text reads as none. */
const loginName = z.unknown().optional().transform((value) =>
  typeof value === "string" ? value.trim().toLowerCase() : ""
);
const RECOVERY_CODE = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** `POST /api/request-token`: an account's username and password, or the instance password alone. */
export const LoginInput = jsonObject({ username: loginName, password: textOr(undefined) });

/**
 * `POST /api/system/recover-account`: the distinct well-formed codes given, at most as many as are needed
 * (anything else is dropped, and too few codes answer as wrong ones).
 */
export const RecoverAccountInput = jsonObject({
  username: loginName,
  recoveryCodes: z.unknown().optional().transform((value) =>
    [
      ...new Set(
        (Array.isArray(value) ? value : []).filter((code): code is string => typeof code === "string")
          .map((code) => code.trim()).filter((code) => RECOVERY_CODE.test(code)),
      ),
    ].slice(0, RECOVERY_CODES_NEEDED)
  ),
});

const trimmedText = z.unknown().optional().transform((value) =>
  typeof value === "string" ? value.trim() : ""
);

/** `POST /api/system/reset-password`: the passwords must match and pass the rules, then the token is needed. */
export const ResetPasswordInput = jsonObject({
  token: textOr(""),
  newPassword: trimmedText,
  confirmPassword: trimmedText,
}).superRefine((input, context) => {
  const problem = input.newPassword !== input.confirmPassword
    ? AUTH_MESSAGES.passwordsDiffer
    : Password.safeParse(input.newPassword).error?.issues[0].message ??
      (input.token ? null : AUTH_MESSAGES.invalidResetToken);
  if (problem) context.addIssue({ code: "custom", message: problem });
});

/**
 * `POST /api/system/update-password`: `usePassword: false` (or "false") removes the instance password; else
 * `newPassword` (checked with Password once the instance is known to be single-user) becomes it.
 */
export const InstancePasswordInput = jsonObject({
  usePassword: z.unknown().optional().transform((value) => !(value === false || value === "false")),
  newPassword: laterChecked,
});

/** `POST /api/system/enable-multi-user`: the first admin (Username and Password, checked after the mode). */
export const EnableMultiUserInput = jsonObject({ username: laterChecked, password: laterChecked });

export const BIO_MAX_LENGTH = 1000;
const bioMessage = `Bio must be text of at most ${BIO_MAX_LENGTH} characters.`;
export const Bio = z.string({ error: bioMessage }).max(BIO_MAX_LENGTH, bioMessage);
export const PreferredLanguage = z.enum(SUPPORTED_LANGUAGES, {
  error: (issue) => `Language "${String(issue.input)}" is not available.`,
});

/**
 * `POST /api/system/user`: the caller's own username, password, bio or language; each is checked (Username,
 * Password, Bio, PreferredLanguage) in the order of the reference, after the checks of the account itself.
 */
export const AccountUpdateInput = jsonObject({
  username: laterChecked,
  password: laterChecked,
  bio: laterChecked,
  preferredLanguage: laterChecked,
});

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
