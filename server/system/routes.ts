import { Hono } from "hono";
import type { Deps } from "../deps.ts";
import type { AppEnv } from "../http/env.ts";
import { readJson } from "../http/body.ts";
import { optionalActor, requirePermission } from "../http/auth_guard.ts";
import { ACCEPTED_DOCUMENT_TYPES } from "../../shared/api/documents.ts";

/** Calls that need no login (spec 01 §7.1). */
export function publicSystemRoutes(deps: Deps) {
  return new Hono<AppEnv>()
    .get("/ping", (c) => c.json({ online: true }))
    .get("/setup-complete", async (c) => {
      // Before login only what the login and onboarding screens need; all of it for an admin (decisions.md).
      const actor = await optionalActor(deps, c.req.header("Authorization"));
      const full = actor?.role === "admin";
      return c.json({
        results: deps.settings.setupResults({ full, requiresAuth: deps.settings.requiresAuth }),
      });
    });
}

/** Settings calls behind the auth guard (spec 02 §7). */
export function systemRoutes(deps: Deps) {
  const settingsError = (message: string) => ({ newValues: {}, error: message });
  return new Hono<AppEnv>()
    .post("/system/update-env", requirePermission("settings:manage", settingsError), async (c) => {
      const body = await readJson(c, settingsError);
      const { newValues } = await deps.settings.update(body);
      deps.log.info("Settings updated", { keys: Object.keys(newValues).join(",") || "none" });
      return c.json({ newValues, error: false });
    })
    .get("/system/accepted-document-types", (c) => c.json({ types: ACCEPTED_DOCUMENT_TYPES }));
}
