// The API's routes after /api/ping, in the order they match (earlier routes win, the login check sits between
// the public calls and the rest): server/app.ts mounts them as one lazy group (server/http/lazy_routes.ts), so
// that a start loads none of their modules (their services, the shared zod contracts, the providers, the agent
// loop) until the first API call other than /api/ping (issue 21: idle memory and start-up).
import { Hono } from "hono";
import type { Deps } from "./deps.ts";
import type { AppEnv } from "./http/env.ts";
import { authGuard } from "./http/auth_guard.ts";
import { actorDeps } from "./auth/actor_deps.ts";
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
import { lazyRoutes } from "./http/lazy_routes.ts";
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
import { browserExtensionKeyRoutes, browserExtensionRoutes } from "./browser_extension/routes.ts";

/** The API's routes but /api/ping, to be mounted at /api (paths relative to it), behind the body limits. */
export function apiRoutes(deps: Deps): Hono<AppEnv> {
  const api = new Hono<AppEnv>();
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
  return api;
}
