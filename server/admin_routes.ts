import { Hono } from "hono";
import type { Deps } from "./deps.ts";
import type { AppEnv } from "./http/env.ts";
import { requireMultiUser, requirePermission } from "./http/auth_guard.ts";
import { userRoutes } from "./users/routes.ts";
import { inviteAdminRoutes } from "./invites/routes.ts";
import { memberAdminRoutes } from "./workspaces/member_routes.ts";

/** Everything under /api/admin: multi-user mode only, admins and managers (finer checks in the services). */
export function adminRoutes(deps: Deps) {
  const admin = new Hono<AppEnv>();
  admin.use("/admin/*", requireMultiUser(deps), requirePermission("users:manage"));
  admin.route("/", userRoutes(deps));
  admin.route("/", inviteAdminRoutes(deps));
  admin.route("/", memberAdminRoutes(deps));
  return admin;
}
