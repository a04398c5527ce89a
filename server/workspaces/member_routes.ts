import { Hono } from "hono";
import { z } from "zod";
import type { Deps } from "../deps.ts";
import type { AppEnv } from "../http/env.ts";
import { parseJson } from "../http/body.ts";
import { idParam } from "../users/routes.ts";
import { setWorkspaceMembers, workspaceById, workspaceMembers } from "./members.ts";

const UpdateMembers = z.object({ userIds: z.array(z.number().int().positive()).max(10_000) });

/** Workspace membership under /api/admin (admins and managers). */
export function memberAdminRoutes(deps: Deps) {
  return new Hono<AppEnv>()
    .get("/admin/workspaces/:id/users", async (c) => {
      const workspace = await workspaceById(deps, idParam(c.req.param("id"), "workspace"));
      return c.json({ users: await workspaceMembers(deps, workspace.id) });
    })
    .post("/admin/workspaces/:id/update-users", async (c) => {
      const input = await parseJson(c, UpdateMembers);
      await setWorkspaceMembers(deps, c.var.actor, idParam(c.req.param("id"), "workspace"), input.userIds);
      return c.json({ success: true, error: null });
    });
}
