import { Hono } from "hono";
import { secureHeaders } from "hono/secure-headers";
import { bodyLimit } from "hono/body-limit";
import { serveStatic } from "hono/deno";
import { createMiddleware } from "hono/factory";
import type { Deps } from "./deps.ts";
import type { AppEnv } from "./http/env.ts";
import { AppError } from "./errors.ts";
import { answerError } from "./http/error_map.ts";
import { authGuard } from "./http/auth_guard.ts";
import { actorDeps } from "./auth/actor_deps.ts";
import { MAX_PICTURE_BYTES } from "./users/images.ts";
import { widgetHeaders, widgetRoutes } from "./widget/routes.ts";
import { hostName, machineNames, originGuard } from "./http/origin_guard.ts";
import { publicSystemRoutes, systemRoutes } from "./system/routes.ts";
import { eventLogRoutes } from "./events/routes.ts";
import { workspaceRoutes } from "./workspaces/routes.ts";
import { documentRoutes } from "./documents/routes.ts";
import { libraryRoutes } from "./documents/library_routes.ts";
import { liveSyncRoutes } from "./documents/live_sync_routes.ts";
import { chatRoutes } from "./chat/routes.ts";
import { threadRoutes } from "./threads/routes.ts";
import { chatActionRoutes } from "./chat/action_routes.ts";
import { speechRoutes } from "./speech/routes.ts";
import { searchRoutes } from "./search/routes.ts";
import { promptHistoryRoutes } from "./prompt_history/routes.ts";
import { presetRoutes } from "./presets/routes.ts";
import { appearanceRoutes, publicAppearanceRoutes } from "./appearance/routes.ts";
import { authRoutes, publicAuthRoutes } from "./auth/routes.ts";
import { accountRoutes } from "./users/account_routes.ts";
import { publicInviteRoutes } from "./invites/routes.ts";
import { adminRoutes } from "./admin_routes.ts";
import { backupRoutes } from "./backup/routes.ts";
import { embeddingRoutes } from "./embedding/routes.ts";
import { embedProgressRoutes } from "./embedding/progress_routes.ts";
import { attachmentRoutes } from "./attachments/routes.ts";
import { cors } from "./http/cors.ts";
import { lazyRoutes } from "./http/lazy_routes.ts";
import { bundle } from "./app_root.ts";
import { defaultPromptRoutes } from "./system/default_prompt.ts";
import { promptVariableRoutes } from "./prompt_variables/routes.ts";
import { communityHubRoutes } from "./system/community_hub.ts";
import { MISSING_CALLS, missingCallRoutes } from "./system/not_yet.ts";
import { agentRoutes, agentSocketRoutes } from "./agents/routes.ts";
import { apiKeyRoutes } from "./api_keys/routes.ts";
import { workspaceChatRoutes } from "./workspace_chats/routes.ts";
import type { V1Router } from "./developer_api/router.ts";
import { threadExportRoutes } from "./chat_export/thread_routes.ts";
import { embedRoutes } from "./embeds/routes.ts";
import { embedWidgetRoutes } from "./embeds/widget_routes.ts";
import { embedCorsDecider, isWidgetCall } from "./embeds/access.ts";
import {
  browserExtensionKeyRoutes,
  browserExtensionRoutes,
  extensionCorsDecider,
  isExtensionCall,
} from "./browser_extension/routes.ts";

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
  api.route("/", publicSystemRoutes(deps));
  api.route("/", publicAppearanceRoutes(deps));
  api.route("/", publicAuthRoutes(deps));
  // Single sign-on (openid-client) loads on the first login through it.
  api.route(
    "/",
    lazyRoutes(
      "/api",
      ["/auth/oidc", "/request-token/sso/oidc"],
      async () => (await import("./oidc/routes.ts")).oidcRoutes(deps),
    ),
  );
  api.route("/", publicInviteRoutes(deps));
  // The chat widgets' calls come from other web sites, without a session (their embed's domains decide).
  api.route("/", embedWidgetRoutes(deps));
  // The browser extension's calls carry its key (brx-…), not a session.
  api.route("/", browserExtensionRoutes(deps));
  // Developer API clients carry API keys, not sessions: their routes come before the login check, and so does
  // their documentation (GET /api/docs, read before signing in, as the reference serves it).
  // Both load on their first call (the API's routes, their schemas and the OpenAPI generator), and share one
  // router: the docs describe the routes the API serves.
  let v1: Promise<V1Router> | null = null;
  const developerApi = () =>
    v1 ??= import("./developer_api/routes.ts").then((module) => module.developerApi(deps)).catch((error) => {
      v1 = null;
      throw error;
    });
  api.route(
    "/",
    lazyRoutes("/api", ["/v1"], async () => {
      const { developerApiRoutes } = await import("./developer_api/routes.ts");
      return developerApiRoutes(deps, await developerApi());
    }),
  );
  api.route(
    "/",
    lazyRoutes("/api", ["/docs"], async () => {
      const { docsRoutes } = await import("./developer_api/openapi.ts");
      return docsRoutes(await developerApi(), `${deps.assets.directory}/docs`);
    }),
  );
  // The agent's socket carries its session token as a subprotocol (a browser sends no headers with a socket).
  api.route("/", agentSocketRoutes(deps));
  api.use("*", authGuard(actorDeps(deps)));
  api.route("/", authRoutes(deps));
  api.route("/", accountRoutes(deps));
  api.route("/", apiKeyRoutes(deps)); // before adminRoutes: /admin/api-keys is for admins only
  api.route("/", embeddingRoutes(deps)); // before adminRoutes: system-preferences serves single-user too
  api.route("/", embedRoutes(deps));
  api.route("/", backupRoutes(deps)); // before adminRoutes: a single-user owner may take a backup too
  api.route("/", browserExtensionKeyRoutes(deps));
  api.route("/", adminRoutes(deps));
  api.route("/", systemRoutes(deps));
  api.route("/", eventLogRoutes(deps));
  api.route("/", workspaceChatRoutes(deps));
  api.route("/", workspaceRoutes(deps));
  api.route("/", documentRoutes(deps));
  api.route("/", libraryRoutes(deps));
  api.route("/", liveSyncRoutes(deps));
  // The data connectors load on the first call to /api/ext (their sources and parsers are large).
  api.route(
    "/",
    lazyRoutes("/api", ["/ext"], async () => (await import("./connectors/routes.ts")).connectorRoutes(deps)),
  );
  api.route("/", embedProgressRoutes(deps));
  api.route("/", attachmentRoutes(deps));
  api.route("/", chatRoutes(deps));
  api.route("/", agentRoutes(deps));
  // The MCP servers' settings load on their first call (the hub itself starts servers on demand).
  api.route(
    "/",
    lazyRoutes(
      "/api",
      ["/mcp-servers"],
      async () => (await import("./agents/mcp/routes.ts")).mcpRoutes(deps),
    ),
  );
  api.route("/", threadRoutes(deps));
  api.route("/", chatActionRoutes(deps));
  api.route("/", speechRoutes(deps));
  api.route("/", threadExportRoutes(deps));
  api.route("/", presetRoutes(deps));
  api.route("/", appearanceRoutes(deps));
  api.route("/", searchRoutes(deps));
  api.route("/", promptHistoryRoutes(deps));
  api.route("/", defaultPromptRoutes(deps));
  api.route("/", promptVariableRoutes(deps));
  api.route("/", communityHubRoutes());
  // Last, so that every real route wins: calls of features still to come answer 501 with a sentence.
  api.route("/", missingCallRoutes(MISSING_CALLS));
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
