import { Hono } from "hono";
import type { AppEnv } from "../http/env.ts";
import { requirePermission } from "../http/auth_guard.ts";

export const HUB_NOT_CONNECTED =
  "Lectern does not connect to the AnythingLLM Community Hub: its items cannot be browsed, imported or " +
  "published from here.";

const emptyShelf = () => ({ items: [], hasMore: false, totalCount: 0 });

/**
 * The Community Hub calls of the reference's web client (admins only, as there), answered as a hub that is not
 * connected: no connection key, nothing to explore, nothing of the caller's; importing, publishing and saving a
 * key are refused (501) with a sentence the client shows.
 */
export function communityHubRoutes() {
  const refuse = { success: false, error: HUB_NOT_CONNECTED, item: null };
  const admin = requirePermission("settings:manage");
  const hub = new Hono<AppEnv>()
    .use("/community-hub/*", admin)
    .get("/community-hub/settings", (c) => c.json({ success: true, connectionKey: null }))
    .get("/community-hub/explore", (c) =>
      c.json({
        success: true,
        result: { agentSkills: emptyShelf(), systemPrompts: emptyShelf(), slashCommands: emptyShelf() },
      }))
    .get("/community-hub/items", (c) => c.json({ success: true, createdByMe: {}, teamItems: [] }));
  for (
    const path of [
      "/community-hub/settings",
      "/community-hub/item",
      "/community-hub/apply",
      "/community-hub/import",
      "/community-hub/system-prompt/create",
      "/community-hub/agent-flow/create",
      "/community-hub/slash-command/create",
    ]
  ) {
    hub.post(path, (c) => c.json(refuse, 501));
  }
  return hub;
}
