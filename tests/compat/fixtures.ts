import assert from "node:assert/strict";
import { configuredTestApp, type TestApp } from "../../server/testing/test_app.ts";
import { type FakeOpenAi, startFakeOpenAi } from "../../server/testing/fake_openai.ts";
import { embedChats } from "../../db/schema.ts";

/**
 * The requests the reference's web frontend makes for each call of docs/api-compat.md, keyed `METHOD path` as
 * the table writes them, over a running Lectern with realistic state (the World). api_compat_test.ts makes
 * the calls of every row marked `answered`; the other fixtures wait for their row to flip.
 */

/** Who makes a call: a signed-in role of the multi-user instance, or nobody (no Authorization header). */
export type Who = "admin" | "manager" | "default" | "none";

/** One Lectern served over HTTP on loopback, with the sessions of its users (none on an open instance). */
export interface Server {
  app: TestApp;
  base: string;
  tokens: Record<Who, string | null>;
}

/** One request the frontend makes. */
export interface Call {
  method: string;
  /** Path and query, `/api/...`, with the parameters filled in. */
  path: string;
  json?: unknown;
  form?: FormData;
  /** Default: the admin of the multi-user instance. */
  as?: Who;
  /** Default: the multi-user instance. */
  server?: Server;
  /**
   * A refusal whose fields the frontend reads (`message` "on failure"): a 4xx other than 404 is expected.
   * A number is the exact status of a refusal the frontend meets in use (a 404 for something already gone).
   * Without it the call must succeed (2xx).
   */
  refusal?: boolean | number;
  /** `(ws)` calls: the caller's session token goes as the `bearer.` subprotocol (Lectern's client). */
  socketToken?: boolean;
}

export interface Fixture {
  /** Sets up what the call needs (fresh objects for destructive calls) and returns the calls to check. */
  calls(world: World): Promise<Call[]>;
  /** Fields of "Frontend reads" that this call never carries today, each with the reason (from the Note). */
  absent?: Record<string, string>;
  /** For `(blob)`: why an empty 204 is a valid answer here. */
  emptyBlob?: string;
  /** The status the frontend insists on (`check-token`: exactly 200). */
  status?: number;
}

export interface Ids {
  id: number;
  slug: string;
}

export interface Account {
  id: number;
  username: string;
  password: string;
  token: string;
  recoveryCodes: string[];
}

/** A 1×1 PNG, for profile pictures. */
const PNG = Uint8Array.from(
  atob(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  ),
  (character) => character.charCodeAt(0),
);

const PROPOSAL =
  "A modest proposal for the harbour library. The reading room opens at nine and closes at six.\n\n" +
  "Every member may borrow four books at a time; atlases and tide tables stay in the room.";

let counter = 0;
/** A name no other fixture uses, so fixtures never depend on each other's state. */
export const unique = (prefix: string) => `${prefix}${++counter}`;

/** The state the calls run against: a configured multi-user Lectern with a workspace, a thread, a document. */
export class World {
  readonly llm: FakeOpenAi;
  readonly site: Deno.HttpServer<Deno.NetAddr>;
  multi!: Server;
  /** An open single-user instance (no password): every caller is its admin. */
  open!: Server;
  workspace!: Ids;
  thread!: { slug: string };
  /** A document in the library, embedded in the workspace. */
  document!: string;
  /** Chats of the workspace's default thread and of the thread. */
  chatId!: number;
  threadChatId!: number;
  users!: Record<"manager" | "default", Account>;
  adminId!: number;
  #apps: TestApp[] = [];
  /** Requests left running on purpose (a call made while another one runs); awaited before closing. */
  readonly pending: Promise<unknown>[] = [];

