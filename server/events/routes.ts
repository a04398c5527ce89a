import { Hono } from "hono";
import type { Deps } from "../deps.ts";
import type { AppEnv } from "../http/env.ts";
import { parseJson } from "../http/body.ts";
import { requirePermission } from "../http/auth_guard.ts";
import { fail } from "../errors.ts";
import {
  EVENT_LOG_EXPORT_TYPES,
  type EventLogExportType,
  EventLogsInput,
} from "../../shared/api/event_logs.ts";
import { logEvent } from "./log.ts";
import { clearEventLogs, eventLogsPage, exportStream } from "./service.ts";

const CONTENT_TYPES: Record<EventLogExportType, string> = {
  csv: "text/csv; charset=utf-8",
  json: "application/json; charset=utf-8",
};

function exportType(value: string | undefined): EventLogExportType {
  const type = value ?? "csv";
  if (!(EVENT_LOG_EXPORT_TYPES as readonly string[]).includes(type)) {
    fail("invalid_input", `type must be ${EVENT_LOG_EXPORT_TYPES.map((name) => `"${name}"`).join(" or ")}.`);
  }
  return type as EventLogExportType;
}

/**
 * The event logs screen's calls, admins only (the reference's guard, though its page is open to managers):
 * a page of the log, clearing it (which is itself logged, as the reference does), and the whole log as a
 * CSV or JSON file, streamed in batches.
 */
export function eventLogRoutes(deps: Deps) {
  const admin = requirePermission("settings:manage");
  return new Hono<AppEnv>()
    .post("/system/event-logs", admin, async (c) => {
      const page = await parseJson(c, EventLogsInput, undefined, { bareMessages: true });
      return c.json(await eventLogsPage(deps, page));
    })
    .delete("/system/event-logs", admin, async (c) => {
      const removed = await clearEventLogs(deps);
      deps.log.info("Event logs cleared", { removed });
      await logEvent(deps, "event_logs_cleared", {}, c.var.actor.userId);
      return c.json({ success: true, error: null });
    })
    .get("/system/event-logs/export", admin, (c) => {
      const type = exportType(c.req.query("type"));
      const day = new Date().toISOString().slice(0, 10);
      return c.body(exportStream(deps, type), 200, {
        "Content-Type": CONTENT_TYPES[type],
        "Content-Disposition": `attachment; filename="event-logs-${day}.${type}"`,
        "Cache-Control": "no-store",
      });
    });
}
