import { Hono } from "hono";
import type { Deps } from "../deps.ts";
import type { AppEnv } from "../http/env.ts";
import { requirePermission } from "../http/auth_guard.ts";
import { takeBackup } from "./service.ts";

/**
 * `POST /api/admin/backup`: the whole instance as one file (server/backup/archive.ts), streamed. Admins only
 * (settings:manage); in single-user mode the owner. Mounted before adminRoutes, whose guard needs multi-user mode.
 */
export function backupRoutes(deps: Deps) {
  const routes = new Hono<AppEnv>();
  routes.post("/admin/backup", requirePermission("settings:manage"), async (c) => {
    const backup = await takeBackup(deps, { userId: c.var.actor.userId, via: "api" });
    return new Response(backup.stream, {
      headers: {
        "Content-Type": "application/gzip",
        "Content-Disposition": `attachment; filename="${backup.name}"`,
        "Cache-Control": "no-store",
      },
    });
  });
  return routes;
}
