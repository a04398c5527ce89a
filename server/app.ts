import { Hono } from "hono";
import { secureHeaders } from "hono/secure-headers";
import { bodyLimit } from "hono/body-limit";
import { serveStatic } from "hono/deno";
import { createMiddleware } from "hono/factory";
import type { Deps } from "./deps.ts";
import type { AppEnv } from "./http/env.ts";
import { AppError } from "./errors.ts";
import { answerError } from "./http/error_map.ts";
import { MAX_PICTURE_BYTES } from "./users/images.ts";
import { widgetHeaders, widgetRoutes } from "./widget/routes.ts";
import { hostName, machineNames, originGuard } from "./http/origin_guard.ts";
import { cors } from "./http/cors.ts";
import { lazyRoutes } from "./http/lazy_routes.ts";
import { bundle } from "./app_root.ts";
import { embedCorsDecider, isWidgetCall } from "./embeds/access.ts";
import { extensionCorsDecider, isExtensionCall } from "./browser_extension/access.ts";

export const PAGES_MODULE = "./pages/routes.tsx";

/** Calls with a body that anyone may make before signing in: login, recovery, password reset, invitations. */
const PUBLIC_BODY_PATHS =
  /^\/api\/(request-token|system\/(recover-account|reset-password)|invite\/[^/]+)\/?$/;

/** The body of a request, with a limit for the calls anyone may make: the embed widgets' calls too. */
const isPublicBody = (method: string, path: string) =>
  PUBLIC_BODY_PATHS.test(path) || isWidgetCall(method, path);

const FAVICON =
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#2f5d50"/><path d="M9 8h4v13h10v3H9z" fill="#fff"/></svg>`;

/** One log line per request: method, path, status, milliseconds. Built assets log at debug level. */
function requestLog(deps: Deps) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const started = performance.now();
    await next();
    const fields = { status: c.res.status, ms: Math.round((performance.now() - started) * 10) / 10 };
    const line = `${c.req.method} ${c.req.path}`;
    if (c.req.path.startsWith("/static/")) deps.log.debug(line, fields);
    else deps.log.info(line, fields);
  });
}

/** The whole server: API under /api, built client assets, and a server-rendered page for every route. */
export function createApp(deps: Deps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use(requestLog(deps));
  app.use(widgetHeaders()); // before the security headers, so that it can open the widget script to other sites
  app.use(secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", "data:", "blob:"],
      // The speak button plays the fetched speech from a blob: URL.
      mediaSrc: ["'self'", "blob:"],
      connectSrc: ["'self'"],
      fontSrc: ["'self'", "data:"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
    xFrameOptions: "DENY",
    referrerPolicy: "strict-origin-when-cross-origin",
    strictTransportSecurity: false,
    // A route may answer with a stricter policy of its own (an SVG logo: server/appearance/routes.ts).
    overwrite: false,
  }));

  // Before the origin guard, so that its refusals reach an allowed origin's page readable.
  app.use(cors(deps.config.corsOrigins, extensionCorsDecider(embedCorsDecider(deps))));
  const bindName = hostName(deps.config.host);
  app.use(originGuard({
    allowedHosts: [
      ...deps.config.allowedHosts,
      ...machineNames(),
      ...(/[a-z]/.test(bindName) ? [bindName] : []),
    ],
    trustProxy: deps.config.trustProxy,
    corsOrigins: deps.config.corsOrigins,
    // The widgets check the Origin themselves; the browser extension's calls carry its key, not a session.
    checksOwnOrigin: (method, path, origin) =>
      isWidgetCall(method, path) || isExtensionCall(method, path, origin),
  }));

  // One table (http/error_map.ts) says what every error class answers.
  app.onError((error, c) => {
    const answer = answerError(error, deps.log, { method: c.req.method, path: c.req.path });
    return answer instanceof Response ? answer : c.json(answer.body, answer.status as 500);
  });

  const api = new Hono<AppEnv>();
  // Every body is bounded before it is read, whatever its type claims: the calls anyone may make without a
  // login need kilobytes; multipart bodies may be uploads (their routes bound them again, to their own
  // limits); the rest are JSON, which a chat with pictures attached can make large.
  const limit = (maxSize: number, what: string) =>
    bodyLimit({
      maxSize,
      onError: () => {
        throw new AppError("too_large", `The request body is too large: the limit is ${what}.`);
      },
    });
  const publicBodyLimit = limit(64 * 1024, "64 KB");
  // Above every upload route's own bound (documents, pictures), so those answer with their own message.
  const largestUpload = Math.max(deps.config.maxUploadBytes, MAX_PICTURE_BYTES) + 2 ** 20;
  const uploadBodyLimit = limit(largestUpload, `${Math.ceil(largestUpload / 2 ** 20)} MB`);
  const jsonBodyLimit = limit(64 * 1024 * 1024, "64 MB");
  api.use("*", async (c, next) => {
    if (isPublicBody(c.req.method, c.req.path)) return await publicBodyLimit(c, next);
    if ((c.req.header("content-type") ?? "").startsWith("multipart/form-data")) {
      return await uploadBodyLimit(c, next);
    }
    return await jsonBodyLimit(c, next);
  });
  // Answered here, so that a health check loads none of the API's modules.
  api.get("/ping", (c) => c.json({ online: true }));
  // Every other API route (server/api_routes.ts), loaded on the first call other than /api/ping: a start and an
  // idle server carry none of their modules. The routes keep their order, the login check among them.
  api.route("/", lazyRoutes("/api", ["*"], async () => (await import("./api_routes.ts")).apiRoutes(deps)));
  api.all(
    "*",
    (c) => c.json({ success: false, error: `Cannot find the API route ${c.req.method} ${c.req.path}` }, 404),
  );
  app.route("/api", api);

  app.get(
    "/static/assets/*",
    serveStatic({
      root: deps.assets.directory,
      rewriteRequestPath: (path) => path.replace(/^\/static/, ""),
      onFound: (_path, c) => c.header("Cache-Control", "public, max-age=31536000, immutable"),
    }),
  );
  app.route("/", widgetRoutes(deps));
  app.get("/favicon.svg", (c) => {
    c.header("Cache-Control", "public, max-age=86400");
    return c.body(FAVICON, 200, { "Content-Type": "image/svg+xml" });
  });
  app.get("/robots.txt", (c) => c.text("User-agent: *\nDisallow: /\n"));

  // Pages (React server rendering and the islands) load on the first page request, so the API answers sooner
  // after start and an idle server does not carry them. The specifier is computed on purpose: Deno loads the
  // graph of a literal dynamic import at start. `deno task compile` includes the module explicitly.
  // From the bundle (server/app_root.ts), the pages are a chunk of their own that the bundle's entry loads.
  let pages: Promise<Hono<AppEnv>> | null = null;
  const loadPages =
    () => (pages ??= ((bundle()?.pages() ?? import(new URL(PAGES_MODULE, import.meta.url).href)) as Promise<
      typeof import("./pages/routes.tsx")
    >).then((module) => module.pagesApp(deps)));
  app.get("*", async (c) => (await loadPages()).fetch(c.req.raw));
  app.notFound((c) => c.json({ success: false, error: "Not found." }, 404));
  return app;
}
