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
import { setWorkspaceMembers, workspaceById, workspaceMembers, workspacesWithMembers } from "./members.ts";

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
      await setWorkspaceMembers(deps, c.var.actor, idParam(c.req.param("id"), "workspace"), input.userIds);
      return c.json({ success: true, error: null });
    });
}
