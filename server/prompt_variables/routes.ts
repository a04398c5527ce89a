import { Hono } from "hono";
import type { Deps } from "../deps.ts";
import type { AppEnv } from "../http/env.ts";
import { parseJson } from "../http/body.ts";
import { PromptVariableInput } from "../../shared/api/prompt_variables.ts";
import { requirePermission } from "../http/auth_guard.ts";
import { idParam } from "../users/routes.ts";
import { createVariable, deleteVariable, listVariables, updateVariable } from "./service.ts";

/**
 * System prompt variables: anyone signed in lists them, admins create, change and delete
 * the stored ones. Refusals answer `{success:false, error}`.
 */
export function promptVariableRoutes(deps: Deps) {
  const admin = requirePermission("settings:manage");
  return new Hono<AppEnv>()
    .get(
      "/system/prompt-variables",
      async (c) => c.json({ variables: await listVariables(deps, c.var.actor) }),
    )
    .post("/system/prompt-variables", admin, async (c) => {
      const input = await parseJson(c, PromptVariableInput, undefined, { bareMessages: true });
      const variable = await createVariable(deps, c.var.actor, input);
      deps.log.info("Prompt variable created", { key: variable.key });
      return c.json({ success: true, variable });
    })
    .put("/system/prompt-variables/:id", admin, async (c) => {
      const id = idParam(c.req.param("id"), "variable");
      const input = await parseJson(c, PromptVariableInput, undefined, { bareMessages: true });
      const variable = await updateVariable(deps, id, input);
      if (!variable) return c.json({ success: false, error: "Variable not found" }, 404);
      return c.json({ success: true, variable });
    })
    .delete("/system/prompt-variables/:id", admin, async (c) => {
      const id = idParam(c.req.param("id"), "variable");
      if (!await deleteVariable(deps, id)) {
        return c.json(
          { success: false, error: "System prompt variable not found or could not be deleted" },
          404,
        );
      }
      return c.json({ success: true });
    });
}
