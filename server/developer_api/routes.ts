import { Hono } from "hono";
import * as z from "zod";
import { ApiKeyLookup } from "../api_keys/service.ts";
import type { Deps } from "../deps.ts";
import type { AppEnv } from "../http/env.ts";
import { needs } from "./access.ts";
import { apiKeyGuard, KeyRateLimits } from "./guard.ts";
import { V1Router } from "./router.ts";
import { workspaceRoutesV1 } from "./workspaces.ts";
import { threadRoutesV1 } from "./threads.ts";
import { chatRoutesV1 } from "./chat.ts";
import { openAiRoutesV1 } from "./openai.ts";
import { documentRoutesV1 } from "./documents.ts";
import { systemRoutesV1 } from "./system.ts";
import { adminRoutesV1 } from "./admin.ts";

/** Every route of the developer API, declared on one router (the route table and the docs read it). */
export function developerApi(deps: Deps): V1Router {
  const router = new V1Router(deps);
  router.get("/auth", needs.any, {
    summary: "Check an API key",
    description: "Answers `{authenticated: true}` when the key is valid.",
    tag: "Authentication",
    response: z.object({ authenticated: z.literal(true) }),
  }, (c) => c.json({ authenticated: true }));
  workspaceRoutesV1(router, deps);
  threadRoutesV1(router, deps);
  chatRoutesV1(router, deps);
  openAiRoutesV1(router, deps);
  documentRoutesV1(router, deps);
  systemRoutesV1(router, deps);
  adminRoutesV1(router, deps);
  return router;
}

/** `/api/v1/*`: the developer API, guarded by API keys (not sessions), mounted before the UI's auth guard. */
export function developerApiRoutes(deps: Deps, router = developerApi(deps)) {
  const guard = apiKeyGuard({
    lookup: new ApiKeyLookup(deps),
    limits: new KeyRateLimits(),
    settings: deps.settings,
  });
  return new Hono<AppEnv>().use("/v1", guard).use("/v1/*", guard).route("/v1", router.app)
    .all("/v1/*", (c) => c.json({ error: `Cannot find the API route ${c.req.method} ${c.req.path}.` }, 404));
}