  private constructor() {
    this.llm = startFakeOpenAi();
    // Stands for the web: upload-link fetches from here (through the resolver below, on loopback only).
    this.site = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen() {} },
      // Plain text: an HTML page is parsed in a child process that loads the HTML libraries, seconds each.
      () => new Response(PROPOSAL, { headers: { "content-type": "text/plain; charset=utf-8" } }),
    );
  }

  static async create(): Promise<World> {
    const world = new World();
    try {
      await world.#setUp();
    } catch (error) {
      await world.close();
      throw error;
    }
    return world;
  }

  async #setUp() {
    this.open = await this.openInstance();
    const app = await this.#app({ SIMPLE_SSO_ENABLED: "1" });
    const base = app.listen();
    const multi: Server = { app, base, tokens: { admin: null, manager: null, default: null, none: null } };
    this.multi = multi;
    const enabled = await this.api(multi, "POST", "/api/system/enable-multi-user", {
      as: "none",
      json: { username: "admin", password: "admin-password" },
    });
    multi.tokens.admin = enabled.token as string;
    this.adminId = (enabled.user as { id: number }).id;
    this.users = {
      manager: await this.newUser("manager"),
      default: await this.newUser("default"),
    };
    multi.tokens.manager = this.users.manager.token;
    multi.tokens.default = this.users.default.token;
    this.workspace = await this.newWorkspace("Harbour");
    this.thread = await this.newThread(this.workspace.slug);
    this.document = await this.upload(this.workspace.slug);
    await this.embed(this.workspace.slug, this.document);
    this.chatId = await this.chat(this.workspace.slug, null, "When does the reading room open?");
    this.threadChatId = await this.chat(
      this.workspace.slug,
      this.thread.slug,
      "How many books may I borrow?",
    );
  }

  async #app(env: Record<string, string> = {}): Promise<TestApp> {
    const app = await configuredTestApp({ llm: this.llm.baseURL, env });
    this.#apps.push(app);
    const site = this.site.addr.port;
    app.deps.linkFetch = {
      resolve: (hostname: string) =>
        Promise.resolve(hostname === "docs.example.test" ? ["93.184.215.14"] : []),
      fetch: ((input: URL | RequestInfo, init?: RequestInit) => {
        const url = new URL(input instanceof Request ? input.url : String(input));
        if (url.hostname !== "docs.example.test") {
          return Promise.reject(new Error(`The test network has no ${url.hostname}`));
        }
        return fetch(`http://127.0.0.1:${site}${url.pathname}${url.search}`, init);
      }) as typeof fetch,
    };
    return app;
  }

  /** A fresh open single-user instance, for the calls that change what kind of instance it is. */
  async openInstance(): Promise<Server> {
    const app = await this.#app();
    return { app, base: app.listen(), tokens: { admin: null, manager: null, default: null, none: null } };
  }

  /** Sends one request as the frontend would (JSON or multipart, the caller's Bearer token). */
  send(call: Call): Promise<Response> {
    const server = call.server ?? this.multi;
    const headers = new Headers();
    const token = server.tokens[call.as ?? "admin"];
    if (token) headers.set("Authorization", `Bearer ${token}`);
    let body: BodyInit | undefined;
    if (call.form) body = call.form;
    else if (call.json !== undefined) {
      headers.set("Content-Type", "application/json");
      body = JSON.stringify(call.json);
    }
    return fetch(`${server.base}${call.path}`, { method: call.method, headers, body });
  }

  /** A setup request that must succeed; its JSON answer. */
  async api(
    server: Server,
    method: string,
    path: string,
    options: { json?: unknown; form?: FormData; as?: Who } = {},
  ): Promise<Record<string, unknown>> {
    const response = await this.send({ method, path, server, ...options });
    const text = await response.text();
    assert.ok(response.ok, `setup ${method} ${path}: ${response.status} ${text}`);
    return text ? JSON.parse(text) : {};
  }

  /** A new user, created by the admin and (unless `login` is false) signed in once. */
  async newUser(role: "admin" | "manager" | "default", login = true): Promise<Account> {
    const username = unique(`${role}-user-`);
    const password = `${username}-password`;
    const created = await this.api(this.multi, "POST", "/api/admin/users/new", {
      json: { username, password, role },
    });
    const session = login
      ? await this.api(this.multi, "POST", "/api/request-token", { as: "none", json: { username, password } })
      : {};
    return {
      id: (created.user as { id: number }).id,
      username,
      password,
      token: (session.token as string | undefined) ?? "",
      recoveryCodes: (session.recoveryCodes as string[] | undefined) ?? [],
    };
  }

  async newWorkspace(name = unique("Workspace "), server = this.multi): Promise<Ids> {
    const created = await this.api(server, "POST", "/api/workspace/new", { json: { name } });
    const workspace = created.workspace as Ids;
    return { id: workspace.id, slug: workspace.slug };
  }

  async newThread(slug: string): Promise<{ slug: string }> {
    const created = await this.api(this.multi, "POST", `/api/workspace/${slug}/thread/new`);
    return { slug: (created.thread as { slug: string }).slug };
  }

  /** A text file as the upload form sends it. */
  fileForm(name = unique("notes-") + ".txt", text = PROPOSAL): FormData {
    const form = new FormData();
    form.append("file", new File([text], name, { type: "text/plain" }));
    return form;
  }

  pictureForm(): FormData {
    const form = new FormData();
    form.append("file", new File([PNG], "me.png", { type: "image/png" }));
    return form;
  }

  /** Uploads a document into the library; its location (`folder/file.json`). */
  async upload(slug = this.workspace.slug): Promise<string> {
    const answer = await this.api(this.multi, "POST", `/api/workspace/${slug}/upload`, {
      form: this.fileForm(),
    });
    return (answer.documents as { location: string }[])[0].location;
  }

  /** Fetches the test site's page as a link document; its location. */
  async uploadLink(slug = this.workspace.slug): Promise<string> {
    const answer = await this.api(this.multi, "POST", `/api/workspace/${slug}/upload-link`, {
      json: { link: `https://docs.example.test/${unique("notice-")}.txt` },
    });
    return (answer.documents as { location: string }[])[0].location;
  }

  async embed(slug: string, location: string) {
    const answer = await this.api(this.multi, "POST", `/api/workspace/${slug}/update-embeddings`, {
      json: { adds: [location], deletes: [] },
    });
    assert.equal(answer.message, null, `embedding ${location}`);
  }

  /** Streams one chat to its end; the id of the saved chat. */
  async chat(slug: string, threadSlug: string | null, message: string): Promise<number> {
    const path = threadSlug
      ? `/api/workspace/${slug}/thread/${threadSlug}/stream-chat`
      : `/api/workspace/${slug}/stream-chat`;
    const response = await this.send({ method: "POST", path, json: { message, attachments: [] } });
    assert.equal(response.status, 200, `setup chat: ${response.status}`);
    const frames = (await response.text()).split("\n\n").filter(Boolean)
      .map((block) => JSON.parse(block.replace(/^data: /, "")));
    const chatId = frames.find((frame) => typeof frame.chatId === "number")?.chatId;
    assert.ok(chatId, `setup chat: no chatId in ${JSON.stringify(frames)}`);
    return chatId;
  }

  /** Sends `@agent …` as the frontend does; the uuid of the agent socket the hand-off frame names. */
  async agentInvocation(server: Server, slug: string, as: Who = "admin"): Promise<string> {
    const response = await this.send({
      method: "POST",
      path: `/api/workspace/${slug}/stream-chat`,
      json: { message: "@agent say hello", attachments: [] },
      server,
      as,
    });
    assert.equal(response.status, 200, `setup @agent: ${response.status}`);
    const frames = (await response.text()).split("\n\n").filter(Boolean)
      .map((block) => JSON.parse(block.replace(/^data: /, "")));
    const uuid = frames.find((frame) => frame.type === "agentInitWebsocketConnection")?.websocketUUID;
    assert.ok(uuid, `setup @agent: no hand-off frame in ${JSON.stringify(frames)}`);
    return uuid;
  }

  /** A fresh workspace with one chat in its default thread. */
  async workspaceWithChat(): Promise<{ workspace: Ids; chatId: number }> {
    const workspace = await this.newWorkspace();
    return { workspace, chatId: await this.chat(workspace.slug, null, "Where is the harbour office?") };
  }

  async newInvite(): Promise<{ id: number; code: string }> {
    const answer = await this.api(this.multi, "POST", "/api/admin/invite/new", {
      json: { workspaceIds: [this.workspace.id] },
    });
    return answer.invite as { id: number; code: string };
  }

  /** A reset token for a fresh user, from two of the recovery codes its first login handed out. */
  async resetToken(): Promise<Account & { resetToken: string }> {
    const account = await this.newUser("default");
    const recovered = await this.api(this.multi, "POST", "/api/system/recover-account", {
      as: "none",
      json: { username: account.username, recoveryCodes: account.recoveryCodes.slice(0, 2) },
    });
    return { ...account, resetToken: recovered.resetToken as string };
  }

  [Symbol.asyncDispose]() {
    return this.close();
  }

  async close() {
    await Promise.allSettled(this.pending);
    for (const app of this.#apps) await app.close();
    await this.site.shutdown();
    await this.llm.close();
  }
}

/** A streamable-HTTP MCP server as the save call takes it, on a loopback port nothing listens on. */
const mcpServer = (name: string) => ({ name, server: { type: "streamable", url: "http://127.0.0.1:9/mcp" } });

const get = (path: string, more: Partial<Call> = {}): Call => ({ method: "GET", path, ...more });
/** A loopback origin the URL guard refuses for a connector: nothing is ever fetched from it. */
const REFUSED_ORIGIN = "http://127.0.0.1:9";
const REFUSED_REPO = `${REFUSED_ORIGIN}/harbour/records`;
const post = (path: string, json?: unknown, more: Partial<Call> = {}): Call => ({
  method: "POST",
  path,
  json,
  ...more,
});
const del = (path: string, json?: unknown, more: Partial<Call> = {}): Call => ({
  method: "DELETE",
  path,
  json,
  ...more,
});

const AGENT_FRAMES = "only on the agent hand-off frames (#22), per the Note";

