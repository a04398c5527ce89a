import { Hono } from "hono";
import { every } from "hono/combine";
import { GenerateApiKeyBody } from "../../shared/api/api_keys.ts";
import type { Deps } from "../deps.ts";
import { logEvent } from "../events/log.ts";
import { requireMultiUser, requirePermission } from "../http/auth_guard.ts";
import { parseJson } from "../http/body.ts";
import type { AppEnv } from "../http/env.ts";
import { idParam } from "../users/routes.ts";
import { deleteApiKey, generateApiKey, listApiKeys } from "./service.ts";

/**
 * The API keys screen's calls, admins only. The reference has two families: `/system/…` for a single-user
 * instance and `/admin/…` (multi-user only) for accounts; here both answer an admin in either mode, except that
 * `/admin/…` keeps the reference's multi-user-only rule.
 */
export function apiKeyRoutes(deps: Deps) {
  const admin = requirePermission("settings:manage");
  const multiUser = requireMultiUser(deps);
  const list = async () => ({ apiKeys: await listApiKeys(deps), error: null });
  const keyBody = (message: string) => ({ apiKey: null, error: message });
  const routes = new Hono<AppEnv>();
  for (const [family, guard] of [["system", admin], ["admin", every(multiUser, admin)]] as const) {
    const deletePath = family === "system" ? "/system/api-key/:id" : "/admin/delete-api-key/:id";
    routes
      .get(`/${family}/api-keys`, guard, async (c) => c.json(await list()))
      .post(`/${family}/generate-api-key`, guard, async (c) => {
        const input = await parseJson(c, GenerateApiKeyBody, keyBody, { bareMessages: true });
        const apiKey = await generateApiKey(deps, c.var.actor, input);
        await logEvent(
          deps,
          "api_key_created",
          { name: apiKey.name, scope: apiKey.scope },
          c.var.actor.userId,
        );
        return c.json({ apiKey, error: null });
      })
      .delete(deletePath, guard, async (c) => {
        await deleteApiKey(deps, idParam(c.req.param("id") ?? "", "API key"));
        await logEvent(deps, "api_key_deleted", {}, c.var.actor.userId);
        return c.json({ success: true, error: null });
      });
  }
  return routes;
}
