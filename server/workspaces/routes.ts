import { Hono } from "hono";
import type { Deps } from "../deps.ts";
import type { AppEnv } from "../http/env.ts";
import { parseJson } from "../http/body.ts";
import { requirePermission } from "../http/auth_guard.ts";
import { CreateWorkspaceInput } from "../../shared/api/workspaces.ts";
import { presentWorkspace } from "./present.ts";
import { createWorkspace, findWorkspace, listWorkspaces, workspaceDetail } from "./service.ts";

/** Workspace calls (spec 01 §7.2, api-contract.md §5.2). */
export function workspaceRoutes(deps: Deps) {
  return new Hono<AppEnv>()
    .get("/workspaces", async (c) => {
      const rows = await listWorkspaces(deps, c.var.actor);
      return c.json({ workspaces: rows.map(presentWorkspace) });
    })
    .post(
      "/workspace/new",
      requirePermission("workspace:create", (message) => ({ workspace: null, message })),
      async (c) => {
        const input = await parseJson(c, CreateWorkspaceInput, (message) => ({ workspace: null, message }), {
          bareMessages: true,
        });
        const row = await createWorkspace(deps, c.var.actor, input.name);
        deps.log.info("Workspace created", { slug: row.slug });
        return c.json({ workspace: presentWorkspace(row), message: null });
      },
    )
    .get("/workspace/:slug", async (c) => {
      const row = await findWorkspace(deps, c.var.actor, c.req.param("slug"));
      if (!row) return c.json({ workspace: null }, 404);
      return c.json({ workspace: await workspaceDetail(deps, row) });
    });
}
