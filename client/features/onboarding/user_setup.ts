import { PASSWORD_MIN_LENGTH, USERNAME_PATTERN } from "../auth/validation.ts";

/** Team setup's admin username: at least 6 characters. */
export const TEAM_USERNAME_MIN = 6;

export type Mode = "justMe" | "team";
export type UsePassword = "yes" | "no";

/** What the user-setup step holds. */
export type UserSetupValues = {
  mode: Mode | null;
  usePassword: UsePassword | null;
  password: string;
  username: string;
  adminPassword: string;
};

/** The first admin's username and password follow the rules. */
export const validTeam = (username: string, password: string) =>
  username.length >= TEAM_USERNAME_MIN && USERNAME_PATTERN.test(username) &&
  password.length >= PASSWORD_MIN_LENGTH;

/** Whether the forward arrow is enabled (on the settled values): a choice made and its fields valid. */
export function forwardEnabled(values: UserSetupValues): boolean {
  const { mode, usePassword } = values;
  return (mode === "justMe" && usePassword === "no") ||
    (mode === "justMe" && usePassword === "yes" && values.password.length >= PASSWORD_MIN_LENGTH) ||
    (mode === "team" && validTeam(values.username, values.adminPassword));
}

/** What submitting does (on the values as typed): move on, set the instance password, create the admin, or nothing. */
export function submitAction(values: UserSetupValues): "next" | "instancePassword" | "team" | null {
  if (values.mode === "justMe" && values.usePassword === "no") return "next";
  if (values.mode === "justMe" && values.password.length >= PASSWORD_MIN_LENGTH) return "instancePassword";
  if (values.mode === "team" && validTeam(values.username, values.adminPassword)) return "team";
  return null;
}

/** A `{success, error}` or `{error}` answer that reports failure in its body: its error, "" without one, else null. */
export function failureOf(answer: unknown): string | null {
  const record = (answer ?? {}) as { success?: unknown; error?: unknown };
  if (typeof record.error === "string" && record.error) return record.error;
  if (record.success === false) return "";
  return null;
}