/** Every call of the table the test knows how to make, keyed `METHOD path` exactly as the table writes it. */
export const FIXTURES: Record<string, Fixture> = {
  // ---- models/workspace.js
  "POST /api/workspace/new": {
    calls: () => Promise.resolve([post("/api/workspace/new", { name: unique("New workspace ") })]),
  },
  "POST /api/workspace/:slug/update": {
    async calls(w) {
      const { slug } = await w.newWorkspace();
      return [post(`/api/workspace/${slug}/update`, {
        name: unique("Renamed "),
        openAiTemp: 0.4,
        openAiHistory: 15,
        similarityThreshold: 0.25,
        topN: 4,
        chatMode: "chat",
        openAiPrompt: "Answer from the harbour documents.",
        queryRefusalResponse: "",
      })];
    },
  },
  "POST /api/workspace/:slug/update-embeddings": {
    async calls(w) {
      const { slug } = await w.newWorkspace();
      const location = await w.upload(slug);
      return [post(`/api/workspace/${slug}/update-embeddings`, { adds: [location], deletes: [] })];
    },
  },
  "DELETE /api/workspace/:slug/embed-queue": {
    calls: (w) =>
      Promise.resolve([del(`/api/workspace/${w.workspace.slug}/embed-queue`, { filename: w.document })]),
  },
  "GET /api/workspace/:slug/chats": {
    calls: (w) => Promise.resolve([get(`/api/workspace/${w.workspace.slug}/chats`)]),
  },
  "POST /api/export-chat/:type": {
    calls: (w) =>
      Promise.resolve([post("/api/export-chat/pdf", {
        workspaceSlug: w.workspace.slug,
        threadSlug: w.thread.slug,
      })]),
  },
  "POST /api/workspace/:slug/chat-feedback/:chatId": {
    calls: (w) =>
      Promise.resolve([
        post(`/api/workspace/${w.workspace.slug}/chat-feedback/${w.chatId}`, { feedback: true }),
      ]),
  },
  "DELETE /api/workspace/:slug/delete-chats": {
    async calls(w) {
      const { workspace, chatId } = await w.workspaceWithChat();
      return [del(`/api/workspace/${workspace.slug}/delete-chats`, { chatIds: [chatId] })];
    },
  },
  "POST /api/workspace/:slug/stream-chat": {
    async calls(w) {
      // A fresh workspace with the document, so the answer cites it; /reset is the action frame.
      const { slug } = await w.newWorkspace();
      await w.embed(slug, w.document);
      return [
        post(`/api/workspace/${slug}/stream-chat`, {
          message: "When does the reading room open?",
          attachments: [],
        }),
        post(`/api/workspace/${slug}/stream-chat`, { message: "/reset", attachments: [] }),
      ];
    },
    absent: {
      thread: "only on a thread's rename frame; the default thread has no name to change",
      animate: AGENT_FRAMES,
      websocketUUID: AGENT_FRAMES,
    },
  },
  "GET /api/workspaces": { calls: () => Promise.resolve([get("/api/workspaces")]) },
  "GET /api/workspace/:slug": {
    calls: (w) => Promise.resolve([get(`/api/workspace/${w.workspace.slug}`)]),
  },
  "DELETE /api/workspace/:slug": {
    async calls(w) {
      const { slug } = await w.newWorkspace();
      return [del(`/api/workspace/${slug}`)];
    },
  },
  "DELETE /api/workspace/:slug/reset-vector-db": {
    async calls(w) {
      const { slug } = await w.newWorkspace();
      await w.embed(slug, w.document);
      return [del(`/api/workspace/${slug}/reset-vector-db`)];
    },
  },
  "POST /api/workspace/:slug/upload": {
    calls: (w) =>
      Promise.resolve([{
        method: "POST",
        path: `/api/workspace/${w.workspace.slug}/upload`,
        form: w.fileForm(),
      }]),
  },
  "POST /api/workspace/:slug/parse": {
    calls(w) {
      const form = w.fileForm();
      form.append("threadSlug", w.thread.slug);
      return Promise.resolve([{ method: "POST", path: `/api/workspace/${w.workspace.slug}/parse`, form }]);
    },
  },
  "GET /api/workspace/:slug/parsed-files": {
    async calls(w) {
      const form = w.fileForm();
      form.append("threadSlug", w.thread.slug);
      await w.api(w.multi, "POST", `/api/workspace/${w.workspace.slug}/parse`, { form });
      return [
        get(`/api/workspace/${w.workspace.slug}/parsed-files?threadSlug=${w.thread.slug}`),
        get(`/api/workspace/${w.workspace.slug}/parsed-files`),
      ];
    },
  },
  "POST /api/workspace/:slug/upload-link": {
    calls: (w) =>
      Promise.resolve([
        post(`/api/workspace/${w.workspace.slug}/upload-link`, {
          link: `https://docs.example.test/${unique("opening-hours-")}.txt`,
        }),
      ]),
  },
  "GET /api/workspace/:slug/suggested-messages": {
    calls: (w) => Promise.resolve([get(`/api/workspace/${w.workspace.slug}/suggested-messages`)]),
  },
  "POST /api/workspace/:slug/suggested-messages": {
    calls: (w) =>
      Promise.resolve([
        post(`/api/workspace/${w.workspace.slug}/suggested-messages`, {
          messages: [{ heading: "Opening hours", message: "When does the reading room open?" }],
        }),
      ]),
  },
  "POST /api/workspace/:slug/update-pin": {
    calls: (w) =>
      Promise.resolve([
        post(`/api/workspace/${w.workspace.slug}/update-pin`, { docPath: w.document, pinStatus: true }),
        post(`/api/workspace/${w.workspace.slug}/update-pin`, { docPath: w.document, pinStatus: false }),
      ]),
  },
  "GET /api/workspace/:slug/tts/:chatId": {
    calls: (w) => Promise.resolve([get(`/api/workspace/${w.workspace.slug}/tts/${w.chatId}`)]),
    emptyBlob:
      "204: the default text-to-speech provider is the browser's own voice (native), so the server has no audio",
  },
  "POST /api/workspace/:slug/update-chat": {
    calls: (w) =>
      Promise.resolve([
        post(`/api/workspace/${w.workspace.slug}/update-chat`, {
          chatId: w.chatId,
          newText: "The reading room opens at nine.",
          role: "assistant",
        }),
      ]),
  },
  "DELETE /api/workspace/:slug/delete-edited-chats": {
    async calls(w) {
      const { workspace, chatId } = await w.workspaceWithChat();
      return [del(`/api/workspace/${workspace.slug}/delete-edited-chats`, { startingId: chatId })];
    },
  },
  "PUT /api/workspace/workspace-chats/:id": {
    async calls(w) {
      const { chatId } = await w.workspaceWithChat();
      return [{ method: "PUT", path: `/api/workspace/workspace-chats/${chatId}` }];
    },
  },
  "POST /api/workspace/:slug/thread/fork": {
    calls: (w) =>
      Promise.resolve([
        post(`/api/workspace/${w.workspace.slug}/thread/fork`, {
          threadSlug: w.thread.slug,
          chatId: w.threadChatId,
        }),
        post(`/api/workspace/${w.workspace.slug}/thread/fork`, { threadSlug: null, chatId: w.chatId }),
      ]),
  },
  "POST /api/workspace/:slug/upload-and-embed": {
    async calls(w) {
      const { slug } = await w.newWorkspace();
      return [{ method: "POST", path: `/api/workspace/${slug}/upload-and-embed`, form: w.fileForm() }];
    },
  },
  "DELETE /api/workspace/:slug/delete-parsed-files": {
    async calls(w) {
      const form = w.fileForm();
      form.append("threadSlug", w.thread.slug);
      const parsed = await w.api(w.multi, "POST", `/api/workspace/${w.workspace.slug}/parse`, { form });
      const [file] = parsed.files as { id: number }[];
      return [del(`/api/workspace/${w.workspace.slug}/delete-parsed-files`, { fileIds: [file.id] })];
    },
  },
  "POST /api/workspace/:slug/embed-parsed-file/:fileId": {
    async calls(w) {
      const form = w.fileForm();
      form.append("threadSlug", w.thread.slug);
      const parsed = await w.api(w.multi, "POST", `/api/workspace/${w.workspace.slug}/parse`, { form });
      const [file] = parsed.files as { id: number }[];
      return [post(`/api/workspace/${w.workspace.slug}/embed-parsed-file/${file.id}`)];
    },
  },
  "DELETE /api/workspace/:slug/remove-and-unembed": {
    async calls(w) {
      const location = await w.upload();
      await w.embed(w.workspace.slug, location);
      return [del(`/api/workspace/${w.workspace.slug}/remove-and-unembed`, { documentLocation: location })];
    },
  },
  "POST /api/workspace/search": {
    calls: () => Promise.resolve([post("/api/workspace/search", { searchTerm: "Harbour" })]),
  },
  "GET /api/workspace/:slug/is-agent-command-available": {
    calls: (w) => Promise.resolve([get(`/api/workspace/${w.workspace.slug}/is-agent-command-available`)]),
  },

  // ---- models/workspaceThread.js
  "GET /api/workspace/:slug/threads": {
    calls: (w) => Promise.resolve([get(`/api/workspace/${w.workspace.slug}/threads`)]),
  },
  "POST /api/workspace/:slug/thread/new": {
    calls: (w) => Promise.resolve([post(`/api/workspace/${w.workspace.slug}/thread/new`)]),
  },
  "POST /api/workspace/:slug/thread/:threadSlug/update": {
    async calls(w) {
      const thread = await w.newThread(w.workspace.slug);
      return [
        post(`/api/workspace/${w.workspace.slug}/thread/${thread.slug}/update`, { name: unique("Tides ") }),
      ];
    },
  },
  "DELETE /api/workspace/:slug/thread/:threadSlug": {
    async calls(w) {
      const thread = await w.newThread(w.workspace.slug);
      return [del(`/api/workspace/${w.workspace.slug}/thread/${thread.slug}`)];
    },
  },
  "DELETE /api/workspace/:slug/thread-bulk-delete": {
    async calls(w) {
      const one = await w.newThread(w.workspace.slug);
      const two = await w.newThread(w.workspace.slug);
      return [del(`/api/workspace/${w.workspace.slug}/thread-bulk-delete`, { slugs: [one.slug, two.slug] })];
    },
  },
  "GET /api/workspace/:slug/thread/:threadSlug/chats": {
    calls: (w) => Promise.resolve([get(`/api/workspace/${w.workspace.slug}/thread/${w.thread.slug}/chats`)]),
  },
  "POST /api/workspace/:slug/thread/:threadSlug/stream-chat": {
    async calls(w) {
      // A fresh thread: its first chat renames it (the `action` and `thread` frame).
      const thread = await w.newThread(w.workspace.slug);
      return [
        post(`/api/workspace/${w.workspace.slug}/thread/${thread.slug}/stream-chat`, {
          message: "Are atlases lent out?",
          attachments: [],
        }),
      ];
    },
    absent: { animate: AGENT_FRAMES, websocketUUID: AGENT_FRAMES },
  },
  "DELETE /api/workspace/:slug/thread/:threadSlug/delete-edited-chats": {
    async calls(w) {
      const thread = await w.newThread(w.workspace.slug);
      const chatId = await w.chat(w.workspace.slug, thread.slug, "Are tide tables lent out?");
      return [
        del(`/api/workspace/${w.workspace.slug}/thread/${thread.slug}/delete-edited-chats`, {
          startingId: chatId,
        }),
      ];
    },
  },
  "POST /api/workspace/:slug/thread/:threadSlug/update-chat": {
    calls: (w) =>
      Promise.resolve([
        post(`/api/workspace/${w.workspace.slug}/thread/${w.thread.slug}/update-chat`, {
          chatId: w.threadChatId,
          newText: "Four books at a time.",
          role: "assistant",
        }),
      ]),
  },

  // ---- models/system.js
  "GET /api/ping": { calls: () => Promise.resolve([get("/api/ping", { as: "none" })]) },
  "GET /api/system/system-vectors": {
    calls: (w) =>
      Promise.resolve([
        get(`/api/system/system-vectors?slug=${w.workspace.slug}`),
        get("/api/system/system-vectors"),
      ]),
  },
  "GET /api/onboarding": { calls: () => Promise.resolve([get("/api/onboarding", { as: "none" })]) },
  "POST /api/onboarding": { calls: () => Promise.resolve([post("/api/onboarding")]) },
  "GET /api/setup-complete": {
    // The frontend sends no Authorization here: on an open instance that is the full set.
    calls: (w) => Promise.resolve([get("/api/setup-complete", { server: w.open, as: "none" })]),
  },
  "GET /api/system/local-files": {
    calls: () =>
      Promise.resolve([
        get("/api/system/local-files"),
        get("/api/system/local-files?folder=custom-documents&offset=0&limit=50"),
      ]),
  },
  "GET /api/system/local-files/search": {
    calls: () => Promise.resolve([get("/api/system/local-files/search?q=notes")]),
  },
  "POST /api/system/local-files/by-docpaths": {
    calls: (w) => Promise.resolve([post("/api/system/local-files/by-docpaths", { docpaths: [w.document] })]),
  },
  "GET /api/system/check-token": {
    calls: () =>
      Promise.resolve([get("/api/system/check-token"), get("/api/system/check-token", { as: "default" })]),
    status: 200,
  },
  "POST /api/request-token": {
    async calls(w) {
      // A user's first login hands out the recovery codes; a wrong password is the `message` answer.
      const username = unique("first-login-");
      await w.api(w.multi, "POST", "/api/admin/users/new", {
        json: { username, password: `${username}-password`, role: "default" },
      });
      return [
        post("/api/request-token", { username, password: `${username}-password` }, { as: "none" }),
        post("/api/request-token", { username, password: "not-the-password" }, { as: "none", refusal: true }),
      ];
    },
  },
  "GET /api/system/refresh-user": {
    calls: () =>
      Promise.resolve([get("/api/system/refresh-user"), get("/api/system/refresh-user", { as: "default" })]),
  },
  "POST /api/system/recover-account": {
    async calls(w) {
      const account = await w.newUser("default");
      return [
        post("/api/system/recover-account", {
          username: account.username,
          recoveryCodes: account.recoveryCodes.slice(0, 2),
        }, { as: "none" }),
        post("/api/system/recover-account", {
          username: account.username,
          recoveryCodes: [crypto.randomUUID(), crypto.randomUUID()],
        }, { as: "none", refusal: true }),
      ];
    },
  },
  "POST /api/system/reset-password": {
    async calls(w) {
      const account = await w.resetToken();
      const newPassword = `${account.username}-new-password`;
      return [
        post("/api/system/reset-password", {
          token: account.resetToken,
          newPassword,
          confirmPassword: newPassword,
        }, { as: "none" }),
        post("/api/system/reset-password", {
          token: account.resetToken,
          newPassword,
          confirmPassword: `${newPassword}-typo`,
        }, { as: "none", refusal: true }),
      ];
    },
  },
  "GET /api/system/document-processing-status": {
    calls: () => Promise.resolve([get("/api/system/document-processing-status")]),
  },
  "GET /api/system/accepted-document-types": {
    calls: () => Promise.resolve([get("/api/system/accepted-document-types")]),
  },
  "POST /api/system/update-env": {
    calls: () =>
      Promise.resolve([
        post("/api/system/update-env", { GenericOpenAiMaxTokens: "512", GenericOpenAiTokenLimit: "4096" }),
      ]),
  },
  "POST /api/system/update-password": {
    // Single-user only: a fresh open instance gets its password (the Security screen's form).
    async calls(w) {
      const server = await w.openInstance();
      return [
        post("/api/system/update-password", { usePassword: true, newPassword: "harbour-password" }, {
          server,
          as: "none",
        }),
      ];
    },
  },
  "POST /api/system/enable-multi-user": {
    async calls(w) {
      const server = await w.openInstance();
      return [
        post("/api/system/enable-multi-user", { username: "harbourmaster", password: "harbour-password" }, {
          server,
          as: "none",
        }),
      ];
    },
  },
  "GET /api/system/multi-user-mode": {
    calls: () => Promise.resolve([get("/api/system/multi-user-mode", { as: "none" })]),
  },
  "DELETE /api/system/remove-document": {
    async calls(w) {
      return [del("/api/system/remove-document", { name: await w.upload() })];
    },
  },
  "DELETE /api/system/remove-documents": {
    async calls(w) {
      return [del("/api/system/remove-documents", { names: [await w.upload(), await w.upload()] })];
    },
  },
  "DELETE /api/system/remove-folder": {
    async calls(w) {
      // The folder as the document picker lists it after creating it (spaces become hyphens).
      const created = await w.api(w.multi, "POST", "/api/document/create-folder", {
        json: { name: unique("Old folder ") },
      });
      return [del("/api/system/remove-folder", { name: created.folder })];
    },
  },
  "POST /api/system/upload-pfp": {
    calls: (w) =>
      Promise.resolve([{ method: "POST", path: "/api/system/upload-pfp", form: w.pictureForm() }]),
  },
  "POST /api/system/upload-logo": {
    calls: () => {
      const form = new FormData();
      form.append("logo", new File([PNG], "logo.png", { type: "image/png" }));
      return Promise.resolve([{ method: "POST", path: "/api/system/upload-logo", form }]);
    },
  },
  "GET /api/system/remove-logo": {
    calls: () => Promise.resolve([get("/api/system/remove-logo")]),
  },
  "GET /api/system/footer-data": {
    calls: () => Promise.resolve([get("/api/system/footer-data", { as: "none" })]),
  },
  "GET /api/system/support-email": {
    calls: () => Promise.resolve([get("/api/system/support-email", { as: "none" })]),
  },
  "GET /api/system/custom-app-name": {
    calls: () => Promise.resolve([get("/api/system/custom-app-name", { as: "none" })]),
  },
  "GET /api/system/default-system-prompt": {
    calls: () => Promise.resolve([get("/api/system/default-system-prompt")]),
  },
  "POST /api/system/default-system-prompt": {
    calls: () =>
      Promise.resolve([
        post("/api/system/default-system-prompt", {
          defaultSystemPrompt: "Answer from the documents of the workspace, briefly.",
        }),
      ]),
  },
  "GET /api/system/logo": {
    calls: () => Promise.resolve([get("/api/system/logo?theme=dark", { as: "none" })]),
  },
  "GET /api/system/pfp/:id": {
    async calls(w) {
      await w.api(w.multi, "POST", "/api/system/upload-pfp", { as: "default", form: w.pictureForm() });
      return [get(`/api/system/pfp/${w.users.default.id}`, { as: "default" })];
    },
  },
  "DELETE /api/system/remove-pfp": {
    async calls(w) {
      await w.api(w.multi, "POST", "/api/system/upload-pfp", { as: "default", form: w.pictureForm() });
      return [del("/api/system/remove-pfp", undefined, { as: "default" })];
    },
  },
  "GET /api/system/is-default-logo": {
    calls: () => Promise.resolve([get("/api/system/is-default-logo", { as: "none" })]),
  },
  "POST /api/system/custom-models": {
    calls: () =>
      Promise.resolve([
        post("/api/system/custom-models", {
          provider: "native-embedder",
          apiKey: null,
          basePath: null,
          options: {},
        }),
        post("/api/system/custom-models", {
          provider: "generic-openai",
          apiKey: null,
          basePath: null,
          options: {},
        }),
      ]),
  },
  // The data connectors (issue 23). Each call points at a loopback port that the URL guard refuses (no
  // operator allowance in this world), so nothing is fetched: the answer is the refusal in `reason`.
  "POST /api/ext/github/branches": {
    calls: () => Promise.resolve([post("/api/ext/github/branches", { repo: REFUSED_REPO, accessToken: "" })]),
  },
  "POST /api/ext/github/repo": {
    calls: () => Promise.resolve([post("/api/ext/github/repo", { repo: REFUSED_REPO, branch: "main" })]),
  },
  "POST /api/ext/gitlab/branches": {
    calls: () => Promise.resolve([post("/api/ext/gitlab/branches", { repo: REFUSED_REPO, accessToken: "" })]),
  },
  "POST /api/ext/gitlab/repo": {
    calls: () => Promise.resolve([post("/api/ext/gitlab/repo", { repo: REFUSED_REPO, branch: "main" })]),
  },
  "GET /api/ext/imports": {
    calls: () => Promise.resolve([get("/api/ext/imports")]),
  },
  "GET /api/ext/imports/:id": {
    // The tab asks for an import it saw; one that is gone (a restart forgets them) is the 404 it then meets.
    calls: () => Promise.resolve([get("/api/ext/imports/gone", { refusal: 404 })]),
    absent: { "data.import": "An import that is gone has no progress to give: `data` is empty." },
  },
  "POST /api/ext/youtube/transcript": {
    calls: () =>
      Promise.resolve([post("/api/ext/youtube/transcript", { url: `${REFUSED_ORIGIN}/watch?v=x` })]),
  },
  "POST /api/ext/website-depth": {
    calls: () =>
      Promise.resolve([post("/api/ext/website-depth", { url: `${REFUSED_ORIGIN}/`, depth: 1, maxLinks: 1 })]),
  },
  "POST /api/ext/confluence": {
    calls: () =>
      Promise.resolve([
        post("/api/ext/confluence", {
          baseUrl: REFUSED_ORIGIN,
          spaceKey: "DOCS",
          username: "reader",
          accessToken: "token",
          cloud: false,
        }),
      ]),
  },
  "POST /api/system/user": {
    // The account modal sends its filled fields: the username as shown, and what changed.
    calls: () =>
      Promise.resolve([post("/api/system/user", { username: "admin", bio: "Keeps the harbour records." })]),
  },
  "GET /api/system/slash-command-presets": {
    calls: () => Promise.resolve([get("/api/system/slash-command-presets")]),
  },
  "POST /api/system/transcribe-audio": {
    calls: () => {
      const form = new FormData();
      form.append(
        "audio",
        new File([new Uint8Array([82, 73, 70, 70])], "recording.wav", { type: "audio/wav" }),
      );
      // Server transcription is off by default (SpeechToTextProvider native): the refusal carries `error`.
      return Promise.resolve([{ method: "POST", path: "/api/system/transcribe-audio", form, refusal: 400 }]);
    },
    absent: {
      text:
        "the transcript comes with a transcription provider, which this world has none of; server/speech/routes_test.ts reads one from a loopback Whisper fake",
    },
  },
  "POST /api/system/slash-command-presets": {
    calls: () =>
      Promise.resolve([
        post("/api/system/slash-command-presets", {
          command: `/${unique("tides")}`,
          prompt: "List today's tides.",
          description: "Tides",
        }),
        post("/api/system/slash-command-presets", { command: "/no spaces", prompt: "x", description: "" }, {
          refusal: true,
        }),
      ]),
  },
  "POST /api/system/slash-command-presets/:id": {
    async calls(w) {
      const created = await w.api(w.multi, "POST", "/api/system/slash-command-presets", {
        json: { command: `/${unique("ferry")}`, prompt: "When is the ferry?", description: "" },
      });
      const id = (created.preset as { id: number }).id;
      return [
        post(`/api/system/slash-command-presets/${id}`, {
          command: `/${unique("ferry")}`,
          prompt: "When is the next ferry?",
          description: "Ferry",
        }),
        post(`/api/system/slash-command-presets/${id}`, {
          command: "/no spaces",
          prompt: "x",
          description: "",
        }, {
          refusal: true,
        }),
      ];
    },
  },
  "DELETE /api/system/slash-command-presets/:id": {
    async calls(w) {
      const created = await w.api(w.multi, "POST", "/api/system/slash-command-presets", {
        json: { command: `/${unique("gone")}`, prompt: "Soon removed.", description: "" },
      });
      return [del(`/api/system/slash-command-presets/${(created.preset as { id: number }).id}`)];
    },
  },
  "GET /api/request-token/sso/simple": {
    async calls(w) {
      const account = await w.newUser("default", false);
      const issued = await w.api(w.multi, "POST", `/api/admin/user/${account.id}/issue-auth-token`);
      return [get(`/api/request-token/sso/simple?token=${issued.token}`, { as: "none" })];
    },
  },
  "GET /api/utils/metrics": { calls: () => Promise.resolve([get("/api/utils/metrics", { as: "none" })]) },

  // ---- models/system.js: the event logs screen (Settings → Event Logs)
  "POST /api/system/event-logs": {
    calls: () => Promise.resolve([post("/api/system/event-logs", { offset: 0 })]),
  },
  "DELETE /api/system/event-logs": {
    calls: () => Promise.resolve([del("/api/system/event-logs")]),
  },

  // ---- models/system.js: the Workspace Chats screen (Settings → Workspace Chats), admins only
  "POST /api/system/workspace-chats": {
    calls: () => Promise.resolve([post("/api/system/workspace-chats", { offset: 0 })]),
  },
  "DELETE /api/system/workspace-chats/:id": {
    async calls(w) {
      const { chatId } = await w.workspaceWithChat();
      // `-1` clears every chat: on the open instance, so that the other fixtures keep the World's chats.
      return [
        del(`/api/system/workspace-chats/${chatId}`),
        del("/api/system/workspace-chats/-1", undefined, { server: w.open, as: "none" }),
      ];
    },
  },
  "GET /api/system/export-chats": {
    calls: () =>
      Promise.resolve(
        ["csv", "json", "jsonl", "jsonAlpaca"].map((type) =>
          get(`/api/system/export-chats?type=${type}&chatType=workspace`)
        ),
      ),
  },

  // ---- models/system.js and models/admin.js: the API keys screen (Settings → Developer API)
  "GET /api/system/api-keys": {
    async calls(w) {
      await w.api(w.open, "POST", "/api/system/generate-api-key", { as: "none" });
      return [get("/api/system/api-keys", { server: w.open, as: "none" })];
    },
  },
  "POST /api/system/generate-api-key": {
    // The reference's frontend sends no body.
    calls: (w) =>
      Promise.resolve([post("/api/system/generate-api-key", undefined, { server: w.open, as: "none" })]),
  },
  "DELETE /api/system/api-key/:id": {
    async calls(w) {
      const made = await w.api(w.open, "POST", "/api/system/generate-api-key", { as: "none" });
      const { id } = made.apiKey as { id: number };
      return [del(`/api/system/api-key/${id}`, undefined, { server: w.open, as: "none" })];
    },
  },
  "GET /api/admin/api-keys": {
    async calls(w) {
      await w.api(w.multi, "POST", "/api/admin/generate-api-key", { json: { name: unique("key-") } });
      return [get("/api/admin/api-keys")];
    },
  },
  "POST /api/admin/generate-api-key": {
    calls: () => Promise.resolve([post("/api/admin/generate-api-key")]),
  },
  "DELETE /api/admin/delete-api-key/:id": {
    async calls(w) {
      const made = await w.api(w.multi, "POST", "/api/admin/generate-api-key");
      const { id } = made.apiKey as { id: number };
      return [del(`/api/admin/delete-api-key/${id}`)];
    },
  },

  // ---- models/browserExtensionApiKey.js: Settings → Browser Extension
  "GET /api/browser-extension/api-keys": {
    async calls(w) {
      await w.api(w.multi, "POST", "/api/browser-extension/api-keys/new");
      return [get("/api/browser-extension/api-keys")];
    },
  },
  "POST /api/browser-extension/api-keys/new": {
    calls: () => Promise.resolve([post("/api/browser-extension/api-keys/new", {})]),
  },
  "DELETE /api/browser-extension/api-keys/:id": {
    async calls(w) {
      await w.api(w.multi, "POST", "/api/browser-extension/api-keys/new");
      const listed = await w.api(w.multi, "GET", "/api/browser-extension/api-keys");
      const [newest] = listed.apiKeys as { id: number }[];
      return [del(`/api/browser-extension/api-keys/${newest.id}`)];
    },
  },

  // ---- models/embed.js: the embed widgets' screens (Settings → Chat Embed Widgets, Embed Chat History)
  "GET /api/embeds": {
    async calls(w) {
      await w.api(w.multi, "POST", "/api/embeds/new", { json: { workspace_id: String(w.workspace.id) } });
      return [get("/api/embeds")];
    },
  },
  "POST /api/embeds/new": {
    // The reference's form: strings from its inputs, "on" made true, null for an empty allowlist.
    calls: (w) =>
      Promise.resolve([
        post("/api/embeds/new", {
          workspace_id: String(w.workspace.id),
          chat_mode: "chat",
          allowlist_domains: "https://shop.example,docs.example",
          max_chats_per_day: "50",
          allow_model_override: false,
          allow_temperature_override: false,
          allow_prompt_override: true,
          message_limit: 20,
        }),
      ]),
  },
  "POST /api/embed/update/:embedId": {
    async calls(w) {
      const made = await w.api(w.multi, "POST", "/api/embeds/new", {
        json: { workspace_id: w.workspace.id },
      });
      const { id } = made.embed as { id: number };
      return [
        post(`/api/embed/update/${id}`, { enabled: false }),
        post(`/api/embed/update/${id}`, {
          workspace_id: String(w.workspace.id),
          chat_mode: "query",
          allowlist_domains: null,
          allow_model_override: false,
          allow_temperature_override: false,
          allow_prompt_override: false,
          message_limit: 20,
        }),
      ];
    },
  },
  "DELETE /api/embed/:embedId": {
    async calls(w) {
      const made = await w.api(w.multi, "POST", "/api/embeds/new", {
        json: { workspace_id: w.workspace.id },
      });
      return [del(`/api/embed/${(made.embed as { id: number }).id}`)];
    },
  },
  "POST /api/embed/chats": { calls: () => Promise.resolve([post("/api/embed/chats", { offset: 0 })]) },
  "DELETE /api/embed/chats/:chatId": {
    async calls(w) {
      const made = await w.api(w.multi, "POST", "/api/embeds/new", {
        json: { workspace_id: w.workspace.id },
      });
      const [chat] = await w.multi.app.deps.db.insert(embedChats).values({
        embedId: (made.embed as { id: number }).id,
        sessionId: crypto.randomUUID(),
        prompt: "Open on Sunday?",
        response: JSON.stringify({ text: "No.", sources: [], type: "chat" }),
      }).returning();
      return [del(`/api/embed/chats/${chat.id}`)];
    },
  },

  // ---- utils/paths.js
  "GET /api/docs": { calls: () => Promise.resolve([get("/api/docs", { as: "none" })]) },

  // ---- models/admin.js
  "GET /api/admin/users": { calls: () => Promise.resolve([get("/api/admin/users")]) },
  "POST /api/admin/users/new": {
    calls: () =>
      Promise.resolve([
        post("/api/admin/users/new", {
          username: unique("deckhand-"),
          password: "deckhand-password",
          role: "default",
        }),
      ]),
  },
  "POST /api/admin/user/:id": {
    async calls(w) {
      const account = await w.newUser("default", false);
      return [post(`/api/admin/user/${account.id}`, { role: "manager", suspended: 0 })];
    },
  },
  "DELETE /api/admin/user/:id": {
    async calls(w) {
      const account = await w.newUser("default", false);
      return [del(`/api/admin/user/${account.id}`)];
    },
  },
  "GET /api/admin/invites": { calls: () => Promise.resolve([get("/api/admin/invites")]) },
  "POST /api/admin/invite/new": {
    calls: (w) => Promise.resolve([post("/api/admin/invite/new", { workspaceIds: [w.workspace.id] })]),
  },
  "DELETE /api/admin/invite/:id": {
    async calls(w) {
      const invite = await w.newInvite();
      return [del(`/api/admin/invite/${invite.id}`)];
    },
  },
  "GET /api/admin/workspaces": { calls: () => Promise.resolve([get("/api/admin/workspaces")]) },
  "POST /api/admin/workspaces/new": {
    calls: () =>
      Promise.resolve([
        post("/api/admin/workspaces/new", { name: unique("Customs office ") }),
        // The Workspaces screen's form with an empty name: the `error` it shows.
        post("/api/admin/workspaces/new", { name: "" }, { refusal: true }),
      ]),
  },
  "DELETE /api/admin/workspaces/:id": {
    async calls(w) {
      const workspace = await w.newWorkspace();
      return [del(`/api/admin/workspaces/${workspace.id}`)];
    },
  },
  "GET /api/admin/workspaces/:id/users": {
    calls: (w) => Promise.resolve([get(`/api/admin/workspaces/${w.workspace.id}/users`)]),
  },
  "POST /api/admin/workspaces/:id/update-users": {
    async calls(w) {
      const workspace = await w.newWorkspace();
      return [
        post(`/api/admin/workspaces/${workspace.id}/update-users`, {
          userIds: [w.users.manager.id, w.users.default.id],
        }),
      ];
    },
  },
  "GET /api/admin/system-preferences-for": {
    calls: () =>
      Promise.resolve([
        get(
          "/api/admin/system-preferences-for?labels=text_splitter_chunk_size,text_splitter_chunk_overlap,max_embed_chunk_size",
        ),
      ]),
  },
  "POST /api/admin/system-preferences": {
    async calls(w) {
      // The text splitter screen saves what it shows.
      const shown = await w.api(
        w.multi,
        "GET",
        "/api/admin/system-preferences-for?labels=text_splitter_chunk_size,text_splitter_chunk_overlap",
      );
      const settings = shown.settings as Record<string, number>;
      return [
        post("/api/admin/system-preferences", {
          text_splitter_chunk_size: settings.text_splitter_chunk_size,
          text_splitter_chunk_overlap: settings.text_splitter_chunk_overlap,
        }),
      ];
    },
  },

  // ---- models/document.js
  "POST /api/document/create-folder": {
    calls: () => Promise.resolve([post("/api/document/create-folder", { name: unique("Tide tables ") })]),
  },
  "POST /api/document/move-files": {
    async calls(w) {
      const created = await w.api(w.multi, "POST", "/api/document/create-folder", {
        json: { name: unique("Archive ") },
      });
      const folder = created.folder as string;
      const from = await w.upload();
      const to = `${folder}/${from.split("/").pop()}`;
      return [post("/api/document/move-files", { files: [{ from, to }] })];
    },
  },

  // ---- models/invite.js
  "GET /api/invite/:code": {
    async calls(w) {
      const invite = await w.newInvite();
      return [get(`/api/invite/${invite.code}`, { as: "none" })];
    },
  },
  "POST /api/invite/:code": {
    async calls(w) {
      const invite = await w.newInvite();
      const username = unique("invited-");
      return [
        post(`/api/invite/${invite.code}`, { username, password: `${username}-password` }, { as: "none" }),
      ];
    },
  },

  // ---- models/systemPromptVariable.js
  "GET /api/system/prompt-variables": { calls: () => Promise.resolve([get("/api/system/prompt-variables")]) },
  "POST /api/system/prompt-variables": {
    calls: () =>
      Promise.resolve([
        post("/api/system/prompt-variables", {
          key: unique("harbour_"),
          value: "Port Lectern",
          description: "The harbour's name",
        }),
        post("/api/system/prompt-variables", { key: "", value: "" }, { refusal: true }),
      ]),
  },
  "PUT /api/system/prompt-variables/:id": {
    async calls(w) {
      const created = await w.api(w.multi, "POST", "/api/system/prompt-variables", {
        json: { key: unique("quay_"), value: "North quay", description: "" },
      });
      const id = (created.variable as { id: number }).id;
      return [
        {
          method: "PUT",
          path: `/api/system/prompt-variables/${id}`,
          json: { key: unique("quay_"), value: "South quay", description: "Where the ferry leaves" },
        },
        {
          method: "PUT",
          path: `/api/system/prompt-variables/${id}`,
          json: { key: "", value: "" },
          refusal: true,
        },
      ];
    },
  },
  "DELETE /api/system/prompt-variables/:id": {
    async calls(w) {
      const created = await w.api(w.multi, "POST", "/api/system/prompt-variables", {
        json: { key: unique("pier_"), value: "Pier 4", description: "" },
      });
      const path = `/api/system/prompt-variables/${(created.variable as { id: number }).id}`;
      // The second delete finds nothing: the `error` the frontend shows.
      return [del(path), del(path, undefined, { refusal: 404 })];
    },
  },

  // ---- models/communityHub.js
  "GET /api/community-hub/settings": { calls: () => Promise.resolve([get("/api/community-hub/settings")]) },
  "GET /api/community-hub/explore": { calls: () => Promise.resolve([get("/api/community-hub/explore")]) },
  "GET /api/community-hub/items": { calls: () => Promise.resolve([get("/api/community-hub/items")]) },

  // ---- models/experimental/liveSync.js
  "POST /api/experimental/toggle-live-sync": {
    calls: () =>
      Promise.resolve([
        post("/api/experimental/toggle-live-sync", { updatedStatus: true }),
        post("/api/experimental/toggle-live-sync", { updatedStatus: false }),
      ]),
  },
  "GET /api/experimental/live-sync/queues": {
    calls: () => Promise.resolve([get("/api/experimental/live-sync/queues")]),
  },
  "POST /api/workspace/:slug/update-watch-status": {
    async calls(w) {
      const location = await w.uploadLink();
      await w.embed(w.workspace.slug, location);
      return [
        post(`/api/workspace/${w.workspace.slug}/update-watch-status`, {
          docPath: location,
          watchStatus: true,
        }),
        post(`/api/workspace/${w.workspace.slug}/update-watch-status`, {
          docPath: location,
          watchStatus: false,
        }),
      ];
    },
  },

  // ---- models/promptHistory.js
  "GET /api/workspace/:slug/prompt-history": {
    async calls(w) {
      // Two changes of the prompt: the one replaced is in the history, with who replaced it.
      const { slug } = await w.newWorkspace();
      await w.api(w.multi, "POST", `/api/workspace/${slug}/update`, { json: { openAiPrompt: "Be brief." } });
      await w.api(w.multi, "POST", `/api/workspace/${slug}/update`, { json: { openAiPrompt: "Be kind." } });
      return [
        get(`/api/workspace/${slug}/prompt-history`),
        get(`/api/workspace/${slug}/prompt-history`, {
          as: "manager",
        }),
      ];
    },
  },
  "DELETE /api/workspace/:slug/prompt-history": {
    async calls(w) {
      const { slug } = await w.newWorkspace();
      await w.api(w.multi, "POST", `/api/workspace/${slug}/update`, { json: { openAiPrompt: "Be brief." } });
      return [del(`/api/workspace/${slug}/prompt-history`)];
    },
  },
  "DELETE /api/workspace/prompt-history/:id": {
    async calls(w) {
      const { slug } = await w.newWorkspace();
      await w.api(w.multi, "POST", `/api/workspace/${slug}/update`, { json: { openAiPrompt: "Be brief." } });
      await w.api(w.multi, "POST", `/api/workspace/${slug}/update`, { json: { openAiPrompt: "Be kind." } });
      const listed = await w.api(w.multi, "GET", `/api/workspace/${slug}/prompt-history`);
      const [entry] = listed.history as { id: number }[];
      return [del(`/api/workspace/prompt-history/${entry.id}`)];
    },
  },

  // ---- models/system.js: the agent skills' checks (Settings → Agent Skills)
  "POST /api/system/validate-sql-connection": {
    calls: () =>
      Promise.resolve([
        // A file that is not there: answered 200 with success false and the reason, as the reference does.
        post("/api/system/validate-sql-connection", {
          engine: "sqlite",
          connectionString: "/nonexistent/harbour.db",
        }),
        post("/api/system/validate-sql-connection", { engine: "postgresql" }, { refusal: true }),
      ]),
  },
  "GET /api/agent-skills/filesystem-agent/is-available": {
    calls: () => Promise.resolve([get("/api/agent-skills/filesystem-agent/is-available", { as: "default" })]),
  },
  "GET /api/agent-skills/create-files-agent/is-available": {
    calls: () =>
      Promise.resolve([get("/api/agent-skills/create-files-agent/is-available", { as: "default" })]),
  },

  // ---- models/mcpServers.js (a streamable-HTTP server on a port nothing listens on: nothing is started)
  "GET /api/mcp-servers/list": {
    async calls(w) {
      await w.api(w.multi, "POST", "/api/mcp-servers/save", { json: mcpServer(unique("listed-")) });
      return [get("/api/mcp-servers/list")];
    },
  },
  "GET /api/mcp-servers/force-reload": {
    calls: () => Promise.resolve([get("/api/mcp-servers/force-reload")]),
  },
  "POST /api/mcp-servers/toggle": {
    async calls(w) {
      const name = unique("toggled-");
      await w.api(w.multi, "POST", "/api/mcp-servers/save", { json: mcpServer(name) });
      // On when saved: the toggle turns it off (stopping it), which succeeds without starting anything.
      return [post("/api/mcp-servers/toggle", { name })];
    },
  },
  "POST /api/mcp-servers/delete": {
    async calls(w) {
      const name = unique("deleted-");
      await w.api(w.multi, "POST", "/api/mcp-servers/save", { json: mcpServer(name) });
      return [post("/api/mcp-servers/delete", { name })];
    },
  },
  "POST /api/mcp-servers/toggle-tool": {
    async calls(w) {
      const name = unique("tools-");
      await w.api(w.multi, "POST", "/api/mcp-servers/save", { json: mcpServer(name) });
      return [
        post("/api/mcp-servers/toggle-tool", { serverName: name, toolName: "forecast", enabled: false }),
      ];
    },
  },

  // ---- components/WorkspaceChat/ChatContainer/index.jsx: the agent's socket after the hand-off frame
  "GET /api/agent-invocation/:uuid": {
    async calls(w) {
      // The reference's frontend opens it without a token (an open instance); Lectern's own client sends the
      // session token as the `bearer.` subprotocol, which a multi-user instance needs.
      const { slug } = await w.newWorkspace(unique("Agents "), w.open);
      const open = await w.agentInvocation(w.open, slug, "none");
      const signedIn = await w.agentInvocation(w.multi, w.workspace.slug);
      return [
        get(`/api/agent-invocation/${open}`, { server: w.open, as: "none" }),
        get(`/api/agent-invocation/${signedIn}`, { socketToken: true }),
      ];
    },
  },

  // ---- EmbeddingProgressContext.jsx
  "GET /api/workspace/:slug/embed-progress": {
    async calls(w) {
      // The frontend listens while an embedding runs: start one (a document, and one that is gone, for the
      // `error` of a failed document) and listen at once.
      const { slug } = await w.newWorkspace();
      const adds = [await w.upload(slug), "custom-documents/gone-since-yesterday.json"];
      w.pending.push(
        w.send({
          method: "POST",
          path: `/api/workspace/${slug}/update-embeddings`,
          json: { adds, deletes: [] },
        })
          .then((response) => response.body?.cancel()),
      );
      return [get(`/api/workspace/${slug}/embed-progress`)];
    },
  },
};

