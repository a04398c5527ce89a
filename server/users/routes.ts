import { Hono } from "hono";
import { NewUserInput, UpdateUserInput } from "../../shared/api/admin.ts";
import type { Deps } from "../deps.ts";
import type { AppEnv } from "../http/env.ts";
import { parseJson } from "../http/body.ts";
import { requirePermission } from "../http/auth_guard.ts";
import { fail, withErrorBody } from "../errors.ts";
import { presentUser } from "../auth/present.ts";
import { issueSsoToken } from "../auth/service.ts";
import { createUser, deleteUser, updateUser } from "./service.ts";
import { listUsers } from "./repo.ts";

/**
 * The id in a path: decimal digits only, so that `0x1`, `1e0`, `+1` or ` 1` (which `Number` reads as 1) name no
 * object instead of object 1.
 */
export function idParam(value: string, what = "user"): number {
  const id = Number(value);
  const article = /^[aeio]/i.test(what) ? "an" : "a";
  return /^[1-9]\d*$/.test(value) && Number.isSafeInteger(id)
    ? id
    : fail("invalid_input", `"${value}" is not ${article} ${what} id.`);
}

/** User management under /api/admin, for admins and managers (docs/api-compat.md#admin-calls). */
export function userRoutes(deps: Deps) {
  const newUserBody = (message: string) => ({ user: null, error: message });
  return new Hono<AppEnv>()
    .get("/admin/users", async (c) => {
      return c.json({ users: (await listUsers(deps)).map(presentUser) });
    })
    .post("/admin/users/new", requirePermission("users:create", newUserBody), async (c) => {
      const input = await parseJson(c, NewUserInput, newUserBody, { bareMessages: true });
      const user = await withErrorBody(newUserBody, () => createUser(deps, c.var.actor, input));
      return c.json({ user: presentUser(user), error: null });
    })
    .post("/admin/user/:id", async (c) => {
      const input = await parseJson(c, UpdateUserInput, undefined, { bareMessages: true });
      await updateUser(deps, c.var.actor, idParam(c.req.param("id")), input);
      return c.json({ success: true, error: null });
    })
    .delete("/admin/user/:id", async (c) => {
      await deleteUser(deps, c.var.actor, idParam(c.req.param("id")));
      return c.json({ success: true, error: null });
    })
    .post("/admin/user/:id/issue-auth-token", requirePermission("settings:manage"), async (c) => {
      return c.json(await issueSsoToken(deps, idParam(c.req.param("id"))));
    });
}
