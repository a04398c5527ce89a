import { asc, eq, inArray, or } from "drizzle-orm";
import { workspaceDocuments, workspaces, workspaceUsers } from "../../db/schema.ts";
import type { Deps } from "../deps.ts";
import type { Actor } from "../auth/actor.ts";
import type { WorkspaceDetail } from "../../shared/api/workspaces.ts";
import { fail } from "../errors.ts";
import { contextWindowFromSettings } from "../providers/llm/registry.ts";
import { presentWorkspace, presentWorkspaceDocument, type WorkspaceRow } from "./present.ts";
import { workspaceSlug } from "./slug.ts";
import { type ErrorShape, reachesEveryWorkspace, requireWorkspaceRole, workspaceRoleOf } from "./access.ts";
import { instanceDefaultPrompt } from "../system/default_prompt.ts";

/**
 * Whether the actor may see a workspace: admins and managers see all, a default user its memberships and the
 * workspaces visible to all users (server/workspaces/access.ts).
 */
export async function canSeeWorkspace(deps: Deps, actor: Actor, workspace: WorkspaceRow): Promise<boolean> {
  return await workspaceRoleOf(deps, actor, workspace) !== null;
}

export async function listWorkspaces(deps: Deps, actor: Actor): Promise<WorkspaceRow[]> {
  if (reachesEveryWorkspace(actor)) {
    return await deps.db.select().from(workspaces).orderBy(asc(workspaces.name), asc(workspaces.id));
  }
  if (actor.userId === null) return [];
  const member = deps.db.select({ id: workspaceUsers.workspaceId }).from(workspaceUsers)
    .where(eq(workspaceUsers.userId, actor.userId));
  return await deps.db.select().from(workspaces)
    .where(or(eq(workspaces.visibleToAll, true), inArray(workspaces.id, member)))
    .orderBy(asc(workspaces.name), asc(workspaces.id));
}

export async function findWorkspace(deps: Deps, actor: Actor, slug: string): Promise<WorkspaceRow | null> {
  const [row] = await deps.db.select().from(workspaces).where(eq(workspaces.slug, slug));
  return row && await canSeeWorkspace(deps, actor, row) ? row : null;
}

/**
 * The workspace or a 404, for any role in it (a viewer's reach); `body` keeps the answer shape of the calling
 * route. Calls that need more use `requireWorkspaceRole` (access.ts) with their role.
 */
export async function requireWorkspace(
  deps: Deps,
  actor: Actor,
  slug: string,
  body?: ErrorShape,
): Promise<WorkspaceRow> {
  return await requireWorkspaceRole(deps, actor, slug, "viewer", body);
}

async function slugIsFree(deps: Deps, slug: string): Promise<boolean> {
  const rows = await deps.db.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.slug, slug));
  return rows.length === 0;
}

/**
 * Creates a workspace with the instance's default system prompt; in multi-user mode its creator becomes a
 * member.
 */
export async function createWorkspace(deps: Deps, actor: Actor, name: string): Promise<WorkspaceRow> {
  let slug = workspaceSlug(name);
  for (let attempt = 0; !(await slugIsFree(deps, slug)); attempt++) {
    if (attempt >= 20) fail("conflict", `Cannot find a free slug for the workspace name "${name}".`);
    slug = workspaceSlug(`${name}-${Math.floor(10_000_000 + Math.random() * 90_000_000)}`);
  }
  const openAiPrompt = instanceDefaultPrompt(deps.settings);
  return await deps.db.transaction(async (tx) => {
    const [row] = await tx.insert(workspaces).values({ name, slug, openAiPrompt }).returning();
    if (actor.multiUser && actor.userId !== null) {
      await tx.insert(workspaceUsers).values({ workspaceId: row.id, userId: actor.userId, role: "owner" });
    }
    return row;
  });
}

export async function workspaceDocumentsOf(deps: Deps, workspaceId: number) {
  return await deps.db.select().from(workspaceDocuments).where(
    eq(workspaceDocuments.workspaceId, workspaceId),
  )
    .orderBy(asc(workspaceDocuments.id));
}

/** The workspace with its documents and context figures, as `GET /api/workspace/:slug` answers. */
export async function workspaceDetail(deps: Deps, row: WorkspaceRow): Promise<WorkspaceDetail> {
  const documents = await workspaceDocumentsOf(deps, row.id);
  return {
    ...presentWorkspace(row),
    documents: documents.map(presentWorkspaceDocument),
    contextWindow: contextWindowFromSettings(deps.settings),
    currentContextTokenCount: 0,
  };
}
