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
 * Cross-origin access for the origins the operator named (CORS_ORIGINS); none by default, so only pages of this
 * instance itself can read its answers. A preflight from a named origin is answered here (204); one from any
 * other origin is refused (403) without CORS headers. Answers to a named origin carry
 * `Access-Control-Allow-Origin` with that origin; `Vary: Origin` keeps caches from mixing them up.
 */
export function cors(origins: readonly string[]) {
  const allowed = new Set(origins);
  return createMiddleware<AppEnv>(async (c, next) => {
    if (allowed.size === 0) return await next();
    const origin = c.req.header("origin");
    const named = origin !== undefined && allowed.has(origin);
    if (c.req.method === "OPTIONS" && origin !== undefined && c.req.header("access-control-request-method")) {
      if (!named) {
        return c.json(
          {
            success: false,
            error:
              `Cross-origin requests from ${origin} are not allowed: the operator can add it to CORS_ORIGINS.`,
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
    if (named) headers.set("Access-Control-Allow-Origin", origin);
  });
}
