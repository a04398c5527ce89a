import { and, asc, eq, inArray } from "drizzle-orm";
import { users, workspaces, workspaceUsers } from "../../db/schema.ts";
import type { Actor } from "../auth/actor.ts";
import type { Deps } from "../deps.ts";
import { fail } from "../errors.ts";
import { logEvent } from "../events/log.ts";
import type { WorkspaceRole } from "../../shared/roles.ts";
import { presentWorkspace, type WorkspaceRow } from "./present.ts";

export async function workspaceById(deps: Deps, id: number): Promise<WorkspaceRow> {
  const [row] = await deps.db.select().from(workspaces).where(eq(workspaces.id, id));
  return row ?? fail("not_found", "Workspace does not exist.");
}

/**
 * Every workspace with the ids of its members, as `GET /api/admin/workspaces` answers; Lectern adds each
 * member's workspace role (`members`) and the workspace's visibility (`visibleToAll`).
 */
export async function workspacesWithMembers(deps: Deps) {
  const rows = await deps.db.select().from(workspaces).orderBy(asc(workspaces.name), asc(workspaces.id));
  const links = await deps.db.select({
    workspaceId: workspaceUsers.workspaceId,
    userId: workspaceUsers.userId,
    role: workspaceUsers.role,
  })
    .from(workspaceUsers).orderBy(asc(workspaceUsers.userId));
  const members = new Map<number, { userId: number; role: WorkspaceRole }[]>();
  for (const link of links) {
    const list = members.get(link.workspaceId) ?? [];
    list.push({ userId: link.userId, role: link.role });
    members.set(link.workspaceId, list);
  }
  return rows.map((row) => {
    const list = members.get(row.id) ?? [];
    return {
      ...presentWorkspace(row),
      userIds: list.map((member) => member.userId),
      members: list,
      visibleToAll: row.visibleToAll,
    };
  });
}

/**
 * The members of a workspace as `GET /api/admin/workspaces/:id/users` answers
 * (docs/api-compat.md#admin-calls), with Lectern's `workspaceRole`.
 */
export async function workspaceMembers(deps: Deps, workspaceId: number) {
  const rows = await deps.db.select({
    userId: users.id,
    username: users.username,
    role: users.role,
    lastUpdatedAt: users.lastUpdatedAt,
    workspaceRole: workspaceUsers.role,
  }).from(workspaceUsers).innerJoin(users, eq(users.id, workspaceUsers.userId))
    .where(eq(workspaceUsers.workspaceId, workspaceId)).orderBy(asc(users.username));
  return rows.map((row) => ({ ...row, lastUpdatedAt: row.lastUpdatedAt.toISOString() }));
}

export interface MemberChanges {
  /** A member's workspace role by user id; a member not named keeps theirs, a new one is a viewer. */
  roles?: ReadonlyMap<number, WorkspaceRole>;
  visibleToAll?: boolean;
}

/**
 * Replaces the member list in one transaction; every id must be an existing user. Members who stay keep their
 * role unless `changes.roles` names another; new members are viewers unless it names one.
 */
export async function setWorkspaceMembers(
  deps: Deps,
  actor: Actor,
  workspaceId: number,
  userIds: number[],
  changes: MemberChanges = {},
) {
  const workspace = await workspaceById(deps, workspaceId);
  const ids = [...new Set(userIds)];
  const roles = changes.roles ?? new Map<number, WorkspaceRole>();
  const strays = [...roles.keys()].filter((id) => !ids.includes(id));
  if (strays.length > 0) {
    fail("invalid_input", `A role is given for the user ${strays.join(", ")}, who is not listed.`);
  }
  if (ids.length > 0) {
    const known = await deps.db.select({ id: users.id }).from(users).where(inArray(users.id, ids));
    const unknown = ids.filter((id) => !known.some((row) => row.id === id));
    if (unknown.length > 0) fail("invalid_input", `Cannot find the user ${unknown.join(", ")}.`);
  }
  await deps.db.transaction(async (tx) => {
    const before = new Map(
      (await tx.select({ userId: workspaceUsers.userId, role: workspaceUsers.role }).from(workspaceUsers)
        .where(eq(workspaceUsers.workspaceId, workspace.id))).map((row) => [row.userId, row.role]),
    );
    await tx.delete(workspaceUsers).where(eq(workspaceUsers.workspaceId, workspace.id));
    if (ids.length > 0) {
      await tx.insert(workspaceUsers).values(ids.map((userId) => ({
        userId,
        workspaceId: workspace.id,
        role: roles.get(userId) ?? before.get(userId) ?? "viewer",
      })));
    }
    if (changes.visibleToAll !== undefined) {
      await tx.update(workspaces).set({ visibleToAll: changes.visibleToAll, lastUpdatedAt: new Date() })
        .where(eq(workspaces.id, workspace.id));
    }
  });
  await logEvent(
    deps,
    "workspace_members_updated",
    {
      workspace: workspace.slug,
      userIds: ids,
      ...(roles.size > 0 ? { roles: Object.fromEntries(roles) } : {}),
      ...(changes.visibleToAll !== undefined ? { visibleToAll: changes.visibleToAll } : {}),
    },
    actor.userId,
  );
}

/** The roles of a body's `roles` record (user id as text → role) as a map. */
export function rolesOf(record: Record<string, WorkspaceRole> | undefined): Map<number, WorkspaceRole> {
  return new Map(Object.entries(record ?? {}).map(([id, role]) => [Number(id), role]));
}

/** What a workspace's owner sees of its members: roles, visibility, and every user they may add. */
export async function ownerMemberView(deps: Deps, workspace: WorkspaceRow) {
  const members = await deps.db.select({
    userId: users.id,
    username: users.username,
    role: workspaceUsers.role,
  }).from(workspaceUsers).innerJoin(users, eq(users.id, workspaceUsers.userId))
    .where(eq(workspaceUsers.workspaceId, workspace.id)).orderBy(asc(users.username));
  const everyone = await deps.db.select({ id: users.id, username: users.username }).from(users)
    .where(eq(users.suspended, 0)).orderBy(asc(users.username));
  return { members, visibleToAll: workspace.visibleToAll, users: everyone };
}

/** The refusal of an owner who would take away their own ownership (an admin or manager can give it back). */
export const OWN_OWNERSHIP_REFUSAL = "You cannot remove yourself as an owner of this workspace.";

/** Whether `userId` is an owner of the workspace. */
export async function isOwner(deps: Deps, workspaceId: number, userId: number): Promise<boolean> {
  const rows = await deps.db.select({ id: workspaceUsers.id }).from(workspaceUsers).where(
    and(
      eq(workspaceUsers.workspaceId, workspaceId),
      eq(workspaceUsers.userId, userId),
      eq(workspaceUsers.role, "owner"),
    ),
  );
  return rows.length > 0;
}
