import { and, eq, inArray, sql } from "drizzle-orm";
import { workspaceDocuments, workspaces, workspaceUsers } from "../../db/schema.ts";
import type { Actor } from "../auth/actor.ts";
import type { Deps } from "../deps.ts";
import { AppError, fail } from "../errors.ts";
import { type WorkspaceRole, workspaceRoleReaches } from "../../shared/roles.ts";
import type { WorkspaceRow } from "./present.ts";
import { prepared } from "../../db/prepared.ts";

/** The refusal of a member whose role is below the call's (the permission guard's sentence). */
export const WORKSPACE_ROLE_REFUSAL = "You do not have permission to do that.";

/** Whether the actor keeps an instance-wide reach on every workspace: admins, managers, single-user mode. */
export function reachesEveryWorkspace(actor: Actor): boolean {
  return !actor.multiUser || actor.role === "admin" || actor.role === "manager";
}

/**
 * The actor's role in a workspace, or null when the workspace is not theirs to see. Admins and managers (and
 * the visitor of a single-user instance) act as owners everywhere; a member has the role of their membership;
 * anyone else is a viewer of a workspace visible to all users.
 */
export async function workspaceRoleOf(
  deps: Deps,
  actor: Actor,
  workspace: WorkspaceRow,
): Promise<WorkspaceRole | null> {
  if (reachesEveryWorkspace(actor)) return "owner";
  if (actor.userId === null) return null;
  const [membership] = await deps.db.select({ role: workspaceUsers.role }).from(workspaceUsers).where(
    and(eq(workspaceUsers.workspaceId, workspace.id), eq(workspaceUsers.userId, actor.userId)),
  );
  if (membership) return membership.role;
  return workspace.visibleToAll ? "viewer" : null;
}

/**
 * The answer shape of a refusal: a function of the message, or the body of the 404 (whose "Workspace does not
 * exist." fields become the 403's sentence).
 */
export type ErrorShape = ((message: string) => Record<string, unknown>) | Record<string, unknown>;

function shapeOf(body: ErrorShape | undefined): (message: string) => Record<string, unknown> {
  if (body === undefined) return (message) => ({ success: false, error: message });
  if (typeof body === "function") return body;
  return (message) =>
    Object.fromEntries(
      Object.entries(body).map((
        [key, value],
      ) => [key, value === "Workspace does not exist." ? message : value]),
    );
}

/**
 * The one check of every call that takes a workspace: the workspace by slug when the actor's role in it
 * reaches `least`. A workspace the actor cannot see answers 404 "Workspace does not exist." (as the reference
 * answers for one outside a default user's memberships); a role below `least` answers 403. `body` keeps the
 * answer shape of the calling route (given the message).
 */
export async function requireWorkspaceRole(
  deps: Deps,
  actor: Actor,
  slug: string,
  least: WorkspaceRole,
  body?: ErrorShape,
): Promise<WorkspaceRow> {
  const shape = shapeOf(body);
  const [row] = await prepared(
    deps.db,
    "workspace by slug",
    (db) => db.select().from(workspaces).where(eq(workspaces.slug, sql.placeholder("slug"))).prepare(),
  ).all({ slug });
  const role = row ? await workspaceRoleOf(deps, actor, row) : null;
  if (!row || role === null) {
    return fail("not_found", "Workspace does not exist.", shape("Workspace does not exist."));
  }
  if (!workspaceRoleReaches(role, least)) {
    throw new AppError("forbidden", WORKSPACE_ROLE_REFUSAL, { body: shape(WORKSPACE_ROLE_REFUSAL) });
  }
  return row;
}

/** The refusal of an editor adding a document that another workspace, hidden from them, holds. */
export const HIDDEN_DOCUMENT_REFUSAL = "You cannot add a document that a workspace you cannot see holds.";

/**
 * An editor who is not an admin or manager adds from the library only what they may read: a document in no
 * workspace (such as the one they just uploaded) or in workspaces they see, never one kept in a private
 * workspace of others.
 */
export async function requireReadableDocuments(
  deps: Deps,
  actor: Actor,
  docpaths: string[],
  body?: ErrorShape,
): Promise<void> {
  if (reachesEveryWorkspace(actor) || docpaths.length === 0) return;
  const holders = await deps.db.selectDistinct({ workspace: workspaces }).from(workspaceDocuments)
    .innerJoin(workspaces, eq(workspaces.id, workspaceDocuments.workspaceId))
    .where(inArray(workspaceDocuments.docpath, [...new Set(docpaths)]));
  for (const { workspace } of holders) {
    if (await workspaceRoleOf(deps, actor, workspace) === null) {
      throw new AppError("forbidden", HIDDEN_DOCUMENT_REFUSAL, {
        body: shapeOf(body)(HIDDEN_DOCUMENT_REFUSAL),
      });
    }
  }
}
