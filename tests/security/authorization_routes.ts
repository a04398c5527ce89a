import { NATIVE_LEXICAL_MODEL } from "../../shared/providers/embedder_catalog.ts";
import { MISSING_CALLS, type MissingCall } from "../../server/system/not_yet.ts";
import { PNG, type Role, type World } from "./authorization_world.ts";

/** The least caller a route lets through in multi-user mode. */
export type Least = "public" | "default" | "manager" | "admin";

export interface Call {
  method: string;
  path: string;
  json?: unknown;
  form?: () => FormData;
}

/** Who sends a call: a role, or nobody signed in (who then aims at Dora's objects). */
export type Caller = Role | "anonymous";

export interface RouteRule {
  least: Least;
  /**
   * What a refused caller sends: real objects and a valid body, so that only the guard stands between the call
   * and its effect. Allowed callers send it too unless `pass` is given.
   */
  call: (w: World, as: Caller) => Call;
  /** What an allowed caller sends, when `call` would spoil the fixtures (deletes aim at unknown objects). */
  pass?: (w: World, as: Caller) => Call;
  /** The status an allowed caller gets (per role where they differ). */
  status: number | Partial<Record<Caller, number>>;
  /** Why the route sits at this level, where the code and spec say so. */
  why: string;
}

const get = (path: string): Call => ({ method: "GET", path });
const post = (path: string, json: unknown = {}): Call => ({ method: "POST", path, json });
const del = (path: string, json?: unknown): Call => ({ method: "DELETE", path, json });
const put = (path: string, json: unknown = {}): Call => ({ method: "PUT", path, json });
const upload = (path: string, file: () => File, fields: Record<string, string> = {}): Call => ({
  method: "POST",
  path,
  form: () => {
    const form = new FormData();
    form.append("file", file());
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    return form;
  },
});
const picture = () => new File([PNG], "face.png", { type: "image/png" });
const textFile = () => new File(["The harbour opens at seven."], "notes.txt", { type: "text/plain" });

/** The person whose objects a caller aims at: their own (anonymous callers aim at Dora's). */
const own = (as: Caller): Role => as === "anonymous" ? "default" : as;
const team = (w: World) => `/api/workspace/${w.team.slug}`;
const ownThread = (w: World, as: Caller) => `${team(w)}/thread/${w.threads[own(as)]}`;
const UNKNOWN_ID = 987_654;

/** The Community Hub (server/system/community_hub.ts): admins only; reads answer a hub not connected, writes 501. */
function communityHub(): Record<string, RouteRule> {
  const rows: Record<string, RouteRule> = {};
  const why = "settings:manage on /api/community-hub/* (the reference's guard: admin, docs/api-compat.md)";
  for (const path of ["settings", "explore", "items"]) {
    rows[`GET /api/community-hub/${path}`] = {
      least: "admin",
      call: () => get(`/api/community-hub/${path}`),
      status: 200,
      why,
    };
  }
  const writes: Record<string, unknown> = {
    settings: { hub_api_key: "hub-key-of-someone" },
    item: { importId: "allm-community-id:system-prompt:abc" },
    apply: { hubId: "abc", options: {} },
    import: { importId: "allm-community-id:slash-command:abc" },
    "system-prompt/create": { name: "Harbour", prompt: "Answer briefly.", visibility: "private" },
    "agent-flow/create": { name: "Harbour flow", flow: {}, visibility: "private" },
    "slash-command/create": { name: "Tides", command: "/tides", prompt: "Tides?", visibility: "private" },
  };
  for (const [path, body] of Object.entries(writes)) {
    rows[`POST /api/community-hub/${path}`] = {
      least: "admin",
      call: () => post(`/api/community-hub/${path}`, body),
      status: 501,
      why: `${why}; not connected, so refused with a sentence`,
    };
  }
  return rows;
}

/** A path to call for a route path of server/system/not_yet.ts (`:id` is 1, a trailing `*` one more segment). */
export const notYetPath = (path: string) => `/api${path.replace(/:[^/]+/g, "1").replace(/\*$/, "anything")}`;

/** /api/admin/* is guarded for admins and managers before anything answers there (server/admin_routes.ts). */
export const notYetLeast = (path: string): Least => path.startsWith("/admin/") ? "manager" : "default";

/**
 * The calls of features still to come (server/system/not_yet.ts), derived from its table: real routes that
 * answer 501 with a sentence, after the login check (so a caller without a session gets 401 there), and
 * after the /api/admin guard for those under it. The families it answers for every method (`ALL`), which
 * the route table leaves out, are walked in authorization_test.ts from NOT_YET_FAMILIES.
 */
function notYetRows(): Record<string, RouteRule> {
  const rows: Record<string, RouteRule> = {};
  for (const family of MISSING_CALLS) {
    if (family.methods === "ALL") continue;
    for (const path of family.paths) {
      const least = notYetLeast(path);
      for (const method of family.methods) {
        rows[`${method} /api${path}`] = {
          least,
          call: () => ({ method, path: notYetPath(path), json: method === "GET" ? undefined : {} }),
          status: 501,
          why: `server/system/not_yet.ts after the login check${
            least === "manager" ? " and the /api/admin guard" : ""
          }: "${family.sentence}"`,
        };
      }
    }
  }
  return rows;
}

/** The docs of the developer API (server/developer_api/openapi.ts): public, before the session guard. */
export const DEVELOPER_API_DOCS = [
  "/api/docs",
  "/api/docs/",
  "/api/docs/openapi.json",
  "/api/docs/swagger-ui-bundle.js",
  "/api/docs/swagger-ui.css",
  "/api/docs/swagger-init.js",
  "/api/docs/SWAGGER-UI-LICENSE.txt",
];
function developerApiDocs(): Record<string, RouteRule> {
  const rows: Record<string, RouteRule> = {};
  for (const path of DEVELOPER_API_DOCS) {
    rows[`GET ${path}`] = {
      least: "public",
      call: () => get(path),
      status: 200,
      why: "the reference: its API docs are read before login (its viewer and document are public)",
    };
  }
  return rows;
}

/**
 * The API keys screen's calls (server/api_keys/routes.ts): admins only, in both families; `/admin/…` also needs
 * multi-user mode (the reference's strict guard).
 */
function apiKeyRows(): Record<string, RouteRule> {
  const rows: Record<string, RouteRule> = {};
  for (const family of ["system", "admin"]) {
    const why = `settings:manage on /api/${family}/…api-key… (the reference: strict A; Lectern: admins only)`;
    rows[`GET /api/${family}/api-keys`] = {
      least: "admin",
      call: () => get(`/api/${family}/api-keys`),
      status: 200,
      why,
    };
    rows[`POST /api/${family}/generate-api-key`] = {
      least: "admin",
      call: (_w, as) => post(`/api/${family}/generate-api-key`, { name: `made by ${as}` }),
      status: 200,
      why,
    };
    const remove = family === "system" ? "/api/system/api-key" : "/api/admin/delete-api-key";
    rows[`DELETE ${remove}/:id`] = {
      least: "admin",
      call: (w) => del(`${remove}/${w.apiKey}`),
      pass: () => del(`${remove}/${UNKNOWN_ID}`),
      status: 404,
      why,
    };
  }
  return rows;
}