/**
 * Values for the settings that setup-complete omits while unset (as the reference omits an unset variable),
 * so the keys table's `answered` keys can all be seen. Saved on an open instance besides its language model.
 */
export const SETUP_VALUES: Record<string, string> = {
  AgentSearXNGApiUrl: "http://127.0.0.1:8888",
  AgentTavilyApiKey: "tvly-harbour",
  AgentBraveApiKey: "brave-harbour",
  TTSOpenAICompatibleEndpoint: "http://127.0.0.1:7851/v1",
  TTSOpenAICompatibleModel: "tts-1",
  TTSOpenAICompatibleVoiceModel: "alloy",
  WhisperGenericOpenAiBaseUrl: "http://127.0.0.1:8000/v1",
  WhisperGenericOpenAiModel: "whisper-1",
  AnthropicModelPref: "claude-3-5-haiku-latest",
  AzureOpenAiEmbeddingModelPref: "text-embedding-3-small",
  AzureOpenAiEndpoint: "https://harbour.openai.azure.example.test",
  AzureOpenAiModelPref: "gpt-4o-mini",
  AzureOpenAiTokenLimit: "4096",
  ChromaApiHeader: "X-Api-Key",
  ChromaEndpoint: "http://127.0.0.1:8000",
  AstraDBEndpoint: "https://example-id-us-east-2.apps.astra.datastax.com",
  MilvusAddress: "http://127.0.0.1:19530",
  MilvusUsername: "root",
  PineConeIndex: "lectern",
  QdrantEndpoint: "http://127.0.0.1:6333",
  WeaviateEndpoint: "http://127.0.0.1:8080",
  ZillizEndpoint: "https://in03-example.serverless.gcp-us-west1.cloud.zilliz.com",
  EmbeddingBasePath: "http://127.0.0.1:11434",
  EmbeddingModelMaxChunkLength: "1000",
  EmbeddingModelPref: "nomic-embed-text",
  GenericOpenAiEmbeddingMaxConcurrentChunks: "500",
  LMStudioBasePath: "http://127.0.0.1:1234/v1",
  LMStudioModelPref: "qwen2.5-7b-instruct",
  LMStudioTokenLimit: "4096",
  LiteLLMBasePath: "http://127.0.0.1:4000",
  LocalAiBasePath: "http://127.0.0.1:8080/v1",
  LocalAiModelPref: "llama-3.2-1b-instruct",
  LocalAiTokenLimit: "4096",
  OllamaLLMBasePath: "http://127.0.0.1:11434",
  OllamaLLMModelPref: "llama3.2",
  OllamaLLMTokenLimit: "4096",
  OllamaLLMKeepAliveSeconds: "300",
  OpenAiModelPref: "gpt-4o-mini",
  ApipieLLMModelPref: "openai/gpt-4o-mini",
  AwsBedrockLLMModel: "meta.llama3-1-8b-instruct-v1:0",
  AwsBedrockLLMTokenLimit: "8192",
  DeepSeekModelPref: "deepseek-chat",
  FireworksAiLLMModelPref: "accounts/fireworks/models/llama-v3p1-8b-instruct",
  GroqModelPref: "llama-3.1-8b-instant",
  KoboldCPPBasePath: "http://127.0.0.1:5001/v1",
  KoboldCPPModelPref: "koboldcpp/model",
  LiteLLMModelPref: "gpt-4o-mini",
  LiteLLMTokenLimit: "4096",
  MistralModelPref: "mistral-small-latest",
  NovitaLLMModelPref: "meta-llama/llama-3.1-8b-instruct",
  OpenRouterModelPref: "openrouter/auto",
  PerplexityModelPref: "sonar",
  TextGenWebUIBasePath: "http://127.0.0.1:5000/v1",
  TextGenWebUITokenLimit: "4096",
  TogetherAiModelPref: "meta-llama/Llama-3.3-70B-Instruct-Turbo",
  XAIModelPref: "grok-2-latest",
};
