import { eq } from "drizzle-orm";
import { users } from "../../db/schema.ts";
import {
  type AccountUpdateInput,
  AUTH_MESSAGES,
  Bio,
  Password,
  PreferredLanguage,
  Username,
} from "../../shared/api/auth.ts";
import type { NewUserInput, UpdateUserInput } from "../../shared/api/admin.ts";
import type { Role } from "../../shared/roles.ts";
import type * as z from "zod";
import type { Actor } from "../auth/actor.ts";
import type { Deps } from "../deps.ts";
import { fail } from "../errors.ts";
import { logEvent } from "../events/log.ts";
import { hashSecret } from "../auth/passwords.ts";
import type { UserRow } from "../auth/present.ts";
import { checked } from "../auth/service.ts";
import { findUserById, otherActiveAdmins, usernameTaken } from "./repo.ts";

export const USER_MESSAGES = {
  notFound: "User not found.",
  cannotActOnUser: "Cannot perform that action on user.",
  invalidRole: "Invalid role selection for user.",
  onlyAdminResets: "Only an admin can reset passwords.",
  lastAdmin: "No system admins will remain if you do this. Update failed.",
  selfSuspend: "You cannot suspend yourself.",
  selfDelete: "You cannot delete yourself.",
} as const;

/** A manager may act on managers and default users only, and never grant the admin role. */
function checkAuthority(actor: Actor, target: UserRow | null, newRole?: Role) {
  if (actor.role === "admin") return;
  if (target?.role === "admin") fail("forbidden", USER_MESSAGES.cannotActOnUser);
  if (newRole === "admin") fail("forbidden", USER_MESSAGES.invalidRole);
}

export async function createUser(
  deps: Deps,
  actor: Actor,
  input: z.output<typeof NewUserInput>,
): Promise<UserRow> {
  checkAuthority(actor, null, input.role);
  if (await usernameTaken(deps, input.username)) fail("conflict", AUTH_MESSAGES.usernameTaken);
  const [row] = await deps.db.insert(users).values({
    username: input.username,
    password: await hashSecret(input.password),
    role: input.role,
    dailyMessageLimit: input.dailyMessageLimit ?? null,
    bio: input.bio ?? "",
  }).returning();
  await logEvent(
    deps,
    "user_created",
    { username: row.username, role: row.role, by: actor.userId },
    actor.userId,
  );
  return row;
}

/**
 * Applies an admin's or manager's edit to another account (docs/api-compat.md#admin-calls). Only the fields
 * present change; a new password, role or suspension voids the user's older sessions.
 */
export async function updateUser(
  deps: Deps,
  actor: Actor,
  id: number,
  input: z.output<typeof UpdateUserInput>,
): Promise<UserRow> {
  const target = await findUserById(deps, id) ?? fail("not_found", USER_MESSAGES.notFound);
  checkAuthority(actor, target, input.role);
  if (input.password !== undefined && actor.role !== "admin") {
    fail("forbidden", USER_MESSAGES.onlyAdminResets);
  }
  const suspended = input.suspended === undefined
    ? undefined
    : Number(input.suspended === true || input.suspended === 1);
  if (suspended === 1 && target.id === actor.userId) fail("invalid_input", USER_MESSAGES.selfSuspend);
  const losesAdmin = target.role === "admin" && ((input.role && input.role !== "admin") || suspended === 1);
  if (losesAdmin && (await otherActiveAdmins(deps, target.id)) === 0) {
    fail("invalid_input", USER_MESSAGES.lastAdmin);
  }
  if (input.username !== undefined && input.username !== target.username) {
    if (await usernameTaken(deps, input.username, target.id)) fail("conflict", AUTH_MESSAGES.usernameTaken);
  }

  const changes: Partial<typeof users.$inferInsert> = { lastUpdatedAt: new Date() };
  if (input.username !== undefined) changes.username = input.username;
  if (input.bio !== undefined) changes.bio = input.bio;
  if (input.dailyMessageLimit !== undefined) changes.dailyMessageLimit = input.dailyMessageLimit;
  if (input.password !== undefined) changes.password = await hashSecret(input.password);
  if (input.role !== undefined) changes.role = input.role;
  if (suspended !== undefined) changes.suspended = suspended;
  const voidsSessions = input.password !== undefined ||
    (input.role !== undefined && input.role !== target.role) ||
    (suspended !== undefined && suspended !== target.suspended);
  if (voidsSessions) changes.tokenVersion = target.tokenVersion + 1;
  const [row] = await deps.db.update(users).set(changes).where(eq(users.id, target.id)).returning();
  await logEvent(deps, "user_updated", {
    username: row.username,
    fields: Object.keys(input),
    by: actor.userId,
  }, actor.userId);
  return row;
}

export async function deleteUser(deps: Deps, actor: Actor, id: number): Promise<void> {
  const target = await findUserById(deps, id) ?? fail("not_found", USER_MESSAGES.notFound);
  if (target.id === actor.userId) fail("invalid_input", USER_MESSAGES.selfDelete);
  checkAuthority(actor, target);
  if (target.role === "admin" && (await otherActiveAdmins(deps, target.id)) === 0) {
    fail("invalid_input", USER_MESSAGES.lastAdmin);
  }
  await deps.db.delete(users).where(eq(users.id, target.id));
  await logEvent(deps, "user_deleted", { username: target.username, by: actor.userId }, actor.userId);
}

/**
 * `POST /api/system/user`: the caller's own username, password, bio or language. A new password voids the
 * caller's other sessions; the answer then carries a fresh token for this one.
 */
export async function updateOwnAccount(
  deps: Deps,
  actor: Actor,
  input: z.output<typeof AccountUpdateInput>,
): Promise<{ user: UserRow; passwordChanged: boolean }> {
  if (actor.userId === null) fail("invalid_input", "There are no accounts in single-user mode.");
  const user = await findUserById(deps, actor.userId) ?? fail("not_found", USER_MESSAGES.notFound);
  const changes: Partial<typeof users.$inferInsert> = { lastUpdatedAt: new Date() };
  const present = (value: unknown) => value !== undefined && value !== null && value !== "";
  if (present(input.username)) {
    const username = checked(Username, input.username);
    if (username !== user.username && await usernameTaken(deps, username, user.id)) {
      fail("conflict", AUTH_MESSAGES.usernameTaken);
    }
    changes.username = username;
  }
  if (present(input.password)) {
    changes.password = await hashSecret(checked(Password, input.password));
    changes.tokenVersion = user.tokenVersion + 1;
  }
  if (input.bio !== undefined) changes.bio = checked(Bio, input.bio);
  if (present(input.preferredLanguage)) {
    changes.preferredLanguage = checked(PreferredLanguage, input.preferredLanguage);
  }
  if (Object.keys(changes).length === 1) fail("invalid_input", "No updates provided");
  const [row] = await deps.db.update(users).set(changes).where(eq(users.id, user.id)).returning();
  await logEvent(
    deps,
    "user_updated",
    { username: row.username, fields: Object.keys(changes), by: user.id },
    user.id,
  );
  return { user: row, passwordChanged: changes.password !== undefined };
}

/** Sets (or, with null, removes) the caller's profile picture; returns the file name it replaced. */
export async function setProfilePicture(
  deps: Deps,
  userId: number,
  filename: string | null,
): Promise<string | null> {
  const previous = await findUserById(deps, userId);
  await deps.db.update(users).set({ pfpFilename: filename, lastUpdatedAt: new Date() }).where(
    eq(users.id, userId),
  );
  return previous?.pfpFilename ?? null;
}
