// `lectern reset-password [USER]`: a new password for an account, or for a single-user instance.
import { eq } from "drizzle-orm";
import { Password } from "../../shared/api/auth.ts";
import { passwordResetTokens, users } from "../../db/schema.ts";
import type { Database } from "../../db/client.ts";
import type { Logger } from "../log.ts";
import { hashSecret, randomToken } from "../auth/passwords.ts";
import { LABELS, type SettingsService } from "../settings/service.ts";
import { logEvent } from "../events/log.ts";
import { CliError, usage } from "./errors.ts";

export interface ResetDeps {
  db: Database;
  log: Logger;
  settings: Pick<SettingsService, "multiUserMode" | "label" | "instanceTokenVersion" | "setLabels">;
}

/** A password an operator hands on: 24 URL-safe characters (144 random bits). */
export function randomPassword(): string {
  return randomToken(18);
}

export interface ResetOutcome {
  /** The account's name, or null for a single-user instance's password. */
  username: string | null;
}

/**
 * Sets `password` (hashed with argon2id) for the account `username` in multi-user mode, or as the instance
 * password of a single-user instance that has one; the sessions signed in before end (their token version moves
 * on). Throws a CliError naming what is wrong.
 */
export async function resetPassword(
  deps: ResetDeps,
  username: string | null,
  password: string,
): Promise<ResetOutcome> {
  const checked = Password.safeParse(password);
  if (!checked.success) throw new CliError(checked.error.issues[0]?.message ?? "The password is not valid.");
  if (deps.settings.multiUserMode) {
    if (!username) throw usage("Name the account whose password to reset: lectern reset-password USER.");
    const name = username.trim().toLowerCase();
    const [user] = await deps.db.select().from(users).where(eq(users.username, name));
    if (!user) throw new CliError(`There is no account named ${name}.`);
    await deps.db.batch([
      deps.db.update(users).set({
        password: await hashSecret(checked.data),
        tokenVersion: user.tokenVersion + 1,
        lastUpdatedAt: new Date(),
      }).where(eq(users.id, user.id)),
      deps.db.delete(passwordResetTokens).where(eq(passwordResetTokens.userId, user.id)),
    ]);
    await logEvent(deps, "password_reset", { username: user.username, via: "cli" }, user.id);
    return { username: user.username };
  }
  if (username) {
    throw usage(
      "This instance is in single-user mode and has no accounts: run lectern reset-password without a user " +
        "to reset the instance password.",
    );
  }
  if (!deps.settings.label(LABELS.instancePasswordHash)) {
    throw new CliError(
      "This single-user instance has no password, so there is none to reset; anyone who reaches it is let in.",
    );
  }
  await deps.settings.setLabels({
    [LABELS.instancePasswordHash]: await hashSecret(checked.data),
    [LABELS.instanceTokenVersion]: String(deps.settings.instanceTokenVersion + 1),
  });
  await logEvent(deps, "instance_password_changed", { enabled: true, via: "cli" });
  return { username: null };
}
