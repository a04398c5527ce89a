import { Hono } from "hono";
import type { Deps } from "../deps.ts";
import type { AppEnv } from "../http/env.ts";
import { parseJson } from "../http/body.ts";
import { requirePermission } from "../http/auth_guard.ts";
import { logSettingsChanged } from "../events/log.ts";
import { LABELS, type SettingsService } from "../settings/service.ts";
import { DEFAULT_SYSTEM_PROMPT } from "../../shared/api/workspaces.ts";
import { DefaultPromptInput } from "../../shared/api/system.ts";

/** The instance's default system prompt: the admin's, else the built-in one. */
export function instanceDefaultPrompt(settings: SettingsService): string {
  return settings.label(LABELS.defaultSystemPrompt) || DEFAULT_SYSTEM_PROMPT;
}

/**
 * `GET|POST /api/system/default-system-prompt`: the prompt new workspaces start with and
 * workspaces without their own prompt use. An empty prompt, or the built-in text, goes back to the built-in.
 */
export function defaultPromptRoutes(deps: Deps) {
  const errorBody = (message: string) => ({ success: false, message, error: message });
  return new Hono<AppEnv>()
    .get("/system/default-system-prompt", (c) =>
      c.json({
        success: true,
        defaultSystemPrompt: instanceDefaultPrompt(deps.settings),
        saneDefaultSystemPrompt: DEFAULT_SYSTEM_PROMPT,
      }))
    .post("/system/default-system-prompt", requirePermission("settings:manage", errorBody), async (c) => {
      const { defaultSystemPrompt: prompt } = await parseJson(c, DefaultPromptInput, errorBody, {
        bareMessages: true,
      });
      const stored = prompt === "" || prompt === DEFAULT_SYSTEM_PROMPT ? null : prompt;
      const changed = await deps.settings.setLabels({ [LABELS.defaultSystemPrompt]: stored });
      await logSettingsChanged(deps, changed, c.var.actor.userId);
      deps.log.info("Default system prompt updated", { builtIn: stored === null });
      return c.json({ success: true, message: "Default system prompt updated successfully." });
    });
}
