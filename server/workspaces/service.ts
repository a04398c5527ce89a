import { and, asc, eq } from "drizzle-orm";
import { workspaceDocuments, workspaces, workspaceUsers } from "../../db/schema.ts";
import type { Deps } from "../deps.ts";
import type { Actor } from "../auth/actor.ts";
import type { WorkspaceDetail } from "../../shared/api/workspaces.ts";
import { fail } from "../errors.ts";
import { contextWindowFromSettings } from "../providers/llm/registry.ts";
import { presentWorkspace, presentWorkspaceDocument, type WorkspaceRow } from "./present.ts";
import { workspaceSlug } from "./slug.ts";
import { instanceDefaultPrompt } from "../system/default_prompt.ts";

/** Whether the actor may see a workspace: admins and managers see all, a default user its memberships. */
export async function canSeeWorkspace(deps: Deps, actor: Actor, workspace: WorkspaceRow): Promise<boolean> {
  if (actor.role === "admin" || actor.role === "manager") return true;
  if (actor.userId === null) return false;
  const rows = await deps.db.select({ id: workspaceUsers.id }).from(workspaceUsers).where(
    and(eq(workspaceUsers.workspaceId, workspace.id), eq(workspaceUsers.userId, actor.userId)),
  );
  return rows.length > 0;
}

export async function listWorkspaces(deps: Deps, actor: Actor): Promise<WorkspaceRow[]> {
  if (actor.role === "admin" || actor.role === "manager") {
    return await deps.db.select().from(workspaces).orderBy(asc(workspaces.name), asc(workspaces.id));
  }
  if (actor.userId === null) return [];
  const rows = await deps.db.select({ workspace: workspaces }).from(workspaces)
    .innerJoin(workspaceUsers, eq(workspaceUsers.workspaceId, workspaces.id))
    .where(eq(workspaceUsers.userId, actor.userId))
    .orderBy(asc(workspaces.name), asc(workspaces.id));
  return rows.map((row) => row.workspace);
}

export async function findWorkspace(deps: Deps, actor: Actor, slug: string): Promise<WorkspaceRow | null> {
  const [row] = await deps.db.select().from(workspaces).where(eq(workspaces.slug, slug));
  return row && await canSeeWorkspace(deps, actor, row) ? row : null;
}

/** The workspace or a 404; `body` keeps the answer shape of the calling route. */
export async function requireWorkspace(
  deps: Deps,
  actor: Actor,
  slug: string,
  body?: Record<string, unknown>,
): Promise<WorkspaceRow> {
  return await findWorkspace(deps, actor, slug) ??
    fail(
      "not_found",
      "Workspace does not exist.",
      body ?? { success: false, error: "Workspace does not exist." },
    );
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
      await tx.insert(workspaceUsers).values({ workspaceId: row.id, userId: actor.userId });
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
