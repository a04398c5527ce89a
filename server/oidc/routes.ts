import { Hono } from "hono";
import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { Deps } from "../deps.ts";
import type { AppEnv } from "../http/env.ts";
import { clientAddress } from "../http/client_address.ts";
import { AppError } from "../errors.ts";
import { logEvent } from "../events/log.ts";
import { redeemLoginToken } from "../auth/service.ts";
import { oidcOptions } from "./options.ts";
import {
  finishOidcLogin,
  LOGIN_STATE_COOKIE,
  LOGIN_STATE_SECONDS,
  OidcRefusal,
  startOidcLogin,
} from "./service.ts";

const COOKIE_PATH = "/api/auth/oidc";

/** Where to go after signing in: a path of this site (the landing page checks it again as the login does). */
const landing = (target: string | undefined) =>
  target && target.startsWith("/") && !target.startsWith("//") && target.length <= 2048 ? target : "/";

/** The origin the browser used: behind a trusted proxy, the forwarded scheme and host. */
function publicOrigin(c: Context<AppEnv>, trustProxy: boolean): string {
  const url = new URL(c.req.url);
  if (!trustProxy) return url.origin;
  const host = c.req.header("x-forwarded-host")?.split(",")[0]?.trim() || url.host;
  const proto = c.req.header("x-forwarded-proto")?.split(",")[0]?.trim() || url.protocol.replace(":", "");
  return `${proto}://${host}`;
}

/**
 * OpenID Connect login (issue 24): `GET /api/auth/oidc/login` sends the browser to the identity provider,
 * `GET /api/auth/oidc/callback` takes its answer and signs the browser in through the one-time page
 * `/sso/oidc`, which redeems `GET /api/request-token/sso/oidc`. A refusal goes to `/sso/oidc?error=<code>`:
 * the page says it in the person's language; the reason is in the event log.
 */
export function oidcRoutes(deps: Deps) {
  const refused = async (c: Context<AppEnv>, error: unknown) => {
    if (!(error instanceof OidcRefusal)) throw error;
    const address = clientAddress(c, deps.config.trustProxy);
    deps.log.warn("OpenID Connect login refused", { reason: error.reason, address });
    await logEvent(deps, "failed_login_oidc", { reason: error.reason, address });
    deleteCookie(c, LOGIN_STATE_COOKIE, { path: COOKIE_PATH });
    return c.redirect(`/sso/oidc?error=${error.code}`, 302);
  };
  return new Hono<AppEnv>()
    .get("/auth/oidc/login", async (c) => {
      try {
        const origin = publicOrigin(c, deps.config.trustProxy);
        const { url, cookie } = await startOidcLogin(deps, origin, landing(c.req.query("redirectTo")));
        setCookie(c, LOGIN_STATE_COOKIE, cookie, {
          path: COOKIE_PATH,
          httpOnly: true,
          // The provider's redirect back is a top-level navigation from its site: Lax sends the cookie then.
          sameSite: "Lax",
          secure: origin.startsWith("https:"),
          maxAge: LOGIN_STATE_SECONDS,
        });
        return c.redirect(url, 302);
      } catch (error) {
        return await refused(c, error);
      }
    })
    .get("/auth/oidc/callback", async (c) => {
      try {
        const { loginPath } = await finishOidcLogin(
          deps,
          new URL(c.req.url),
          getCookie(c, LOGIN_STATE_COOKIE),
          clientAddress(c, deps.config.trustProxy),
        );
        deleteCookie(c, LOGIN_STATE_COOKIE, { path: COOKIE_PATH });
        return c.redirect(loginPath, 302);
      } catch (error) {
        return await refused(c, error);
      }
    })
    .get("/request-token/sso/oidc", async (c) => {
      if (!oidcOptions(deps)) {
        throw new AppError("forbidden", "OpenID Connect login is not enabled on this instance.");
      }
      return c.json(await redeemLoginToken(deps, c.req.query("token") ?? "", "oidc_login"));
    });
}
