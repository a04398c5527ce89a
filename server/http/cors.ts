import { createMiddleware } from "hono/factory";
import type { AppEnv } from "./env.ts";

const ALLOW_METHODS = "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS";
const ALLOW_HEADERS = "Authorization, Content-Type, X-Timezone, X-Language";
/** How long a browser may reuse a preflight answer, in seconds (Chromium caps it at two hours). */
const MAX_AGE = "7200";

/** An origin as the browser sends it (`https://app.example.org`) from an operator's spelling; null if it is none. */
export function parseOrigin(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  if (
    url.username || url.password || url.search || url.hash || (url.pathname !== "/" && url.pathname !== "")
  ) {
    return null;
  }
  return url.origin;
}

/**
 * Origins that may call some paths besides CORS_ORIGINS, decided per request (the embed widgets' public calls,
 * server/embeds/access.ts): true or false for a path it decides, undefined for the others. `method` is the
 * method asked for (a preflight's Access-Control-Request-Method).
 */
export type OriginDecider = (
  request: { method: string; path: string; origin: string },
) => Promise<boolean | undefined>;

/**
 * Cross-origin access for the origins the operator named (CORS_ORIGINS); none by default, so only pages of this
 * instance itself can read its answers. A preflight from a named origin is answered here (204); one from any
 * other origin is refused (403) without CORS headers. Answers to a named origin carry
 * `Access-Control-Allow-Origin` with that origin; `Vary: Origin` keeps caches from mixing them up. Paths `decide` rules on follow its
 * answer instead (an embed's allowed domains), whatever CORS_ORIGINS says.
 */
export function cors(origins: readonly string[], decide?: OriginDecider) {
  const allowed = new Set(origins);
  return createMiddleware<AppEnv>(async (c, next) => {
    const origin = c.req.header("origin");
    const requested = c.req.header("access-control-request-method");
    const preflight = c.req.method === "OPTIONS" && origin !== undefined && requested !== undefined;
    const decided = decide && origin !== undefined
      ? await decide({ method: preflight ? requested.toUpperCase() : c.req.method, path: c.req.path, origin })
      : undefined;
    if (decided === undefined && allowed.size === 0) return await next();
    const named = decided ?? (origin !== undefined && allowed.has(origin));
    if (preflight) {
      if (!named) {
        return c.json(
          {
            success: false,
            error: decided === false
              ? `Cross-origin requests from ${origin} are not allowed to use this chat widget.`
              : `Cross-origin requests from ${origin} are not allowed: the operator can add it to CORS_ORIGINS.`,
          },
          403,
          { Vary: "Origin" },
        );
      }
      return c.body(null, 204, {
        "Access-Control-Allow-Origin": origin,
        "Access-Control-Allow-Methods": ALLOW_METHODS,
        "Access-Control-Allow-Headers": ALLOW_HEADERS,
        "Access-Control-Max-Age": MAX_AGE,
        Vary: "Origin",
      });
    }
    await next();
    let headers = c.res.headers;
    try {
      headers.append("Vary", "Origin");
    } catch {
      // Headers of a response that came from elsewhere are read-only: copy it.
      c.res = new Response(c.res.body, c.res);
      headers = c.res.headers;
      headers.append("Vary", "Origin");
    }
    if (named && origin !== undefined) headers.set("Access-Control-Allow-Origin", origin);
  });
}
