import { Hono } from "hono";
import type { Deps } from "../deps.ts";
import type { AppEnv } from "../http/env.ts";
import { parseJson } from "../http/body.ts";
import { clientAddress } from "../http/client_address.ts";
import { requirePermission } from "../http/auth_guard.ts";
import {
  AUTH_MESSAGES,
  EnableMultiUserInput,
  InstancePasswordInput,
  LoginInput,
  RecoverAccountInput,
  ResetPasswordInput,
} from "../../shared/api/auth.ts";
import { AppError } from "../errors.ts";
import { findUserById } from "../users/repo.ts";
import { presentUser } from "./present.ts";
import {
  enableMultiUser,
  loginWithAccount,
  loginWithInstancePassword,
  recoverAccount,
  redeemSsoToken,
  resetPassword,
  sessionFor,
  setInstancePassword,
} from "./service.ts";

const loginBody = (message: string) => ({ user: null, valid: false, token: null, message });
const resultBody = (message: string) => ({ success: false, error: message, message });

/** Sign-in calls that need no session. */
export function publicAuthRoutes(deps: Deps) {
  return new Hono<AppEnv>()
    .post("/request-token", async (c) => {
      // A JSON null or other non-object reads as no fields: the answer is the ordinary refusal, not a 500.
      const body = await parseJson(c, LoginInput, loginBody);
      const address = clientAddress(c, deps.config.trustProxy);
      const answer = deps.settings.multiUserMode
        ? await loginWithAccount(deps, body, address)
        : await loginWithInstancePassword(deps, body.password, address);
      return c.json(answer);
    })
    .get("/request-token/sso/simple", async (c) => {
      try {
        return c.json(await redeemSsoToken(deps, c.req.query("token") ?? ""));
      } catch (error) {
        // The reference answers a disabled SSO with plain text; the client shows it as the message.
        if (error instanceof AppError && error.code === "forbidden") return c.text(error.message, 403);
        throw error;
      }
    })
    .get("/system/multi-user-mode", (c) => c.json({ multiUserMode: deps.settings.multiUserMode }))
    .post("/system/recover-account", async (c) => {
      const body = await parseJson(c, RecoverAccountInput, resultBody);
      const resetToken = await recoverAccount(deps, body, clientAddress(c, deps.config.trustProxy));
      return c.json({ success: true, resetToken });
    })
    .post("/system/reset-password", async (c) => {
      const body = await parseJson(c, ResetPasswordInput, resultBody, { bareMessages: true });
      await resetPassword(deps, body);
      return c.json({ success: true, message: AUTH_MESSAGES.passwordReset });
    });
}

/** Session calls behind the auth guard. */
export function authRoutes(deps: Deps) {
  return new Hono<AppEnv>()
    .get("/system/check-token", (c) => c.json({ valid: true }))
    .get("/system/refresh-user", async (c) => {
      const { userId } = c.var.actor;
      if (userId === null) return c.json({ success: true, user: null, message: null });
      const user = await findUserById(deps, userId);
      if (!user) return c.json({ success: false, user: null, message: "Session expired or invalid." });
      if (user.suspended) return c.json({ success: false, user: null, message: "User is suspended." });
      return c.json({ success: true, user: presentUser(user), message: null });
    })
    .post("/system/update-password", requirePermission("settings:manage"), async (c) => {
      const token = await setInstancePassword(deps, await parseJson(c, InstancePasswordInput));
      return c.json({ success: true, error: null, token });
    })
    .post("/system/enable-multi-user", requirePermission("settings:manage"), async (c) => {
      const admin = await enableMultiUser(deps, await parseJson(c, EnableMultiUserInput));
      deps.log.info("Multi-user mode enabled", { admin: admin.username ?? "" });
      return c.json({
        success: true,
        error: null,
        user: presentUser(admin),
        token: await sessionFor(deps, admin),
      });
    });
}
