// Without zod on purpose: limits and fixed lists the client's first-load code reads (issue 21: a page's first
// load carries no zod). The shared/api modules re-export them, so the server reads them where it always did.

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

/** The longest chat message or edit, in characters (about 50,000 tokens): longer text is a document's job. */
export const MAX_MESSAGE_CHARS = 200_000;
/**
 * MAX_MESSAGE_CHARS as the messages show it ("200,000"), grouped without Intl: a module-level
 * `toLocaleString` made every server start load ICU's number data (tens of milliseconds, issue 21).
 */
export const MAX_MESSAGE_CHARS_SHOWN = String(MAX_MESSAGE_CHARS).replace(/\B(?=(\d{3})+$)/g, ",");

/** Shorter terms find nothing, as in the reference: two letters match half the names. */
export const MIN_SEARCH_CHARS = 3;

/** The default folder of uploads; it can never be removed. */
export const DEFAULT_FOLDER = "custom-documents";

/**
 * One workspace's or thread's chat exported from the chat-settings menu (`POST /api/export-chat/:type`, body
 * `{workspaceSlug, threadSlug?}`): the reference's five formats.
 */
export const THREAD_EXPORT_TYPES = ["pdf", "markdown", "plaintext", "json", "html"] as const;
export type ThreadExportType = (typeof THREAD_EXPORT_TYPES)[number];

export const THREAD_EXPORT_EXTENSIONS: Record<ThreadExportType, string> = {
  pdf: "pdf",
  markdown: "md",
  plaintext: "txt",
  json: "json",
  html: "html",
};
