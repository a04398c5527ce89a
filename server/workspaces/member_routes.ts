import { Hono } from "hono";
import type { Deps } from "../deps.ts";
import type { AppEnv } from "../http/env.ts";
import { parseJson } from "../http/body.ts";
import { logEvent } from "../events/log.ts";
import { idParam } from "../users/routes.ts";
import { CreateWorkspaceInput } from "../../shared/api/workspaces.ts";
import { UpdateMembersInput } from "../../shared/api/admin.ts";
import { presentWorkspace } from "./present.ts";
import { createWorkspace } from "./service.ts";
import { checkDeletionAllowed, deleteWorkspace } from "./manage.ts";
import {
  isOwner,
  OWN_OWNERSHIP_REFUSAL,
  ownerMemberView,
  rolesOf,
  setWorkspaceMembers,
  workspaceById,
  workspaceMembers,
  workspacesWithMembers,
} from "./members.ts";
import { OwnerMembersInput } from "../../shared/api/admin.ts";
import { reachesEveryWorkspace, requireWorkspaceRole, workspaceRoleOf } from "./access.ts";
import { fail } from "../errors.ts";
import { requireMultiUser } from "../http/auth_guard.ts";

/**
 * Workspaces and their members under /api/admin (multi-user mode, admins and managers;
 * docs/api-compat.md#admin-calls).
 */
export function memberAdminRoutes(deps: Deps) {
  const newWorkspaceBody = (message: string) => ({ workspace: null, error: message });
  return new Hono<AppEnv>()
    .get("/admin/workspaces", async (c) => c.json({ workspaces: await workspacesWithMembers(deps) }))
    .post("/admin/workspaces/new", async (c) => {
      const input = await parseJson(c, CreateWorkspaceInput, newWorkspaceBody, { bareMessages: true });
      const row = await createWorkspace(deps, c.var.actor, input.name);
      deps.log.info("Workspace created", { slug: row.slug });
      await logEvent(deps, "workspace_created", { workspaceName: row.name }, c.var.actor.userId);
      return c.json({ workspace: presentWorkspace(row), error: null });
    })
    .delete("/admin/workspaces/:id", async (c) => {
      const workspace = await workspaceById(deps, idParam(c.req.param("id"), "workspace"));
      checkDeletionAllowed(deps, c.var.actor, workspace, c.req.query("confirm"));
      await deleteWorkspace(deps, workspace);
      deps.log.info("Workspace deleted", { slug: workspace.slug });
      await logEvent(deps, "workspace_deleted", { workspaceName: workspace.name }, c.var.actor.userId);
      return c.json({ success: true, error: null });
    })
    .get("/admin/workspaces/:id/users", async (c) => {
      const workspace = await workspaceById(deps, idParam(c.req.param("id"), "workspace"));
      return c.json({ users: await workspaceMembers(deps, workspace.id) });
    })
    .post("/admin/workspaces/:id/update-users", async (c) => {
      const input = await parseJson(c, UpdateMembersInput);
      await setWorkspaceMembers(deps, c.var.actor, idParam(c.req.param("id"), "workspace"), input.userIds, {
        roles: rolesOf(input.roles),
        visibleToAll: input.visibleToAll,
      });
      return c.json({ success: true, error: null });
    });
}

/**
 * Lectern's calls for a workspace's owners (and admins and managers): its members with their roles and its
 * visibility (docs/api-compat.md#workspace-roles); and every member's own role, for the screens.
 */
export function workspaceMemberRoutes(deps: Deps) {
  const multiUser = requireMultiUser(deps);
  return new Hono<AppEnv>()
    .get("/workspace/:slug/my-role", async (c) => {
      const workspace = await requireWorkspaceRole(deps, c.var.actor, c.req.param("slug"), "viewer");
      return c.json({ role: await workspaceRoleOf(deps, c.var.actor, workspace) });
    })
    .get("/workspace/:slug/members", multiUser, async (c) => {
      const workspace = await requireWorkspaceRole(deps, c.var.actor, c.req.param("slug"), "owner");
      return c.json(await ownerMemberView(deps, workspace));
    })
    .post("/workspace/:slug/members", multiUser, async (c) => {
      const actor = c.var.actor;
      const workspace = await requireWorkspaceRole(deps, actor, c.req.param("slug"), "owner");
      const input = await parseJson(c, OwnerMembersInput);
      const roles = new Map(input.members.map((member) => [member.userId, member.role]));
      // An owner who is only an owner here cannot lock themselves out; an admin or manager can always return.
      if (!reachesEveryWorkspace(actor) && actor.userId !== null && roles.get(actor.userId) !== "owner") {
        if (await isOwner(deps, workspace.id, actor.userId)) fail("invalid_input", OWN_OWNERSHIP_REFUSAL);
      }
      await setWorkspaceMembers(deps, actor, workspace.id, [...roles.keys()], {
        roles,
        visibleToAll: input.visibleToAll,
      });
      return c.json({
        success: true,
        error: null,
        ...(await ownerMemberView(deps, await workspaceById(deps, workspace.id))),
      });
    });
}
