import { Hono } from "hono";
import { AcceptInviteInput, NewInviteInput } from "../../shared/api/admin.ts";
import type { Deps } from "../deps.ts";
import type { AppEnv } from "../http/env.ts";
import { parseJson } from "../http/body.ts";
import { requirePermission } from "../http/auth_guard.ts";
import { withErrorBody } from "../errors.ts";
import { idParam } from "../users/routes.ts";
import {
  acceptInvite,
  createInvite,
  disableInvite,
  listInvites,
  pendingInvite,
  presentInvite,
} from "./service.ts";

/** Invitations under /api/admin: admins only, since a pending code lets anyone create an account. */
export function inviteAdminRoutes(deps: Deps) {
  const inviteBody = (message: string) => ({ invite: null, error: message });
  const create = requirePermission("users:create");
  return new Hono<AppEnv>()
    .get("/admin/invites", create, async (c) => {
      return c.json({ invites: (await listInvites(deps)).map(presentInvite) });
    })
    .post("/admin/invite/new", requirePermission("users:create", inviteBody), async (c) => {
      const input = await parseJson(c, NewInviteInput, inviteBody);
      const invite = await withErrorBody(
        inviteBody,
        () => createInvite(deps, c.var.actor, input.workspaceIds),
      );
      return c.json({ invite: presentInvite(invite), error: null });
    })
    .delete("/admin/invite/:id", create, async (c) => {
      await disableInvite(deps, c.var.actor, idParam(c.req.param("id"), "invite"));
      return c.json({ success: true, error: null });
    });
}

/**
 * The public side of an invitation: look it up, accept it
 * (docs/api-compat.md#single-sign-on-and-invitations).
 */
export function publicInviteRoutes(deps: Deps) {
  return new Hono<AppEnv>()
    .get("/invite/:code", async (c) => {
      const invite = await pendingInvite(deps, c.req.param("code"));
      return c.json({ invite: { code: invite.code, status: invite.status }, error: null });
    })
    .post("/invite/:code", async (c) => {
      await acceptInvite(deps, c.req.param("code"), await parseJson(c, AcceptInviteInput));
      return c.json({ success: true, error: null });
    });
}
