import { Hono } from "hono";
import type { Deps } from "../deps.ts";
import type { AppEnv } from "../http/env.ts";
import { readJson } from "../http/body.ts";
import { requirePermission } from "../http/auth_guard.ts";
import { fail } from "../errors.ts";
import { LABELS, type SettingsService } from "../settings/service.ts";
import { DEFAULT_SYSTEM_PROMPT } from "../../shared/api/workspaces.ts";

/** As long as a workspace's own prompt may be. */
const MAX_PROMPT = 20_000;

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
      const body = await readJson(c, errorBody) as { defaultSystemPrompt?: unknown } | null;
      const given = body?.defaultSystemPrompt;
      if (given !== undefined && given !== null && typeof given !== "string") {
        fail(
          "invalid_input",
          "defaultSystemPrompt must be text.",
          errorBody("defaultSystemPrompt must be text."),
        );
      }
      const prompt = typeof given === "string" ? given.trim() : "";
      if (prompt.length > MAX_PROMPT) {
        const message = `The default system prompt must be at most ${MAX_PROMPT} characters.`;
        fail("invalid_input", message, errorBody(message));
      }
      const stored = prompt === "" || prompt === DEFAULT_SYSTEM_PROMPT ? null : prompt;
      await deps.settings.setLabels({ [LABELS.defaultSystemPrompt]: stored });
      deps.log.info("Default system prompt updated", { builtIn: stored === null });
      return c.json({ success: true, message: "Default system prompt updated successfully." });
    });
}
