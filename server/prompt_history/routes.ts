import { Hono } from "hono";
import type { Deps } from "../deps.ts";
import type { AppEnv } from "../http/env.ts";
import { requirePermission } from "../http/auth_guard.ts";
import { idParam } from "../users/routes.ts";
import { requireWorkspace } from "../workspaces/service.ts";
import { clearPromptHistory, deletePromptHistoryEntry, promptHistory } from "./service.ts";

/** A workspace's earlier system prompts: read by its members, cleared by managers. */
export function promptHistoryRoutes(deps: Deps) {
  const manage = requirePermission("workspace:manage");
  return new Hono<AppEnv>()
    .get("/workspace/:slug/prompt-history", async (c) => {
      const workspace = await requireWorkspace(deps, c.var.actor, c.req.param("slug"), {
        history: [],
        error: "Workspace does not exist.",
      });
      return c.json({ history: await promptHistory(deps, workspace) });
    })
    .delete("/workspace/:slug/prompt-history", manage, async (c) => {
      const workspace = await requireWorkspace(deps, c.var.actor, c.req.param("slug"));
      await clearPromptHistory(deps, workspace);
      return c.json({ success: true });
    })
    .delete("/workspace/prompt-history/:id", manage, async (c) => {
      await deletePromptHistoryEntry(deps, idParam(c.req.param("id"), "prompt history entry"));
      return c.json({ success: true });
    });
}
