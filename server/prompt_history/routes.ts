import { Hono } from "hono";
import type { Deps } from "../deps.ts";
import type { AppEnv } from "../http/env.ts";
import { fail } from "../errors.ts";
import { workspaceRoleReaches } from "../../shared/roles.ts";
import { idParam } from "../users/routes.ts";
import { requireWorkspace } from "../workspaces/service.ts";
import { requireWorkspaceRole, WORKSPACE_ROLE_REFUSAL, workspaceRoleOf } from "../workspaces/access.ts";
import {
  clearPromptHistory,
  deletePromptHistoryEntry,
  promptHistory,
  promptHistoryWorkspace,
} from "./service.ts";

/** A workspace's earlier system prompts: read by its members, cleared by its editors. */
export function promptHistoryRoutes(deps: Deps) {
  return new Hono<AppEnv>()
    .get("/workspace/:slug/prompt-history", async (c) => {
      const workspace = await requireWorkspace(deps, c.var.actor, c.req.param("slug"), {
        history: [],
        error: "Workspace does not exist.",
      });
      return c.json({ history: await promptHistory(deps, workspace) });
    })
    .delete("/workspace/:slug/prompt-history", async (c) => {
      const workspace = await requireWorkspaceRole(deps, c.var.actor, c.req.param("slug"), "editor");
      await clearPromptHistory(deps, workspace);
      return c.json({ success: true });
    })
    .delete("/workspace/prompt-history/:id", async (c) => {
      const id = idParam(c.req.param("id"), "prompt history entry");
      // The entry's workspace decides: its editors (and admins and managers) delete; others do not see it.
      const workspace = await promptHistoryWorkspace(deps, id);
      const role = workspace ? await workspaceRoleOf(deps, c.var.actor, workspace) : null;
      if (!workspaceRoleReaches(role, "editor")) {
        if (role === null) fail("not_found", "That prompt history entry does not exist.");
        fail("forbidden", WORKSPACE_ROLE_REFUSAL);
      }
      await deletePromptHistoryEntry(deps, id);
      return c.json({ success: true });
    });
}
