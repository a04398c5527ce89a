import type { z } from "zod";
import { Password, Username } from "../../../shared/api/auth.ts";

/** Up to two letters for an avatar without a picture: the username's first two, else AA. */
export function initials(username: string | null | undefined): string {
  return username?.trim().slice(0, 2) || "AA";
}

/** The first problem the shared schema finds with a value, or null. */
function problem(schema: z.ZodType<string>, value: string): string | null {
  const result = schema.safeParse(value);
  return result.success ? null : result.error.issues[0]?.message ?? null;
}

/**
 * The account form's problems (AccountModal), by the rules the server applies: the username always, the new
 * password only when one was typed (left empty, the password stays as it is).
 */
export function accountProblems(username: string, password: string) {
  return { username: problem(Username, username), password: password ? problem(Password, password) : null };
}
