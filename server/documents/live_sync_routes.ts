import { Hono } from "hono";
import type { Deps } from "../deps.ts";
import type { AppEnv } from "../http/env.ts";
import { parseJson } from "../http/body.ts";
import { requirePermission } from "../http/auth_guard.ts";
import { fail } from "../errors.ts";
import { logSettingsChanged } from "../events/log.ts";
import { ToggleLiveSyncInput } from "../../shared/api/live_sync.ts";
import { listQueues, stopWatching } from "./live_sync_queues.ts";

function queueIdOf(text: string): number {
  const id = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(id) || id < 1) {
    fail("invalid_input", `"${text}" is not a sync queue id.`);
  }
  return id;
}

/**
 * Live document sync, a beta feature (setting `experimental_live_file_sync`): the
 * switch, the watched documents with their latest runs, and per queue a sync now and an end of the watch.
 * Admins and managers only.
 */
export function liveSyncRoutes(deps: Deps) {
  const manage = requirePermission("documents:manage");
  const status = () => ({ enabled: deps.liveSync.enabled, intervalMs: deps.liveSync.interval });
  return new Hono<AppEnv>()
    .get("/experimental/live-sync", manage, (c) => c.json(status()))
    .post("/experimental/toggle-live-sync", manage, async (c) => {
      const input = await parseJson(c, ToggleLiveSyncInput, undefined, { bareMessages: true });
      const changed = await deps.liveSync.setEnabled(input.updatedStatus);
      await logSettingsChanged(deps, changed, c.var.actor.userId);
      return c.json({ success: true, error: null });
    })
    .get("/experimental/live-sync/queues", manage, async (c) => c.json({ queues: await listQueues(deps) }))
    .post("/experimental/live-sync/queues/:id/sync-now", manage, async (c) => {
      const id = queueIdOf(c.req.param("id"));
      if (!deps.liveSync.enabled) {
        fail("conflict", "Live document sync is turned off. Turn it on under Experimental Features first.");
      }
      const outcome = await deps.liveSync.syncQueue(id);
      const [queue] = outcome.unwatched ? [] : await listQueues(deps, id);
      return c.json({ success: true, error: null, execution: outcome.execution, queue: queue ?? null });
    })
    .delete("/experimental/live-sync/queues/:id", manage, async (c) => {
      const id = queueIdOf(c.req.param("id"));
      if (!(await stopWatching(deps, id))) fail("not_found", `Cannot find the sync queue ${id}.`);
      return c.json({ success: true, error: null });
    });
}
