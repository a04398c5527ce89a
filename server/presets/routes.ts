import { Hono } from "hono";
import type { Deps } from "../deps.ts";
import type { AppEnv } from "../http/env.ts";
import { parseJson } from "../http/body.ts";
import { PresetInput } from "../../shared/api/presets.ts";
import { idParam } from "../users/routes.ts";
import { withErrorBody } from "../errors.ts";
import { createPreset, deletePreset, listPresets, updatePreset } from "./service.ts";

/** A refusal carries its sentence as `message` too: the reference's web client shows that field. */
const refusal = (message: string) => ({ success: false, error: message, message });

/** Slash command presets of the caller. */
export function presetRoutes(deps: Deps) {
  return new Hono<AppEnv>()
    .get(
      "/system/slash-command-presets",
      async (c) => c.json({ presets: await listPresets(deps, c.var.actor) }),
    )
    .post("/system/slash-command-presets", (c) =>
      withErrorBody(refusal, async () => {
        const input = await parseJson(c, PresetInput, refusal);
        return c.json({ preset: await createPreset(deps, c.var.actor, input) }, 201);
      }))
    .post("/system/slash-command-presets/:id", (c) =>
      withErrorBody(refusal, async () => {
        const input = await parseJson(c, PresetInput, refusal);
        return c.json({
          preset: await updatePreset(deps, c.var.actor, idParam(c.req.param("id"), "preset"), input),
        });
      }))
    .delete("/system/slash-command-presets/:id", async (c) => {
      await deletePreset(deps, c.var.actor, idParam(c.req.param("id"), "preset"));
      return c.body(null, 204);
    });
}
