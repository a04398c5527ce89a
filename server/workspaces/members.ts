import { asc, eq, inArray } from "drizzle-orm";
import { users, workspaces, workspaceUsers } from "../../db/schema.ts";
import type { Actor } from "../auth/actor.ts";
import type { Deps } from "../deps.ts";
import { fail } from "../errors.ts";
import { logEvent } from "../events/log.ts";
import { presentWorkspace, type WorkspaceRow } from "./present.ts";

export async function workspaceById(deps: Deps, id: number): Promise<WorkspaceRow> {
  const [row] = await deps.db.select().from(workspaces).where(eq(workspaces.id, id));
  return row ?? fail("not_found", "Workspace does not exist.");
}

/** Every workspace with the ids of its members, as `GET /api/admin/workspaces` answers. */
export async function workspacesWithMembers(deps: Deps) {
  const rows = await deps.db.select().from(workspaces).orderBy(asc(workspaces.name), asc(workspaces.id));
  const links = await deps.db.select({
    workspaceId: workspaceUsers.workspaceId,
    userId: workspaceUsers.userId,
  })
    .from(workspaceUsers).orderBy(asc(workspaceUsers.userId));
  const members = new Map<number, number[]>();
  for (const link of links) {
    const ids = members.get(link.workspaceId) ?? [];
    ids.push(link.userId);
    members.set(link.workspaceId, ids);
  }
  return rows.map((row) => ({ ...presentWorkspace(row), userIds: members.get(row.id) ?? [] }));
}

/**
 * The members of a workspace as `GET /api/admin/workspaces/:id/users` answers
 * (docs/api-compat.md#admin-calls).
 */
export async function workspaceMembers(deps: Deps, workspaceId: number) {
  const rows = await deps.db.select({
    userId: users.id,
    username: users.username,
    role: users.role,
    lastUpdatedAt: users.lastUpdatedAt,
  }).from(workspaceUsers).innerJoin(users, eq(users.id, workspaceUsers.userId))
    .where(eq(workspaceUsers.workspaceId, workspaceId)).orderBy(asc(users.username));
  return rows.map((row) => ({ ...row, lastUpdatedAt: row.lastUpdatedAt.toISOString() }));
}

/** Replaces the member list in one transaction; every id must be an existing user. */
export async function setWorkspaceMembers(deps: Deps, actor: Actor, workspaceId: number, userIds: number[]) {
  const workspace = await workspaceById(deps, workspaceId);
  const ids = [...new Set(userIds)];
  if (ids.length > 0) {
    const known = await deps.db.select({ id: users.id }).from(users).where(inArray(users.id, ids));
    const unknown = ids.filter((id) => !known.some((row) => row.id === id));
    if (unknown.length > 0) fail("invalid_input", `Cannot find the user ${unknown.join(", ")}.`);
  }
  await deps.db.transaction(async (tx) => {
    await tx.delete(workspaceUsers).where(eq(workspaceUsers.workspaceId, workspace.id));
    if (ids.length > 0) {
      await tx.insert(workspaceUsers).values(ids.map((userId) => ({ userId, workspaceId: workspace.id })));
    }
  });
  await logEvent(
    deps,
    "workspace_members_updated",
    { workspace: workspace.slug, userIds: ids },
    actor.userId,
  );
}
