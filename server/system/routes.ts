import { Hono } from "hono";
import type { Deps } from "../deps.ts";
import type { AppEnv } from "../http/env.ts";
import { parseJson } from "../http/body.ts";
import { ModelLookupInput, SettingsChanges } from "../../shared/api/system.ts";
import { lookupModels } from "../providers/llm/models.ts";
import { keepSurvey, SurveyInput } from "./survey.ts";
import { optionalActor, requirePermission } from "../http/auth_guard.ts";
import { actorDeps } from "../auth/actor_deps.ts";
import { ACCEPTED_DOCUMENT_TYPES } from "../../shared/api/documents.ts";
import { LABELS } from "../settings/service.ts";
import { nativeEmbedderModels } from "../embedding/native_models.ts";
import { metrics, setupFacts } from "./status.ts";
import { logSettingsChanged } from "../events/log.ts";

/** Calls that need no login (/api/ping is server/app.ts's own, answered without loading these). */
export function publicSystemRoutes(deps: Deps) {
  return new Hono<AppEnv>()
    // The settings sidebar shows the version from here, before it has a token.
    .get("/utils/metrics", async (c) => c.json(await metrics(deps)))
    // The branding calls (app name, support email, footer, logo) are in server/appearance/routes.ts.
    .get(
      "/onboarding",
      (c) => c.json({ onboardingComplete: deps.settings.label(LABELS.onboardingComplete) === "true" }),
    )
    .get("/setup-complete", async (c) => {
      // Before login only what the login and onboarding screens need; all of it (secrets as booleans) for the
      // admins and managers who may open the settings pages.
      const actor = await optionalActor(actorDeps(deps), c.req.header("Authorization"));
      const full = actor?.role === "admin" || actor?.role === "manager";
      const results = deps.settings.setupResults({
        full,
        requiresAuth: deps.settings.requiresAuth,
        simpleSso: deps.config.simpleSso,
        workspaceDeletionProtection: deps.config.workspaceDeletionProtection,
      });
      return c.json({ results: full ? { ...results, ...await setupFacts(deps) } : results });
    });
}

const settingsModelsError = (message: string) => ({ models: [], error: message });

/** Settings calls behind the auth guard. */
export function systemRoutes(deps: Deps) {
  const settingsError = (message: string) => ({ newValues: {}, error: message });
  return new Hono<AppEnv>()
    .post("/system/update-env", requirePermission("settings:manage", settingsError), async (c) => {
      const changes = await parseJson(c, SettingsChanges, settingsError, { bareMessages: true });
      const { newValues, changed } = await deps.settings.update(changes);
      deps.log.info("Settings updated", { keys: Object.keys(newValues).join(",") || "none" });
      await logSettingsChanged(deps, changed, c.var.actor.userId);
      return c.json({ newValues, error: false });
    })
    .get("/system/accepted-document-types", (c) => c.json({ types: ACCEPTED_DOCUMENT_TYPES }))
    .post("/system/custom-models", requirePermission("settings:manage", settingsModelsError), async (c) => {
      const input = await parseJson(c, ModelLookupInput, settingsModelsError);
      if (input.provider === "native-embedder") {
        return c.json({ models: nativeEmbedderModels(), error: null });
      }
      // A client that gives up (auto-detect waits 2 s per endpoint) ends the server's own request too.
      const models = await lookupModels(deps.settings, input, deps.providerDeps, c.req.raw.signal);
      return c.json({ models, error: null });
    })
    .post("/onboarding", requirePermission("settings:manage"), async (c) => {
      await deps.settings.setLabels({ [LABELS.onboardingComplete]: "true" });
      return c.json({ success: true, error: null });
    })
    .post("/onboarding/survey", requirePermission("settings:manage"), async (c) => {
      const input = await parseJson(c, SurveyInput);
      return c.json({ success: true, error: null, sent: await keepSurvey(deps, input) });
    });
}
