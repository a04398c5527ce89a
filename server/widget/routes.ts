import { Hono } from "hono";
import { createMiddleware } from "hono/factory";
import type { Deps } from "../deps.ts";
import { fail } from "../errors.ts";
import type { AppEnv } from "../http/env.ts";

/** Where a web site loads the chat widget from (the embed screens' snippet names it). */
export const WIDGET_PATH = "/embed/lectern-chat-widget.min.js";

/**
 * A day fresh, then used while it is checked again for a week: the file keeps its name across versions, so it
 * cannot be cached as immutable, and the ETag makes the check cheap.
 */
const CACHE_CONTROL = "public, max-age=86400, stale-while-revalidate=604800";

const OPEN_HEADERS = {
  "Access-Control-Allow-Origin": "*",
  "Cross-Origin-Resource-Policy": "cross-origin",
} as const;

/**
 * Mounted before the security headers (server/app.ts), so it runs after them: they set
 * `Cross-Origin-Resource-Policy: same-origin` on every answer, which would keep other sites from loading the
 * script. Only the widget's path is touched.
 */
export function widgetHeaders() {
  return createMiddleware<AppEnv>(async (c, next) => {
    await next();
    if (c.req.path !== WIDGET_PATH || c.res.status >= 400) return;
    for (const [name, value] of Object.entries(OPEN_HEADERS)) c.res.headers.set(name, value);
  });
}

interface Built {
  body: Uint8Array<ArrayBuffer>;
  etag: string;
}

/**
 * `GET /embed/lectern-chat-widget.min.js`: the widget script (client/embed/widget.ts, built into
 * dist/static/embed/). Any web site may load it: a script tag needs `Cross-Origin-Resource-Policy: cross-origin`
 * (the app's default is same-origin) and `Access-Control-Allow-Origin: *` lets a page load it with
 * `crossorigin` too. Only this file is open so; what the widget may then call is the embed's own business
 * (its allowed domains, checked by the server's embed calls).
 */
export function widgetRoutes(deps: Deps) {
  const file = `${deps.assets.directory}/embed/lectern-chat-widget.min.js`;
  let cached: Promise<Built> | null = null;
  const read = async (): Promise<Built> => {
    const body = await Deno.readFile(file);
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", body));
    return {
      body,
      etag: `"${Array.from(digest.slice(0, 16), (byte) => byte.toString(16).padStart(2, "0")).join("")}"`,
    };
  };
  const load = () => {
    // In development the watching build rewrites the file: read it each time.
    if (deps.config.dev) return read();
    cached ??= read().catch((error) => {
      cached = null;
      throw error;
    });
    return cached;
  };
  return new Hono<AppEnv>().get(WIDGET_PATH, async (c) => {
    let built: Built;
    try {
      built = await load();
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
      fail("not_found", 'The chat widget is not built: run "deno task build".');
    }
    const headers = { ...OPEN_HEADERS, "Cache-Control": CACHE_CONTROL, ETag: built.etag };
    const match = c.req.header("if-none-match");
    if (match && match.split(",").some((tag) => tag.trim().replace(/^W\//, "") === built.etag)) {
      return c.body(null, 304, headers);
    }
    return c.body(built.body, 200, { ...headers, "Content-Type": "text/javascript; charset=utf-8" });
  });
}