/**
 * The event logs screen's calls (server/events/routes.ts): admins only, the reference's guard (its page is open
 * to managers, who see a sentence instead).
 */
function eventLogRows(): Record<string, RouteRule> {
  const why = "settings:manage on /api/system/event-logs (the reference: flexUserRoleValid([admin]))";
  return {
    "POST /api/system/event-logs": {
      least: "admin",
      call: () => post("/api/system/event-logs", { offset: 0 }),
      status: 200,
      why,
    },
    "DELETE /api/system/event-logs": {
      least: "admin",
      call: () => del("/api/system/event-logs"),
      status: 200,
      why,
    },
    "GET /api/system/event-logs/export": {
      least: "admin",
      call: () => get("/api/system/event-logs/export?type=json"),
      status: 200,
      why,
    },
  };
}

/**
 * The embed widgets (server/embeds/): the screens' calls for admins and managers (spec 02's route table), and
 * the widget's public calls, before the session guard (their embed's allowed domains decide, not a login).
 */
function embedRows(): Record<string, RouteRule> {
  const why = "embeds:manage (spec 02's route table: the embed screens are for admins and managers)";
  const widget = "the reference: the chat widget's calls are public; the embed's allowed domains decide";
  const session = "0d9c8b7a-6f5e-4d3c-8b2a-1f0e9d8c7b6a";
  return {
    "GET /api/embeds": { least: "manager", call: () => get("/api/embeds"), status: 200, why },
    "POST /api/embeds/new": {
      least: "manager",
      call: (w) => post("/api/embeds/new", { workspace_id: w.team.id }),
      status: 200,
      why,
    },
    "POST /api/embed/update/:embedId": {
      least: "manager",
      call: (w) => post(`/api/embed/update/${w.embed.id}`, { enabled: true }),
      status: 200,
      why,
    },
    "DELETE /api/embed/:embedId": {
      least: "manager",
      call: (w) => del(`/api/embed/${w.embed.id}`),
      pass: () => del(`/api/embed/${UNKNOWN_ID}`),
      status: 404,
      why,
    },
    "POST /api/embed/chats": {
      least: "manager",
      call: () => post("/api/embed/chats", { offset: 0 }),
      status: 200,
      why,
    },
    "DELETE /api/embed/chats/:chatId": {
      least: "manager",
      call: (w) => del(`/api/embed/chats/${w.embedChat}`),
      pass: () => del(`/api/embed/chats/${UNKNOWN_ID}`),
      status: 404,
      why,
    },
    "POST /api/embed/:embedId/stream-chat": {
      least: "public",
      call: (w) => post(`/api/embed/${w.embed.uuid}/stream-chat`, { sessionId: session, message: "" }),
      status: 400,
      why: widget,
    },
    "GET /api/embed/:embedId/:sessionId": {
      least: "public",
      call: (w) => get(`/api/embed/${w.embed.uuid}/${session}`),
      status: 200,
      why: widget,
    },
    "DELETE /api/embed/:embedId/:sessionId": {
      least: "public",
      call: (w) => del(`/api/embed/${w.embed.uuid}/${session}`),
      status: 200,
      why: widget,
    },
  };
}

/** The not-yet families the app answers for every method. */
export const NOT_YET_FAMILIES: readonly (MissingCall & { methods: "ALL" })[] = MISSING_CALLS.filter((
  family,
): family is MissingCall & { methods: "ALL" } => family.methods === "ALL");

/**
 * The app's `ALL` routes that are not a not-yet family: middleware, and the JSON 404 of unknown API paths.
 * authorization_test.ts fails on any other `ALL` route, which would otherwise escape the table.
 */
export const MIDDLEWARE: Record<string, string> = {
  "ALL /*": "request log, secure headers, CORS, origin guard and page rendering (server/app.ts)",
  "ALL /api/*": "body limits, the session guard, the JSON 404 of an unknown API path (server/app.ts)",
  "ALL /api/system/update-env": "re-embedding after a saved embedder change (server/embedding/routes.ts)",
  "ALL /api/admin/*": "multi-user only, then users:manage (server/admin_routes.ts)",
  "ALL /api/community-hub/*": "settings:manage (server/system/community_hub.ts)",
  "ALL /api/v1": "the developer API's key guard (server/developer_api/guard.ts)",
  "ALL /api/v1/*":
    "the developer API's key guard and the JSON 404 of an unknown /api/v1 path (server/developer_api/routes.ts)",
};

/**
 * The browser extension (server/browser_extension/): the screen's key calls for admins only (spec 02's route
 * table), and the extension's own calls, public to the session guard but authenticated by the extension's key
 * (`brx-…`): without one they answer 403 `No valid API key found.` (server/browser_extension/routes_test.ts
 * covers them with keys).
 */
function browserExtensionRows(): Record<string, RouteRule> {
  const why = "settings:manage (spec 02's route table: /settings/browser-extension is admin-only)";
  const withKey =
    "public with a key: the extension's key (brx-…), not a session, decides; none sent here, so 403";
  const page = { textContent: "The harbour opens at seven.", metadata: { title: "Harbour" } };
  return {
    "POST /api/export-chat/:type": {
      least: "default",
      call: (w, as) =>
        post("/api/export-chat/markdown", { workspaceSlug: w.team.slug, threadSlug: w.threads[own(as)] }),
      status: 200,
      why: "the reference: any signed-in user, for their own chats of a workspace and thread they may see",
    },
    "GET /api/browser-extension/api-keys": {
      least: "admin",
      call: () => get("/api/browser-extension/api-keys"),
      status: 200,
      why,
    },
    "POST /api/browser-extension/api-keys/new": {
      least: "admin",
      call: () => post("/api/browser-extension/api-keys/new"),
      status: 200,
      why,
    },
    "DELETE /api/browser-extension/api-keys/:id": {
      least: "admin",
      call: () => del(`/api/browser-extension/api-keys/${UNKNOWN_ID}`),
      status: 404,
      why,
    },
    "GET /api/browser-extension/check": {
      least: "public",
      call: () => get("/api/browser-extension/check"),
      status: 403,
      why: withKey,
    },
    "GET /api/browser-extension/workspaces": {
      least: "public",
      call: () => get("/api/browser-extension/workspaces"),
      status: 403,
      why: withKey,
    },
    "DELETE /api/browser-extension/disconnect": {
      least: "public",
      call: () => del("/api/browser-extension/disconnect"),
      status: 403,
      why: withKey,
    },
    "POST /api/browser-extension/upload-content": {
      least: "public",
      call: () => post("/api/browser-extension/upload-content", page),
      status: 403,
      why: withKey,
    },
    "POST /api/browser-extension/embed-content": {
      least: "public",
      call: (w) => post("/api/browser-extension/embed-content", { ...page, workspaceId: w.team.id }),
      status: 403,
      why: withKey,
    },
  };
}

/**
 * Every route the app serves (`createApp(deps).routes`, method ALL left out), with the least role allowed in
 * multi-user mode. Sources: server/http/auth_guard.ts (the session guard on everything after the public
 * routes), requirePermission in each route file with shared/roles.ts, and
 * docs/api-compat.md#roles-and-route-guards. Per-object rules (membership, own threads/chats/presets) are in
 * authorization_test.ts.
 */
