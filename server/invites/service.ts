import { and, desc, eq, inArray } from "drizzle-orm";
import type * as z from "zod";
import { invites, users, workspaces, workspaceUsers } from "../../db/schema.ts";
import { AUTH_MESSAGES, Password, Username } from "../../shared/api/auth.ts";
import type { AcceptInviteInput, Invite } from "../../shared/api/admin.ts";
import type { Actor } from "../auth/actor.ts";
import type { Deps } from "../deps.ts";
import { AppError, fail } from "../errors.ts";
import { logEvent } from "../events/log.ts";
import { hashSecret, randomToken } from "../auth/passwords.ts";
import { checked } from "../auth/service.ts";
import { usernameTaken } from "../users/repo.ts";

type InviteRow = typeof invites.$inferSelect;

export function presentInvite(row: InviteRow): Invite {
  let workspaceIds: number[] = [];
  try {
    const parsed = JSON.parse(row.workspaceIds);
    if (Array.isArray(parsed)) workspaceIds = parsed.filter((id) => Number.isInteger(id));
  } catch {
    // A damaged list joins no workspace.
  }
  return {
    id: row.id,
    code: row.code,
    status: row.status,
    claimedBy: row.claimedBy,
    workspaceIds,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    lastUpdatedAt: row.lastUpdatedAt.toISOString(),
  };
}

/** Every invite, the newest first. */
export function listInvites(deps: Deps): Promise<InviteRow[]> {
  return deps.db.select().from(invites).orderBy(desc(invites.id));
}

async function existingWorkspaceIds(deps: Deps, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await deps.db.select({ id: workspaces.id }).from(workspaces).where(
    inArray(workspaces.id, ids),
  );
  return rows.map((row) => row.id);
}

function credentialLoginDisabled(deps: Deps): boolean {
  return deps.config.simpleSso.enabled && deps.config.simpleSso.noLogin;
}

export async function createInvite(deps: Deps, actor: Actor, workspaceIds: number[]): Promise<InviteRow> {
  if (credentialLoginDisabled(deps)) {
    fail("forbidden", "Login via credentials has been disabled by the administrator.");
  }
  const ids = [...new Set(workspaceIds)];
  const known = await existingWorkspaceIds(deps, ids);
  const unknown = ids.filter((id) => !known.includes(id));
  if (unknown.length > 0) fail("invalid_input", `Cannot find the workspace ${unknown.join(", ")}.`);
  const [row] = await deps.db.insert(invites).values({
    code: randomToken(18),
    workspaceIds: JSON.stringify(known),
    createdBy: actor.userId,
  }).returning();
  await logEvent(deps, "invite_created", { id: row.id, workspaceIds: known }, actor.userId);
  return row;
}

export async function disableInvite(deps: Deps, actor: Actor, id: number): Promise<void> {
  const [row] = await deps.db.update(invites).set({ status: "disabled", lastUpdatedAt: new Date() })
    .where(eq(invites.id, id)).returning();
  if (!row) fail("not_found", "Invite not found.");
  await logEvent(deps, "invite_disabled", { id }, actor.userId);
}

/** A pending invite by code; a used or disabled one is 410 with the reference's text. */
export async function pendingInvite(deps: Deps, code: string): Promise<InviteRow> {
  const [row] = await deps.db.select().from(invites).where(eq(invites.code, code));
  if (!row) {
    throw new AppError("not_found", "Invite not found.", {
      body: { invite: null, error: "Invite not found." },
    });
  }
  if (row.status !== "pending") {
    const message = "Invite is no longer valid.";
    throw new AppError("gone", message, { body: { invite: null, error: message } });
  }
  return row;
}

/** Creates a default user from an invite, joins its workspaces and marks it claimed, in one transaction. */
export async function acceptInvite(
  deps: Deps,
  code: string,
  input: z.output<typeof AcceptInviteInput>,
): Promise<void> {
  if (!deps.settings.multiUserMode) fail("forbidden", "Invitations need multi-user mode.");
  if (credentialLoginDisabled(deps)) {
    fail("forbidden", "Login via credentials has been disabled by the administrator.");
  }
  const invite = await pendingInvite(deps, code);
  const username = checked(Username, input.username);
  const password = checked(Password, input.password);
  if (await usernameTaken(deps, username)) fail("conflict", AUTH_MESSAGES.usernameTaken);
  const workspaceIds = await existingWorkspaceIds(deps, presentInvite(invite).workspaceIds);
  const passwordHash = await hashSecret(password);
  const user = await deps.db.transaction(async (tx) => {
    const [created] = await tx.insert(users).values({ username, password: passwordHash, role: "default" })
      .returning();
    // Only a still-pending invite is claimed: of two accepts at once, the second rolls back.
    const claimed = await tx.update(invites).set({
      status: "claimed",
      claimedBy: created.id,
      lastUpdatedAt: new Date(),
    })
      .where(and(eq(invites.id, invite.id), eq(invites.status, "pending"))).returning();
    if (claimed.length === 0) {
      throw new AppError("gone", "Invite is no longer valid.");
    }
    if (workspaceIds.length > 0) {
      await tx.insert(workspaceUsers).values(
        workspaceIds.map((workspaceId) => ({ userId: created.id, workspaceId })),
      );
    }
    return created;
  });
  await logEvent(deps, "invite_accepted", { id: invite.id, username }, user.id);
}