export const ROUTES: Record<string, RouteRule> = {
  // --- public: before the session guard (server/app.ts mounts them first) ---
  "GET /api/ping": { least: "public", call: () => get("/api/ping"), status: 200, why: "the reference" },
  ...developerApiDocs(),
  "GET /api/utils/metrics": {
    least: "public",
    call: () => get("/api/utils/metrics"),
    status: 200,
    why: "the reference: no auth (the settings sidebar reads the version before it has a token)",
  },
  "GET /api/system/support-email": {
    least: "public",
    call: () => get("/api/system/support-email"),
    status: 200,
    why:
      "branding shown before login (the reference has it behind login; Lectern serves it openly on purpose)",
  },
  "GET /api/system/custom-app-name": {
    least: "public",
    call: () => get("/api/system/custom-app-name"),
    status: 200,
    why: "the reference: none",
  },
  "GET /api/system/footer-data": {
    least: "public",
    call: () => get("/api/system/footer-data"),
    status: 200,
    why:
      "branding shown before login (the reference has it behind login; Lectern serves it openly on purpose)",
  },
  "GET /api/system/is-default-logo": {
    least: "public",
    call: () => get("/api/system/is-default-logo"),
    status: 200,
    why: "the reference: none",
  },
  "GET /api/system/logo": {
    least: "public",
    call: () => get("/api/system/logo"),
    status: 200,
    why: "the reference: none",
  },
  "POST /api/system/upload-logo": {
    least: "admin",
    call: () => ({
      method: "POST",
      path: "/api/system/upload-logo",
      form: () => {
        const form = new FormData();
        form.append("logo", picture());
        return form;
      },
    }),
    status: 200,
    why: "settings:manage: /settings/appearance is admin only (the reference lets managers upload too)",
  },
  "GET /api/system/remove-logo": {
    least: "admin",
    call: () => get("/api/system/remove-logo"),
    status: 200,
    why: "settings:manage: /settings/appearance is admin only (the reference lets managers remove too)",
  },
  "GET /api/system/welcome-messages": {
    least: "default",
    call: () => get("/api/system/welcome-messages"),
    status: 200,
    why: "the home page shows them to everyone signed in (the reference: all roles)",
  },
  "POST /api/system/set-welcome-messages": {
    least: "admin",
    call: () => post("/api/system/set-welcome-messages", { messages: [{ user: "Hi", response: "Hello." }] }),
    status: 200,
    why: "settings:manage: /settings/appearance is admin only (the reference: admin or manager)",
  },
  "GET /api/onboarding": {
    least: "public",
    call: () => get("/api/onboarding"),
    status: 200,
    why: "the reference: none",
  },
  "GET /api/setup-complete": {
    least: "public",
    call: () => get("/api/setup-complete"),
    status: 200,
    why: "a Lectern decision: only the login screen's fields before login",
  },
  "POST /api/request-token": {
    least: "public",
    call: () => post("/api/request-token", { username: "nobody", password: "wrong-password" }),
    status: 401,
    why: "login (a wrong login is 401 with the reference's body: a Lectern decision status codes)",
  },
  "GET /api/request-token/sso/simple": {
    least: "public",
    call: () => get("/api/request-token/sso/simple?token=lectern-tat-unknown"),
    status: 401,
    why: "single sign-on landing; an unknown token is 401 (the reference)",
  },
  "GET /api/request-token/sso/oidc": {
    least: "public",
    call: () => get("/api/request-token/sso/oidc?token=lectern-tat-unknown"),
    status: 403,
    why: "the end of an OpenID Connect login; refused while OIDC login is off (a Lectern addition, issue 24)",
  },
  "GET /api/auth/oidc/login": {
    least: "public",
    call: () => get("/api/auth/oidc/login"),
    status: 302,
    why: "starts an OpenID Connect login: a redirect to the provider, or to /sso/oidc?error= while it is off",
  },
  "GET /api/auth/oidc/callback": {
    least: "public",
    call: () => get("/api/auth/oidc/callback?code=x&state=y"),
    status: 302,
    why: "the provider's answer: checked against this browser's login cookie, refusals redirect to /sso/oidc",
  },
  "GET /api/system/multi-user-mode": {
    least: "public",
    call: () => get("/api/system/multi-user-mode"),
    status: 200,
    why: "the reference: none",
  },
  "POST /api/system/recover-account": {
    least: "public",
    call: () =>
      post("/api/system/recover-account", {
        username: "nobody",
        recoveryCodes: [crypto.randomUUID(), crypto.randomUUID()],
      }),
    status: 400,
    why: "the reference: before login",
  },
  "POST /api/system/reset-password": {
    least: "public",
    call: () =>
      post("/api/system/reset-password", {
        token: crypto.randomUUID(),
        newPassword: "new-password-1",
        confirmPassword: "new-password-1",
      }),
    status: 400,
    why: "the reference: before login",
  },
  "GET /api/invite/:code": {
    least: "public",
    call: (w) => get(`/api/invite/${w.invite.code}`),
    status: 200,
    why: "the reference: public",
  },
  "POST /api/invite/:code": {
    least: "public",
    call: () => post("/api/invite/no-such-code", { username: "newcomer", password: "newcomer-password" }),
    status: 404,
    why: "the reference: public",
  },
  "GET /static/assets/*": {
    least: "public",
    call: () => get("/static/assets/no-such-file.js"),
    status: 404,
    why: "built client assets",
  },
  "GET /favicon.svg": { least: "public", call: () => get("/favicon.svg"), status: 200, why: "icon" },
  "GET /embed/lectern-chat-widget.min.js": {
    least: "public",
    call: () => get("/embed/lectern-chat-widget.min.js"),
    status: 200,
    why: "the chat widget's script, which other web sites load (the reference serves it publicly)",
  },
  "GET /robots.txt": { least: "public", call: () => get("/robots.txt"), status: 200, why: "robots" },
  "GET /*": {
    least: "public",
    call: () => get("/login"),
    status: 200,
    why: "page shells; data behind a login is loaded by the islands with the token (a Lectern decision)",
  },

  // --- any signed-in user ---
  "GET /api/system/check-token": {
    least: "default",
    call: () => get("/api/system/check-token"),
    status: 200,
    why: "the reference",
  },
  "GET /api/system/refresh-user": {
    least: "default",
    call: () => get("/api/system/refresh-user"),
    status: 200,
    why: "the reference",
  },
  "POST /api/system/user": {
    least: "default",
    call: () => post("/api/system/user", { bio: "Changed by the caller" }),
    status: 200,
    why: "own account (the reference)",
  },
  "POST /api/system/upload-pfp": {
    least: "default",
    call: () => upload("/api/system/upload-pfp", picture),
    status: 200,
    why: "own picture (the reference)",
  },
  "GET /api/system/pfp/:id": {
    least: "default",
    call: (w, as) => get(`/api/system/pfp/${w.ids[own(as)]}`),
    status: 200,
    why: "own picture only (the reference)",
  },
  "DELETE /api/system/remove-pfp": {
    least: "default",
    call: () => del("/api/system/remove-pfp"),
    status: 200,
    why: "own picture (the reference)",
  },
  "GET /api/system/accepted-document-types": {
    least: "default",
    call: () => get("/api/system/accepted-document-types"),
    status: 200,
    why: "the reference: VR",
  },
  "GET /api/workspaces": { least: "default", call: () => get("/api/workspaces"), status: 200, why: "" },
  "GET /api/workspace/:slug": {
    least: "default",
    call: (w) => get(team(w)),
    status: 200,
    why: "every role that sees the workspace",
  },
  "GET /api/workspace/:slug/suggested-messages": {
    least: "default",
    call: (w) => get(`${team(w)}/suggested-messages`),
    status: 200,
    why: "the reference: VR *",
  },
  "GET /api/workspace/:slug/pfp": {
    least: "default",
    call: (w) => get(`${team(w)}/pfp`),
    status: 204,
    why: "workspace picture for its members",
  },
  "GET /api/workspace/:slug/tts/:chatId": {
    least: "default",
    call: (w, as) => get(`${team(w)}/tts/${w.chats[own(as)]}`),
    status: 204,
    why: "the reference: VR *, the caller's own chat (the browser's voice by default: 204, no audio)",
  },
  "POST /api/system/transcribe-audio": {
    least: "default",
    call: () => ({
      method: "POST",
      path: "/api/system/transcribe-audio",
      form: () => {
        const form = new FormData();
        form.append(
          "audio",
          new File([new Uint8Array([82, 73, 70, 70])], "recording.wav", { type: "audio/wav" }),
        );
        return form;
      },
    }),
    status: 400,
    why: "the reference: VR * (server transcription off by default: 400 with its sentence)",
  },
  "GET /api/workspace/:slug/is-agent-command-available": {
    least: "default",
    call: (w) => get(`${team(w)}/is-agent-command-available`),
    status: 200,
    why: "the reference: VR *",
  },
  "GET /api/system/document-processing-status": {
    least: "default",
    call: () => get("/api/system/document-processing-status"),
    status: 200,
    why: "the reference: VR (the chat screen asks it)",
  },
  "GET /api/workspace/:slug/chats": {
    least: "default",
    call: (w) => get(`${team(w)}/chats`),
    status: 200,
    why: "the reference: VR *",
  },
  "POST /api/workspace/:slug/stream-chat": {
    least: "default",
    call: (w) => post(`${team(w)}/stream-chat`, { message: "When does the harbour open?" }),
    status: 200,
    why: "chatting is for every role (the reference)",
  },
  "GET /api/workspace/:slug/threads": {
    least: "default",
    call: (w) => get(`${team(w)}/threads`),
    status: 200,
    why: "the reference",
  },
  "POST /api/workspace/:slug/thread/new": {
    least: "default",
    call: (w) => post(`${team(w)}/thread/new`),
    status: 200,
    why: "the reference",
  },
  "GET /api/workspace/:slug/thread/:threadSlug/chats": {
    least: "default",
    call: (w, as) => get(`${ownThread(w, as)}/chats`),
    status: 200,
    why: "the reference, own thread",
  },
  "POST /api/workspace/:slug/thread/:threadSlug/stream-chat": {
    least: "default",
    call: (w, as) => post(`${ownThread(w, as)}/stream-chat`, { message: "When does the harbour open?" }),
    status: 200,
    why: "the reference, own thread",
  },
  "POST /api/workspace/:slug/thread/:threadSlug/update": {
    least: "default",
    call: (w, as) => post(`${ownThread(w, as)}/update`, { name: "Renamed thread" }),
    status: 200,
    why: "the reference, own thread",
  },
  "DELETE /api/workspace/:slug/thread/:threadSlug": {
    least: "default",
    call: (w, as) => del(ownThread(w, as)),
    pass: (w) => del(`${team(w)}/thread/no-such-thread`),
    status: 404,
    why: "the reference, own thread",
  },
  "DELETE /api/workspace/:slug/thread-bulk-delete": {
    least: "default",
    call: (w, as) => del(`${team(w)}/thread-bulk-delete`, { slugs: [w.threads[own(as)]] }),
    pass: (w) => del(`${team(w)}/thread-bulk-delete`, { slugs: ["no-such-thread"] }),
    status: 200,
    why: "the reference, own threads",
  },
  "POST /api/workspace/:slug/thread/fork": {
    least: "default",
    call: (w, as) => post(`${team(w)}/thread/fork`, { chatId: w.chats[own(as)] }),
    status: 200,
    why: "the reference: VR *",
  },
  "DELETE /api/workspace/:slug/delete-edited-chats": {
    least: "default",
    call: (w, as) => del(`${team(w)}/delete-edited-chats`, { startingId: w.chats[own(as)] }),
    pass: (w) => del(`${team(w)}/delete-edited-chats`, { startingId: UNKNOWN_ID }),
    status: 200,
    why: "the reference: VR *, own chats",
  },
  "POST /api/workspace/:slug/update-chat": {
    least: "default",
    call: (w, as) =>
      post(`${team(w)}/update-chat`, { chatId: w.chats[own(as)], newText: "Edited text", role: "user" }),
    status: 200,
    why: "the reference: VR *, own chats",
  },
  "DELETE /api/workspace/:slug/thread/:threadSlug/delete-edited-chats": {
    least: "default",
    call: (w, as) => del(`${ownThread(w, as)}/delete-edited-chats`, { startingId: w.threadChats[own(as)] }),
    pass: (w, as) => del(`${ownThread(w, as)}/delete-edited-chats`, { startingId: UNKNOWN_ID }),
    status: 200,
    why: "the reference, own thread",
  },
  "POST /api/workspace/:slug/thread/:threadSlug/update-chat": {
    least: "default",
    call: (w, as) =>
      post(`${ownThread(w, as)}/update-chat`, {
        chatId: w.threadChats[own(as)],
        newText: "Edited text",
        role: "assistant",
      }),
    status: 200,
    why: "the reference, own thread",
  },
  "DELETE /api/workspace/:slug/delete-chats": {
    least: "default",
    call: (w, as) => del(`${team(w)}/delete-chats`, { chatIds: [w.chats[own(as)]] }),
    pass: (w) => del(`${team(w)}/delete-chats`, { chatIds: [UNKNOWN_ID] }),
    status: 200,
    why: "the reference: VR *, own chats",
  },
  "POST /api/workspace/:slug/chat-feedback/:chatId": {
    least: "default",
    call: (w, as) => post(`${team(w)}/chat-feedback/${w.chats[own(as)]}`, { feedback: true }),
    status: 200,
    why: "the reference: VR *, own chats",
  },
  "PUT /api/workspace/workspace-chats/:id": {
    least: "default",
    call: (w, as) => put(`/api/workspace/workspace-chats/${w.threadChats[own(as)]}`),
    status: 200,
    why: "the reference: VR *, own chats",
  },
  "GET /api/system/slash-command-presets": {
    least: "default",
    call: () => get("/api/system/slash-command-presets"),
    status: 200,
    why: "the reference: VR *, own presets",
  },
  "POST /api/system/slash-command-presets": {
    least: "default",
    call: () => post("/api/system/slash-command-presets", { command: "/harbour", prompt: "Harbour times?" }),
    status: 201,
    why: "the reference: VR *",
  },
  "POST /api/system/slash-command-presets/:id": {
    least: "default",
    call: (w, as) =>
      post(`/api/system/slash-command-presets/${w.presets[own(as)]}`, {
        command: "/renamed",
        prompt: "New.",
      }),
    status: 200,
    why: "the reference: VR *, own preset",
  },
  "DELETE /api/system/slash-command-presets/:id": {
    least: "default",
    call: (w, as) => del(`/api/system/slash-command-presets/${w.presets[own(as)]}`),
    status: 204,
    why: "the reference: VR *, own preset",
  },

  "GET /api/workspace/:slug/parsed-files": {
    least: "default",
    call: (w, as) => get(`${team(w)}/parsed-files?threadSlug=${w.threads[own(as)]}`),
    status: 200,
    why: "the reference: VR *, own files of a workspace the caller sees (authorization_test.ts)",
  },
  "POST /api/workspace/:slug/parse": {
    least: "default",
    call: (w, as) => upload(`${team(w)}/parse`, textFile, { threadSlug: w.threads[own(as)] }),
    status: 200,
    why: "the reference: VR * (attaching a file to one's own chat)",
  },
  "DELETE /api/workspace/:slug/delete-parsed-files": {
    least: "default",
    call: (w, as) => del(`${team(w)}/delete-parsed-files`, { fileIds: [w.parsedFiles[own(as)]] }),
    pass: (w) => del(`${team(w)}/delete-parsed-files`, { fileIds: [UNKNOWN_ID] }),
    // None of the ids is the caller's: 404 (the reference answers 403; authorization_test.ts).
    status: 404,
    why: "the reference: VR *, own files only",
  },
  "POST /api/workspace/search": {
    least: "default",
    call: () => post("/api/workspace/search", { searchTerm: "Thread" }),
    status: 200,
    why: "the reference: VR *, over what the caller sees (authorization_test.ts)",
  },
  "GET /api/workspace/:slug/prompt-history": {
    least: "default",
    call: (w) => get(`${team(w)}/prompt-history`),
    status: 200,
    why: "the reference: VR * (members of the workspace)",
  },
  "GET /api/system/default-system-prompt": {
    least: "default",
    call: () => get("/api/system/default-system-prompt"),
    status: 200,
    why: "the reference: VR *",
  },
  "GET /api/system/prompt-variables": {
    least: "default",
    call: () => get("/api/system/prompt-variables"),
    status: 200,
    why: "the reference: VR * (read)",
  },

  // --- admins and managers ---
  "GET /api/system/embedding-jobs": {
    least: "manager",
    call: () => get("/api/system/embedding-jobs"),
    status: 200,
    why: "embedder screen: the reference's settings/embedding-preference is admin or manager",
  },
  "GET /api/system/native-embedding-models": {
    least: "manager",
    call: () => get("/api/system/native-embedding-models"),
    status: 200,
    why: "embedder screen, admin or manager",
  },
  "GET /api/admin/system-preferences-for": {
    least: "manager",
    call: () => get("/api/admin/system-preferences-for?labels=text_splitter_chunk_size"),
    status: 200,
    why: "the reference: flex A,M",
  },
  "GET /api/admin/users": {
    least: "manager",
    call: () => get("/api/admin/users"),
    status: 200,
    why: "the reference: strict A,M (the members tab of a workspace, admin or manager, lists users)",
  },
  "POST /api/admin/user/:id": {
    least: "manager",
    call: (w) => post(`/api/admin/user/${w.ids.eve}`, { suspended: true }),
    pass: (w) => post(`/api/admin/user/${w.ids.eve}`, { bio: "Set by an admin or manager" }),
    status: 200,
    why: "the reference: strict A,M; managers never on admins (authorization_test.ts)",
  },
  "DELETE /api/admin/user/:id": {
    least: "manager",
    call: (w) => del(`/api/admin/user/${w.ids.eve}`),
    pass: () => del(`/api/admin/user/${UNKNOWN_ID}`),
    status: 404,
    why: "the reference: strict A,M; managers never on admins",
  },
  "GET /api/admin/workspaces/:id/users": {
    least: "manager",
    call: (w) => get(`/api/admin/workspaces/${w.team.id}/users`),
    status: 200,
    why: "workspace members tab: the reference allows admin or manager",
  },
  "POST /api/admin/workspaces/:id/update-users": {
    least: "manager",
    call: (w) =>
      post(`/api/admin/workspaces/${w.vault.id}/update-users`, {
        userIds: [w.ids.admin, w.ids.eve, w.ids.default],
      }),
    pass: (w) =>
      post(`/api/admin/workspaces/${w.vault.id}/update-users`, { userIds: [w.ids.admin, w.ids.eve] }),
    status: 200,
    why: "workspace members tab: admin or manager",
  },
  "POST /api/workspace/new": {
    least: "manager",
    call: (_w, as) => post("/api/workspace/new", { name: `Made by ${as}` }),
    status: 200,
    why: "the reference: VR A,M",
  },
  "POST /api/workspace/:slug/update": {
    least: "manager",
    call: (w) => post(`${team(w)}/update`, { openAiHistory: 3, openAiPrompt: "Answer in French." }),
    status: 200,
    why: "workspace settings: the reference allows admin or manager",
  },
  "DELETE /api/workspace/:slug": {
    least: "manager",
    call: (w) => del(team(w)),
    pass: () => del("/api/workspace/no-such-workspace"),
    status: 404,
    why: "the reference: VR A,M",
  },
  "DELETE /api/workspace/:slug/reset-vector-db": {
    least: "manager",
    call: (w) => del(`${team(w)}/reset-vector-db`),
    pass: () => del("/api/workspace/no-such-workspace/reset-vector-db"),
    status: 404,
    why: "the reference: VR A,M",
  },
  "POST /api/workspace/:slug/suggested-messages": {
    least: "manager",
    call: (w) => post(`${team(w)}/suggested-messages`, { messages: [{ heading: "Hi", message: "Ask me" }] }),
    status: 200,
    why: "the reference: VR A,M",
  },
  "POST /api/workspace/:slug/upload-pfp": {
    least: "manager",
    call: (w) => upload(`${team(w)}/upload-pfp`, picture),
    status: 200,
    why: "workspace settings: admin or manager",
  },
  "DELETE /api/workspace/:slug/remove-pfp": {
    least: "manager",
    call: (w) => del(`${team(w)}/remove-pfp`),
    status: 200,
    why: "workspace settings: admin or manager",
  },
  "GET /api/workspace/:slug/my-role": {
    least: "default",
    call: (w) => get(`${team(w)}/my-role`),
    status: 200,
    why: "Lectern: a member's own role in the workspace (server/workspaces/member_routes.ts)",
  },
  "GET /api/workspace/:slug/members": {
    least: "manager",
    call: (w) => get(`${team(w)}/members`),
    status: 200,
    why: "Lectern: the workspace's owners, admins and managers (Dora is a viewer of team)",
  },
  "POST /api/workspace/:slug/members": {
    least: "manager",
    call: (w) => post(`${team(w)}/members`, { members: [{ userId: w.ids.default, role: "owner" }] }),
    pass: (w) =>
      post("/api/workspace/no-such-workspace/members", {
        members: [{ userId: w.ids.default, role: "owner" }],
      }),
    status: 404,
    why: "Lectern: the workspace's owners, admins and managers (Dora is a viewer of team)",
  },
  "GET /api/system/system-vectors": {
    least: "manager",
    call: (w) => get(`/api/system/system-vectors?slug=${w.team.slug}`),
    status: 200,
    why: "the reference: VR A,M",
  },
  "POST /api/workspace/:slug/upload": {
    least: "manager",
    call: (w) => upload(`${team(w)}/upload`, textFile),
    pass: () => upload("/api/workspace/no-such-workspace/upload", textFile),
    status: 404,
    why: "the reference: VR A,M",
  },
  "POST /api/workspace/:slug/upload-link": {
    least: "manager",
    call: (w) => post(`${team(w)}/upload-link`, { link: "http://127.0.0.1:9/notice" }),
    pass: () => post("/api/workspace/no-such-workspace/upload-link", { link: "http://127.0.0.1:9/notice" }),
    status: 404,
    why: "the reference: VR A,M",
  },
  "POST /api/workspace/:slug/upload-and-embed": {
    least: "manager",
    call: (w) => upload(`${team(w)}/upload-and-embed`, textFile),
    pass: () => upload("/api/workspace/no-such-workspace/upload-and-embed", textFile),
    status: 404,
    why: "the reference: VR A,M",
  },
  "POST /api/workspace/:slug/update-embeddings": {
    least: "manager",
    call: (w) => post(`${team(w)}/update-embeddings`, { adds: [], deletes: [w.linkDoc] }),
    pass: (w) =>
      post("/api/workspace/no-such-workspace/update-embeddings", { adds: [], deletes: [w.linkDoc] }),
    status: 404,
    why: "the reference: VR A,M",
  },
  "GET /api/system/local-files": {
    least: "manager",
    call: () => get("/api/system/local-files?folder=archive"),
    status: 200,
    why: "the reference: VR A,M",
  },
  "GET /api/system/local-files/search": {
    least: "manager",
    call: () => get("/api/system/local-files/search?q=harbour"),
    status: 200,
    why: "the reference: VR A,M",
  },
  "DELETE /api/system/remove-document": {
    least: "manager",
    call: (w) => del("/api/system/remove-document", { name: w.archiveDoc }),
    pass: () => del("/api/system/remove-document", { name: "archive/no-such-document.json" }),
    status: 404,
    why: "the reference: VR A,M",
  },
  "DELETE /api/system/remove-documents": {
    least: "manager",
    call: (w) => del("/api/system/remove-documents", { names: [w.archiveDoc] }),
    pass: () => del("/api/system/remove-documents", { names: ["archive/no-such-document.json"] }),
    status: 200,
    why: "the reference: VR A,M",
  },
  "DELETE /api/system/remove-folder": {
    least: "manager",
    call: () => del("/api/system/remove-folder", { name: "archive" }),
    pass: () => del("/api/system/remove-folder", { name: "no-such-folder" }),
    status: 404,
    why: "the reference: VR A,M",
  },
  "POST /api/document/create-folder": {
    least: "manager",
    call: (_w, as) => post("/api/document/create-folder", { name: `folder-of-${as}` }),
    status: 200,
    why: "the reference: VR A,M",
  },
  "POST /api/document/move-files": {
    least: "manager",
    call: (w) =>
      post("/api/document/move-files", {
        files: [{ from: w.archiveDoc, to: `custom-documents/${w.archiveDoc.split("/")[1]}` }],
      }),
    pass: () =>
      post("/api/document/move-files", {
        files: [{ from: "archive/no-such-document.json", to: "custom-documents/no-such-document.json" }],
      }),
    status: 200,
    why: "the reference: VR A,M",
  },
  "DELETE /api/workspace/:slug/remove-and-unembed": {
    least: "manager",
    call: (w) => del(`${team(w)}/remove-and-unembed`, { documentLocation: w.linkDoc }),
    pass: (w) => del("/api/workspace/no-such-workspace/remove-and-unembed", { documentLocation: w.linkDoc }),
    status: 404,
    why: "the reference: VR A,M",
  },
  "POST /api/workspace/:slug/update-pin": {
    least: "manager",
    call: (w) => post(`${team(w)}/update-pin`, { docPath: w.linkDoc, pinStatus: false }),
    pass: (w) => post(`${team(w)}/update-pin`, { docPath: w.linkDoc, pinStatus: true }),
    status: 200,
    why: "the reference: VR A,M",
  },
  "POST /api/workspace/:slug/update-watch-status": {
    least: "manager",
    call: (w) => post(`${team(w)}/update-watch-status`, { docPath: w.linkDoc, watchStatus: false }),
    pass: (w) => post(`${team(w)}/update-watch-status`, { docPath: w.linkDoc, watchStatus: true }),
    status: 200,
    why: "live document sync manage screen: the reference allows admin or manager",
  },
  "GET /api/experimental/live-sync": {
    least: "manager",
    call: () => get("/api/experimental/live-sync"),
    status: 200,
    why: "beta features: the reference allows admin or manager",
  },
  "POST /api/experimental/toggle-live-sync": {
    least: "manager",
    call: () => post("/api/experimental/toggle-live-sync", { updatedStatus: true }),
    pass: () => post("/api/experimental/toggle-live-sync", { updatedStatus: false }),
    status: 200,
    why: "beta features: the reference allows admin or manager",
  },
  "GET /api/experimental/live-sync/queues": {
    least: "manager",
    call: () => get("/api/experimental/live-sync/queues"),
    status: 200,
    why: "the reference's live-document-sync/manage: admin or manager",
  },
  "POST /api/experimental/live-sync/queues/:id/sync-now": {
    least: "manager",
    call: (w) => post(`/api/experimental/live-sync/queues/${w.queueId}/sync-now`),
    status: 409,
    why: "the reference: admin or manager (live sync is off here, hence 409)",
  },
  "DELETE /api/experimental/live-sync/queues/:id": {
    least: "manager",
    call: (w) => del(`/api/experimental/live-sync/queues/${w.queueId}`),
    pass: () => del(`/api/experimental/live-sync/queues/${UNKNOWN_ID}`),
    status: 404,
    why: "the reference: admin or manager",
  },

  "POST /api/ext/github/branches": {
    least: "manager",
    call: () => post("/api/ext/github/branches", { repo: "http://127.0.0.1:9/octo/tides" }),
    status: 200,
    why:
      "data connectors: the reference's flexUserRoleValid([admin, manager]) (the guard then refuses loopback)",
  },
  "POST /api/ext/github/repo": {
    least: "manager",
    call: () => post("/api/ext/github/repo", { repo: "http://127.0.0.1:9/octo/tides" }),
    status: 200,
    why: "data connectors: the reference's flexUserRoleValid([admin, manager])",
  },
  "POST /api/ext/gitlab/branches": {
    least: "manager",
    call: () => post("/api/ext/gitlab/branches", { repo: "http://127.0.0.1:9/group/project" }),
    status: 200,
    why: "data connectors: the reference's flexUserRoleValid([admin, manager])",
  },
  "POST /api/ext/gitlab/repo": {
    least: "manager",
    call: () => post("/api/ext/gitlab/repo", { repo: "http://127.0.0.1:9/group/project" }),
    status: 200,
    why: "data connectors: the reference's flexUserRoleValid([admin, manager])",
  },
  "POST /api/ext/youtube/transcript": {
    least: "manager",
    call: () => post("/api/ext/youtube/transcript", { url: "not a video" }),
    status: 200,
    why:
      "data connectors: the reference's flexUserRoleValid([admin, manager]) (a bad link fails before any fetch)",
  },
  "POST /api/ext/website-depth": {
    least: "manager",
    call: () => post("/api/ext/website-depth", { url: "http://127.0.0.1:9/", depth: 1, maxLinks: 1 }),
    status: 200,
    why:
      "data connectors: the reference's flexUserRoleValid([admin, manager]) (the guard then refuses loopback)",
  },
  "POST /api/ext/confluence": {
    least: "manager",
    call: () => post("/api/ext/confluence", { baseUrl: "http://127.0.0.1:9", spaceKey: "DOCS" }),
    status: 200,
    why:
      "data connectors: the reference's flexUserRoleValid([admin, manager]) (no credentials: refused at once)",
  },
  "GET /api/ext/imports": {
    least: "manager",
    call: () => get("/api/ext/imports"),
    status: 200,
    why: "Lectern's import progress of the data connectors: whoever may start an import",
  },
  "GET /api/ext/imports/:id": {
    least: "manager",
    call: () => get(`/api/ext/imports/${UNKNOWN_ID}`),
    status: 404,
    why: "Lectern's import progress of the data connectors: whoever may start an import",
  },

  "POST /api/system/local-files/by-docpaths": {
    least: "manager",
    call: (w) => post("/api/system/local-files/by-docpaths", { docpaths: [w.archiveDoc, w.linkDoc] }),
    status: 200,
    why: "the reference: VR A,M",
  },
  "GET /api/workspace/:slug/embed-progress": {
    least: "manager",
    call: (w) => get(`${team(w)}/embed-progress`),
    // The stream stays open while nothing runs: an allowed caller asks HEAD, which answers the headers alone.
    pass: (w) => ({ method: "HEAD", path: `${team(w)}/embed-progress` }),
    status: 200,
    why: "the reference: VR A,M (embedding is documents:manage)",
  },
  "DELETE /api/workspace/:slug/embed-queue": {
    least: "manager",
    call: (w) => del(`${team(w)}/embed-queue`, { filename: w.linkDoc }),
    // Nothing is queued: {success:false}, 200.
    status: 200,
    why: "the reference: VR A,M",
  },
  "POST /api/workspace/:slug/embed-parsed-file/:fileId": {
    least: "manager",
    call: (w, as) => post(`${team(w)}/embed-parsed-file/${w.parsedFiles[own(as)]}`),
    pass: (w) => post(`${team(w)}/embed-parsed-file/${UNKNOWN_ID}`),
    status: 404,
    why:
      "documents:manage, as every embedding (the reference's guard, docs/api-compat.md; the reference says VR *)",
  },
  "DELETE /api/workspace/:slug/prompt-history": {
    least: "manager",
    call: (w) => del(`${team(w)}/prompt-history`),
    pass: () => del("/api/workspace/no-such-workspace/prompt-history"),
    status: 404,
    why: "the reference: A,M (workspace:manage)",
  },
  "DELETE /api/workspace/prompt-history/:id": {
    least: "manager",
    call: (w) => del(`/api/workspace/prompt-history/${w.teamHistory}`),
    pass: () => del(`/api/workspace/prompt-history/${UNKNOWN_ID}`),
    status: 404,
    why: "the reference: A,M (workspace:manage; they manage every workspace, so no membership check)",
  },
  "GET /api/admin/workspaces": {
    least: "manager",
    call: () => get("/api/admin/workspaces"),
    status: 200,
    why: "the reference: strict A,M",
  },
  "POST /api/admin/workspaces/new": {
    least: "manager",
    call: (_w, as) => post("/api/admin/workspaces/new", { name: `Admin-made by ${as}` }),
    status: 200,
    why: "the reference: strict A,M",
  },
  "DELETE /api/admin/workspaces/:id": {
    least: "manager",
    call: (w) => del(`/api/admin/workspaces/${w.vault.id}`),
    pass: () => del(`/api/admin/workspaces/${UNKNOWN_ID}`),
    status: 404,
    why: "the reference: strict A,M",
  },

  // --- admins only ---
  "GET /api/system/embedding-jobs/progress": {
    least: "admin",
    call: () => get("/api/system/embedding-jobs/progress"),
    status: 200,
    why: "settings:manage (Lectern's own call)",
  },
  "POST /api/system/embedding-jobs/retry": {
    least: "admin",
    call: () => post("/api/system/embedding-jobs/retry"),
    status: 200,
    why: "settings:manage (Lectern's own call)",
  },
  "POST /api/system/native-embedding-models/download": {
    least: "admin",
    // The built-in model: even without the guard nothing would be downloaded (no traffic leaves the machine).
    call: () => post("/api/system/native-embedding-models/download", { model: NATIVE_LEXICAL_MODEL }),
    status: 400,
    why: "settings:manage",
  },
  "GET /api/agents/settings": {
    least: "admin",
    call: () => get("/api/agents/settings"),
    status: 200,
    why:
      "settings:manage: the agents screen is for admins (issue 22); the reference's agent skills are admin-only",
  },
  "POST /api/agents/settings": {
    least: "admin",
    call: () => post("/api/agents/settings", { maxSteps: 8 }),
    status: 200,
    why: "settings:manage: the agents screen is for admins (issue 22)",
  },
  "GET /api/mcp-servers/list": {
    least: "admin",
    call: () => get("/api/mcp-servers/list"),
    status: 200,
    why: "settings:manage: MCP servers run commands on the server; the reference says admin only",
  },
  "GET /api/mcp-servers/force-reload": {
    least: "admin",
    call: () => get("/api/mcp-servers/force-reload"),
    status: 200,
    why: "settings:manage: stops the MCP servers; the reference says admin only",
  },
  "POST /api/mcp-servers/save": {
    least: "admin",
    // An HTTP server: saving starts nothing (the list would, and the address is loopback).
    call: () =>
      post("/api/mcp-servers/save", {
        name: "probe",
        server: { type: "streamable", url: "http://127.0.0.1:9/mcp" },
      }),
    status: 200,
    why:
      "settings:manage: a stdio server is a command run on the server, an operator's power (Lectern's own call)",
  },
  "POST /api/mcp-servers/toggle": {
    least: "admin",
    call: () => post("/api/mcp-servers/toggle", { name: "no-such-server" }),
    status: 200,
    why:
      "settings:manage; the reference says admin only (and answers 200 with success false for an unknown one)",
  },
  "POST /api/mcp-servers/delete": {
    least: "admin",
    call: () => post("/api/mcp-servers/delete", { name: "no-such-server" }),
    status: 200,
    why: "settings:manage; the reference says admin only",
  },
  "POST /api/mcp-servers/toggle-tool": {
    least: "admin",
    call: () =>
      post("/api/mcp-servers/toggle-tool", { serverName: "no-such-server", toolName: "x", enabled: true }),
    status: 200,
    why: "settings:manage; the reference says admin only",
  },
  "GET /api/agent-skills/filesystem-agent/is-available": {
    least: "default",
    call: () => get("/api/agent-skills/filesystem-agent/is-available"),
    status: 200,
    why:
      "the reference's check for any signed-in caller (validatedRequest); Lectern answers false (issue 22)",
  },
  "GET /api/agent-skills/create-files-agent/is-available": {
    least: "default",
    call: () => get("/api/agent-skills/create-files-agent/is-available"),
    status: 200,
    why:
      "the reference's check for any signed-in caller (validatedRequest); Lectern answers false (issue 22)",
  },
  "POST /api/system/validate-sql-connection": {
    least: "admin",
    // A file that does not exist: only told so, nothing is opened.
    call: () =>
      post("/api/system/validate-sql-connection", {
        engine: "sqlite",
        connectionString: "/nonexistent/lectern-probe.db",
      }),
    status: 200,
    why: "settings:manage: it opens files on the server; the reference says admin only",
  },
  "GET /api/agent-files/:id": {
    least: "default",
    call: () => get("/api/agent-files/00000000-0000-4000-8000-000000000000"),
    status: 404,
    why:
      "a file an agent saved is served only to its owner (issue 22); any signed-in user may ask for their own",
  },
  "GET /api/agent-invocation/:uuid": {
    least: "public",
    call: () => get("/api/agent-invocation/00000000-0000-4000-8000-000000000000"),
    status: 426,
    why:
      "the agent's socket: a browser sends no headers with it, so the invocation and the bearer. subprotocol are checked on the socket itself (server/agents/routes.ts)",
  },
  "POST /api/admin/system-preferences": {
    least: "admin",
    call: () => post("/api/admin/system-preferences", { text_splitter_chunk_size: 500 }),
    status: 200,
    why: "settings:manage; the reference says flex A,M (managers see the text splitter read-only)",
  },
  "POST /api/admin/user/:id/issue-auth-token": {
    least: "admin",
    call: (w) => post(`/api/admin/user/${w.ids.eve}/issue-auth-token`),
    status: 200,
    why: "a login link for any account: admin only",
  },
  "POST /api/admin/backup": {
    least: "admin",
    call: () => post("/api/admin/backup"),
    status: 200,
    why:
      "the whole instance (keys, every workspace's documents and chats) in one file: admin only (issue 19)",
  },
  "POST /api/admin/users/new": {
    least: "admin",
    call: (_w, as) => post("/api/admin/users/new", { username: `made-by-${as}`, password: "made-password" }),
    status: 200,
    why: "the reference: only an admin creates or invites users",
  },
  "GET /api/admin/invites": {
    least: "admin",
    call: () => get("/api/admin/invites"),
    status: 200,
    why: "settings/invites is admin only; pending codes create accounts (the reference)",
  },
  "POST /api/admin/invite/new": {
    least: "admin",
    call: (w) => post("/api/admin/invite/new", { workspaceIds: [w.vault.id] }),
    status: 200,
    why: "the reference: only an admin invites users",
  },
  "DELETE /api/admin/invite/:id": {
    least: "admin",
    call: (w) => del(`/api/admin/invite/${w.invite.id}`),
    pass: () => del(`/api/admin/invite/${UNKNOWN_ID}`),
    status: 404,
    why: "the reference's settings/invites admin only",
  },
  "POST /api/system/update-env": {
    least: "admin",
    call: () =>
      post("/api/system/update-env", {
        LLMProvider: "generic-openai",
        GenericOpenAiBasePath: "http://127.0.0.1:9/v1",
        GenericOpenAiModelPref: "fake-model",
        GenericOpenAiTokenLimit: "4096",
      }),
    status: 200,
    why: "the reference: VR A",
  },
  "POST /api/system/custom-models": {
    least: "admin",
    call: () =>
      post("/api/system/custom-models", { provider: "generic-openai", basePath: "http://127.0.0.1:9/v1" }),
    // Past the guard the lookup runs and finds nothing on the discard port: 502.
    status: 502,
    why: "the reference: VR A",
  },
  "POST /api/onboarding": {
    least: "admin",
    call: () => post("/api/onboarding"),
    status: 200,
    why: "instance setup: settings:manage",
  },
  "POST /api/onboarding/survey": {
    least: "admin",
    call: () => post("/api/onboarding/survey", { email: "owner@example.test", useCase: "job" }),
    status: 200,
    why: "instance setup: settings:manage",
  },
  "POST /api/system/update-password": {
    least: "admin",
    call: () => post("/api/system/update-password", { usePassword: true, newPassword: "instance-password" }),
    // In multi-user mode the instance password does not apply: the admin passes the guard and gets this 403.
    status: 403,
    why: "instance password: security screen, admin only",
  },
  "POST /api/system/enable-multi-user": {
    least: "admin",
    call: () =>
      post("/api/system/enable-multi-user", { username: "second-admin", password: "second-password" }),
    status: 400,
    why: "security screen, admin only (already on here: 400)",
  },
  "POST /api/system/default-system-prompt": {
    least: "admin",
    call: () => post("/api/system/default-system-prompt", { defaultSystemPrompt: "Answer in French." }),
    status: 200,
    why: "the reference: VR A",
  },
  "POST /api/system/prompt-variables": {
    least: "admin",
    call: (_w, as) => post("/api/system/prompt-variables", { key: `made_by_${as}`, value: "Quay 4" }),
    status: 200,
    why: "the reference: A",
  },
  "PUT /api/system/prompt-variables/:id": {
    least: "admin",
    call: (w, as) =>
      put(`/api/system/prompt-variables/${w.promptVariable}`, { key: `renamed_by_${as}`, value: "Quay 5" }),
    status: 200,
    why: "the reference: A",
  },
  "DELETE /api/system/prompt-variables/:id": {
    least: "admin",
    call: (w) => del(`/api/system/prompt-variables/${w.promptVariable}`),
    pass: () => del(`/api/system/prompt-variables/${UNKNOWN_ID}`),
    status: 404,
    why: "the reference: A",
  },
  // The Workspace Chats screen (server/workspace_chats/routes.ts): the route table's /settings/workspace-chats.
  "POST /api/system/workspace-chats": {
    least: "admin",
    call: () => post("/api/system/workspace-chats", { offset: 0 }),
    status: 200,
    why: "settings:manage; the spec's route table: /settings/workspace-chats admin only (the reference: A,M)",
  },
  "DELETE /api/system/workspace-chats/:id": {
    least: "admin",
    // A refused caller aims at every chat (-1); an allowed one at a chat that does not exist.
    call: () => del("/api/system/workspace-chats/-1"),
    pass: () => del(`/api/system/workspace-chats/${UNKNOWN_ID}`),
    status: 200,
    why: "settings:manage; the spec's route table: /settings/workspace-chats admin only (the reference: A,M)",
  },
  "GET /api/system/export-chats": {
    least: "admin",
    call: () => get("/api/system/export-chats?type=jsonl&chatType=workspace"),
    status: 200,
    why: "settings:manage; the spec's route table: /settings/workspace-chats admin only (the reference: A,M)",
  },
  ...communityHub(),
  ...apiKeyRows(),
  ...eventLogRows(),
  ...embedRows(),
  ...browserExtensionRows(),

  // --- features still to come: 501 with a sentence, to any caller past the guards in front of them ---
  ...notYetRows(),
};

/** Roles that pass a route, least first. */
export function allowedRoles(least: Least): Role[] {
  if (least === "admin") return ["admin"];
  if (least === "manager") return ["manager", "admin"];
  return ["default", "manager", "admin"];
}

/** Roles a route refuses in multi-user mode. */
export function refusedRoles(least: Least): Role[] {
  if (least === "admin") return ["default", "manager"];
  if (least === "manager") return ["default"];
  return [];
}
