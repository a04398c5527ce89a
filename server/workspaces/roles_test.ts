/**
 * Per-workspace roles (issue 24) over every route that takes a workspace: the routes are read from the app's
 * router, so a new one without a line here fails. Each (route, caller) pair runs against a workspace of its own
 * (members: a viewer, an editor and an owner, all default users), so that a call that deletes or changes
 * something spoils no other case.
 */
import assert from "node:assert/strict";
import {
  workspaceChats,
  workspaceDocuments,
  workspacePromptHistory,
  workspaces,
  workspaceThreads,
  workspaceUsers,
} from "../../db/schema.ts";
import { createApp } from "../app.ts";
import { appRoutes } from "../http/lazy_routes.ts";
import { addUser, bearer, multiUserInstance, type Session } from "../testing/accounts.ts";
import { createTestApp, type TestApp } from "../testing/test_app.ts";
import { HIDDEN_DOCUMENT_REFUSAL, WORKSPACE_ROLE_REFUSAL } from "./access.ts";
import type { WorkspaceRole } from "../../shared/roles.ts";

/** Who calls: the three members, a default user who is no member, and the instance's admin. */
type Caller = "viewer" | "editor" | "owner" | "stranger" | "admin";
const CALLERS: Caller[] = ["viewer", "editor", "owner", "stranger", "admin"];
const UNKNOWN_ID = 987_654;

interface Fixture {
  slug: string;
  /** The caller's own thread, chat in the default thread, and chat in that thread. */
  thread: string;
  chat: number;
  threadChat: number;
  /** An earlier system prompt of the workspace. */
  history: number;
  ids: Record<Caller, number>;
}

interface Call {
  method: string;
  path: string;
  json?: unknown;
  form?: () => FormData;
}

interface Rule {
  least: WorkspaceRole;
  call: (f: Fixture) => Call;
  /** Library-wide calls: admins and managers only, whatever the workspace role (a 403 for every default user). */
  instanceOnly?: true;
}

const ws = (f: Fixture) => `/api/workspace/${f.slug}`;
const get = (path: string): Call => ({ method: "GET", path });
const post = (path: string, json: unknown = {}): Call => ({ method: "POST", path, json });
const del = (path: string, json?: unknown): Call => ({ method: "DELETE", path, json });
const upload = (path: string, name: string, type: string, bytes: BlobPart): Call => ({
  method: "POST",
  path,
  form: () => {
    const form = new FormData();
    form.append("file", new File([bytes], name, { type }));
    return form;
  },
});
const PNG = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="),
  (char) => char.charCodeAt(0),
);
const text = (path: string) => upload(path, "notes.txt", "text/plain", "The harbour opens at seven.");

/** Every route that takes a workspace, with the least workspace role it needs. */
const RULES: Record<string, Rule> = {
  // --- viewer: chat, threads, the caller's own history ---
  "GET /api/workspace/:slug": { least: "viewer", call: (f) => get(ws(f)) },
  "GET /api/workspace/:slug/my-role": { least: "viewer", call: (f) => get(`${ws(f)}/my-role`) },
  "GET /api/workspace/:slug/chats": { least: "viewer", call: (f) => get(`${ws(f)}/chats`) },
  "POST /api/workspace/:slug/stream-chat": {
    least: "viewer",
    call: (f) => post(`${ws(f)}/stream-chat`, { message: "When does the harbour open?" }),
  },
  "GET /api/workspace/:slug/threads": { least: "viewer", call: (f) => get(`${ws(f)}/threads`) },
  "POST /api/workspace/:slug/thread/new": { least: "viewer", call: (f) => post(`${ws(f)}/thread/new`) },
  "GET /api/workspace/:slug/thread/:threadSlug/chats": {
    least: "viewer",
    call: (f) => get(`${ws(f)}/thread/${f.thread}/chats`),
  },
  "POST /api/workspace/:slug/thread/:threadSlug/stream-chat": {
    least: "viewer",
    call: (f) => post(`${ws(f)}/thread/${f.thread}/stream-chat`, { message: "And on Sundays?" }),
  },
  "POST /api/workspace/:slug/thread/:threadSlug/update": {
    least: "viewer",
    call: (f) => post(`${ws(f)}/thread/${f.thread}/update`, { name: "Renamed" }),
  },
  "DELETE /api/workspace/:slug/thread/:threadSlug": {
    least: "viewer",
    call: (f) => del(`${ws(f)}/thread/${f.thread}`),
  },
  "DELETE /api/workspace/:slug/thread-bulk-delete": {
    least: "viewer",
    call: (f) => del(`${ws(f)}/thread-bulk-delete`, { slugs: [f.thread] }),
  },
  "POST /api/workspace/:slug/thread/fork": {
    least: "viewer",
    call: (f) => post(`${ws(f)}/thread/fork`, { chatId: f.chat }),
  },
  "DELETE /api/workspace/:slug/delete-edited-chats": {
    least: "viewer",
    call: (f) => del(`${ws(f)}/delete-edited-chats`, { startingId: f.chat }),
  },
  "POST /api/workspace/:slug/update-chat": {
    least: "viewer",
    call: (f) => post(`${ws(f)}/update-chat`, { chatId: f.chat, newText: "Edited." }),
  },
  "DELETE /api/workspace/:slug/thread/:threadSlug/delete-edited-chats": {
    least: "viewer",
    call: (f) => del(`${ws(f)}/thread/${f.thread}/delete-edited-chats`, { startingId: f.threadChat }),
  },
  "POST /api/workspace/:slug/thread/:threadSlug/update-chat": {
    least: "viewer",
    call: (f) =>
      post(`${ws(f)}/thread/${f.thread}/update-chat`, { chatId: f.threadChat, newText: "Edited." }),
  },
  "DELETE /api/workspace/:slug/delete-chats": {
    least: "viewer",
    call: (f) => del(`${ws(f)}/delete-chats`, { chatIds: [f.chat] }),
  },
  "POST /api/workspace/:slug/chat-feedback/:chatId": {
    least: "viewer",
    call: (f) => post(`${ws(f)}/chat-feedback/${f.chat}`, { feedback: true }),
  },
  "PUT /api/workspace/workspace-chats/:id": {
    least: "viewer",
    call: (f) => ({ method: "PUT", path: `/api/workspace/workspace-chats/${f.chat}`, json: {} }),
  },
  "GET /api/workspace/:slug/tts/:chatId": { least: "viewer", call: (f) => get(`${ws(f)}/tts/${f.chat}`) },
  "GET /api/workspace/:slug/parsed-files": { least: "viewer", call: (f) => get(`${ws(f)}/parsed-files`) },
  "POST /api/workspace/:slug/parse": { least: "viewer", call: (f) => text(`${ws(f)}/parse`) },
  "DELETE /api/workspace/:slug/delete-parsed-files": {
    least: "viewer",
    call: (f) => del(`${ws(f)}/delete-parsed-files`, { fileIds: [UNKNOWN_ID] }),
  },
  "GET /api/workspace/:slug/prompt-history": { least: "viewer", call: (f) => get(`${ws(f)}/prompt-history`) },
  "GET /api/workspace/:slug/suggested-messages": {
    least: "viewer",
    call: (f) => get(`${ws(f)}/suggested-messages`),
  },
  "GET /api/workspace/:slug/pfp": { least: "viewer", call: (f) => get(`${ws(f)}/pfp`) },
  "GET /api/workspace/:slug/is-agent-command-available": {
    least: "viewer",
    call: (f) => get(`${ws(f)}/is-agent-command-available`),
  },
  "POST /api/export-chat/:type": {
    least: "viewer",
    call: (f) => post("/api/export-chat/markdown", { workspaceSlug: f.slug, threadSlug: f.thread }),
  },

  // --- editor: documents, pins, watches, settings ---
  "POST /api/workspace/:slug/update": {
    least: "editor",
    call: (f) => post(`${ws(f)}/update`, { openAiHistory: 3 }),
  },
  "DELETE /api/workspace/:slug/reset-vector-db": {
    least: "editor",
    call: (f) => del(`${ws(f)}/reset-vector-db`),
  },
  "POST /api/workspace/:slug/suggested-messages": {
    least: "editor",
    call: (f) => post(`${ws(f)}/suggested-messages`, { messages: [{ heading: "Hi", message: "Ask me" }] }),
  },
  "POST /api/workspace/:slug/upload-pfp": {
    least: "editor",
    call: (f) => upload(`${ws(f)}/upload-pfp`, "face.png", "image/png", PNG),
  },
  "DELETE /api/workspace/:slug/remove-pfp": { least: "editor", call: (f) => del(`${ws(f)}/remove-pfp`) },
  "POST /api/workspace/:slug/upload": { least: "editor", call: (f) => text(`${ws(f)}/upload`) },
  "POST /api/workspace/:slug/upload-link": {
    least: "editor",
    // A loopback port the URL guard refuses: nothing is fetched.
    call: (f) => post(`${ws(f)}/upload-link`, { link: "http://127.0.0.1:9/notice" }),
  },
  "POST /api/workspace/:slug/upload-and-embed": {
    least: "editor",
    call: (f) => text(`${ws(f)}/upload-and-embed`),
  },
  "POST /api/workspace/:slug/update-embeddings": {
    least: "editor",
    call: (f) => post(`${ws(f)}/update-embeddings`, { adds: [], deletes: [] }),
  },
  "POST /api/workspace/:slug/update-pin": {
    least: "editor",
    call: (f) => post(`${ws(f)}/update-pin`, { docPath: "custom-documents/none.json", pinStatus: true }),
  },
  "POST /api/workspace/:slug/update-watch-status": {
    least: "editor",
    call: (f) =>
      post(`${ws(f)}/update-watch-status`, { docPath: "custom-documents/none.json", watchStatus: true }),
  },
  "GET /api/workspace/:slug/embed-progress": { least: "editor", call: (f) => get(`${ws(f)}/embed-progress`) },
  "DELETE /api/workspace/:slug/embed-queue": {
    least: "editor",
    call: (f) => del(`${ws(f)}/embed-queue`, { filename: "none.json" }),
  },
  "POST /api/workspace/:slug/embed-parsed-file/:fileId": {
    least: "editor",
    call: (f) => post(`${ws(f)}/embed-parsed-file/${UNKNOWN_ID}`),
  },
  "DELETE /api/workspace/:slug/prompt-history": {
    least: "editor",
    call: (f) => del(`${ws(f)}/prompt-history`),
  },
  "DELETE /api/workspace/prompt-history/:id": {
    least: "editor",
    call: (f) => del(`/api/workspace/prompt-history/${f.history}`),
  },
  "DELETE /api/workspace/:slug/remove-and-unembed": {
    least: "editor",
    instanceOnly: true,
    call: (f) => del(`${ws(f)}/remove-and-unembed`, { documentLocation: "custom-documents/none.json" }),
  },

  // --- owner: members and the workspace itself ---
  "GET /api/workspace/:slug/members": { least: "owner", call: (f) => get(`${ws(f)}/members`) },
  "POST /api/workspace/:slug/members": {
    least: "owner",
    call: (f) =>
      post(`${ws(f)}/members`, {
        members: [
          { userId: f.ids.viewer, role: "viewer" },
          { userId: f.ids.editor, role: "editor" },
          { userId: f.ids.owner, role: "owner" },
        ],
      }),
  },
  "DELETE /api/workspace/:slug": { least: "owner", call: (f) => del(ws(f)) },
};

/** Routes under /api/workspace/ that take no workspace: their own guards (tests/security/). */
const NOT_SCOPED: Record<string, string> = {
  "POST /api/workspace/new": "creates a workspace: workspace:create (admins and managers)",
  "POST /api/workspace/search": "searches only the workspaces the caller sees (listWorkspaces)",
};

const inScope = (path: string) => path.startsWith("/api/workspace/") || path.startsWith("/api/export-chat/");

interface Answer {
  status: number;
  message: unknown;
  text: string;
}

async function send(app: TestApp, call: Call, token: string): Promise<Answer> {
  const headers: Record<string, string> = { Authorization: `Bearer ${token}` };
  let body: BodyInit | undefined;
  if (call.form) body = call.form();
  else if (call.json !== undefined) {
    body = JSON.stringify(call.json);
    headers["Content-Type"] = "application/json";
  }
  const response = await app.request(call.path, { method: call.method, headers, body });
  // A progress stream does not end by itself: its status is the answer.
  if (response.headers.get("Content-Type")?.startsWith("text/event-stream")) {
    await response.body?.cancel();
    return { status: response.status, message: null, text: "" };
  }
  const text = await response.text();
  let parsed: Record<string, unknown> | null = null;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: response.status, message: parsed?.error ?? parsed?.message ?? null, text };
}

interface World {
  app: TestApp;
  sessions: Record<Caller, Session>;
  ids: Record<Caller, number>;
  counter: number;
}

async function buildWorld(app: TestApp): Promise<World> {
  const admin = await multiUserInstance(app);
  const sessions = { admin } as Record<Caller, Session>;
  for (const caller of CALLERS) {
    if (caller !== "admin") sessions[caller] = await addUser(app, admin, `${caller}-user`, "default");
  }
  const ids = Object.fromEntries(CALLERS.map((caller) => [caller, sessions[caller].user.id])) as Record<
    Caller,
    number
  >;
  return { app, sessions, ids, counter: 0 };
}

/** A workspace of its own for one case, with the three members and the caller's own objects in it. */
async function fixture(world: World, caller: Caller, visibleToAll = false): Promise<Fixture> {
  const db = world.app.deps.db;
  const n = ++world.counter;
  const [workspace] = await db.insert(workspaces).values({
    name: `Case ${n}`,
    slug: `case-${n}`,
    visibleToAll,
  })
    .returning();
  await db.insert(workspaceUsers).values([
    { workspaceId: workspace.id, userId: world.ids.viewer, role: "viewer" },
    { workspaceId: workspace.id, userId: world.ids.editor, role: "editor" },
    { workspaceId: workspace.id, userId: world.ids.owner, role: "owner" },
  ]);
  const userId = world.ids[caller];
  const [thread] = await db.insert(workspaceThreads).values({
    name: "Thread",
    slug: `case-${n}-thread`,
    workspaceId: workspace.id,
    userId,
  }).returning();
  const chat = async (threadId: number | null) => {
    const [row] = await db.insert(workspaceChats).values({
      workspaceId: workspace.id,
      threadId,
      userId,
      prompt: "When does the harbour open?",
      response: JSON.stringify({ text: "At seven.", sources: [], type: "chat" }),
    }).returning();
    return row.id;
  };
  const [history] = await db.insert(workspacePromptHistory).values({
    workspaceId: workspace.id,
    prompt: "Answer briefly.",
    modifiedBy: world.ids.admin,
  }).returning();
  return {
    slug: workspace.slug,
    thread: thread.slug,
    chat: await chat(null),
    threadChat: await chat(thread.id),
    history: history.id,
    ids: world.ids,
  };
}

const RANK: Record<WorkspaceRole, number> = { viewer: 0, editor: 1, owner: 2 };

function assertRefused(answer: Answer, key: string, who: string) {
  const shown = `${key} as ${who}: ${answer.status} ${answer.text.slice(0, 200)}`;
  assert.equal(answer.status, 403, shown);
  assert.equal(answer.message, WORKSPACE_ROLE_REFUSAL, shown);
}

function assertHidden(answer: Answer, key: string, who: string) {
  const shown = `${key} as ${who}: ${answer.status} ${answer.text.slice(0, 200)}`;
  assert.equal(answer.status, 404, shown);
}

/** The guard let the call through: no refusal, no hidden workspace, no crash. */
function assertPassed(answer: Answer, key: string, who: string) {
  const shown = `${key} as ${who}: ${answer.status} ${answer.text.slice(0, 200)}`;
  assert.ok(!(answer.status === 403 && answer.message === WORKSPACE_ROLE_REFUSAL), shown);
  assert.ok(!(answer.status === 404 && answer.message === "Workspace does not exist."), shown);
  assert.notEqual(answer.status, 500, shown);
}

Deno.test("workspace roles: every workspace route for a viewer, an editor, an owner, a non-member and an admin", async (t) => {
  await using app = await createTestApp();
  const world = await buildWorld(app);

  await t.step("every route that takes a workspace has a role here, and only served routes do", async () => {
    // The API's routes load on first use: appRoutes expands the lazy mounts into the routes they serve.
    const served = new Set(
      (await appRoutes(createApp(app.deps))).filter((route) => route.method !== "ALL" && inScope(route.path))
        .map((route) => `${route.method} ${route.path}`),
    );
    const unclassified = [...served].filter((key) => !(key in RULES) && !(key in NOT_SCOPED));
    assert.deepEqual(
      unclassified,
      [],
      "a new workspace route needs a line in server/workspaces/roles_test.ts",
    );
    const gone = [...Object.keys(RULES), ...Object.keys(NOT_SCOPED)].filter((key) => !served.has(key));
    assert.deepEqual(gone, [], "routes in the table that the app no longer serves");
  });

  for (const [key, rule] of Object.entries(RULES)) {
    await t.step(`${key}: least role ${rule.least}`, async () => {
      for (const caller of CALLERS) {
        const f = await fixture(world, caller);
        const answer = await send(app, rule.call(f), world.sessions[caller].token);
        if (caller === "admin") assertPassed(answer, key, caller);
        else if (rule.instanceOnly) assertRefused(answer, key, caller);
        else if (caller === "stranger") assertHidden(answer, key, caller);
        else if (RANK[caller as WorkspaceRole] < RANK[rule.least]) assertRefused(answer, key, caller);
        else assertPassed(answer, key, caller);
      }
      // A workspace visible to all users: the non-member is a viewer there.
      const open = await fixture(world, "stranger", true);
      const answer = await send(app, rule.call(open), world.sessions.stranger.token);
      if (rule.least === "viewer" && !rule.instanceOnly) {
        assertPassed(answer, key, "visitor of an open workspace");
      } else assertRefused(answer, key, "visitor of an open workspace");
    });
  }
});

Deno.test("workspace roles: lists, visibility, the owner's member calls and the admin's roles", async () => {
  await using app = await createTestApp();
  const world = await buildWorld(app);
  const token = (caller: Caller) => world.sessions[caller].token;
  const hidden = await fixture(world, "viewer");
  const open = await fixture(world, "viewer", true);

  const listed = async (caller: Caller) => {
    const answer = await app.json<{ workspaces: { slug: string }[] }>(
      "/api/workspaces",
      bearer(token(caller)),
    );
    return answer.body.workspaces.map((row) => row.slug);
  };
  assert.deepEqual(await listed("stranger"), [open.slug], "a non-member sees only the open workspace");
  assert.deepEqual((await listed("viewer")).sort(), [hidden.slug, open.slug].sort());

  const role = async (caller: Caller, slug: string) =>
    (await app.json<{ role?: string }>(`/api/workspace/${slug}/my-role`, bearer(token(caller)))).body.role;
  assert.equal(await role("stranger", open.slug), "viewer");
  assert.equal(await role("editor", hidden.slug), "editor");
  assert.equal(await role("admin", hidden.slug), "owner", "admins keep their reach everywhere");

  // The owner promotes the viewer to editor and hides the open workspace again.
  const members = await app.json<{ members: { userId: number; role: string }[]; visibleToAll: boolean }>(
    `/api/workspace/${open.slug}/members`,
    bearer(token("owner")),
  );
  assert.equal(members.status, 200);
  assert.equal(members.body.visibleToAll, true);
  const saved = await app.json(`/api/workspace/${open.slug}/members`, {
    ...bearer(token("owner")),
    json: {
      members: [
        { userId: world.ids.viewer, role: "editor" },
        { userId: world.ids.owner, role: "owner" },
      ],
      visibleToAll: false,
    },
  });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
  assert.equal(await role("viewer", open.slug), "editor");
  assert.deepEqual(await listed("stranger"), [], "the workspace is private again");
  const gone = await app.json(`/api/workspace/${open.slug}/my-role`, bearer(token("editor")));
  assert.equal(gone.status, 404, "the editor was removed");

  // An owner cannot take away their own ownership.
  const self = await app.json(`/api/workspace/${open.slug}/members`, {
    ...bearer(token("owner")),
    json: { members: [{ userId: world.ids.owner, role: "editor" }] },
  });
  assert.equal(self.status, 400, JSON.stringify(self.body));
  assert.equal(await role("owner", open.slug), "owner");

  // The admin's reference call keeps its shape: a member named in `roles` gets it, the others keep theirs.
  const [row] = (await app.json<{ workspaces: { id: number; slug: string }[] }>(
    "/api/admin/workspaces",
    bearer(token("admin")),
  )).body.workspaces.filter((workspace) => workspace.slug === hidden.slug);
  const plain = await app.json(`/api/admin/workspaces/${row.id}/update-users`, {
    ...bearer(token("admin")),
    json: { userIds: [world.ids.viewer, world.ids.editor, world.ids.owner, world.ids.stranger] },
  });
  assert.equal(plain.status, 200, JSON.stringify(plain.body));
  assert.equal(await role("stranger", hidden.slug), "viewer", "a new member is a viewer");
  assert.equal(await role("editor", hidden.slug), "editor", "a member keeps their role");
  const withRoles = await app.json(`/api/admin/workspaces/${row.id}/update-users`, {
    ...bearer(token("admin")),
    json: {
      userIds: [world.ids.viewer, world.ids.stranger],
      roles: { [world.ids.stranger]: "owner" },
      visibleToAll: true,
    },
  });
  assert.equal(withRoles.status, 200, JSON.stringify(withRoles.body));
  assert.equal(await role("stranger", hidden.slug), "owner");
  assert.equal(
    await role("editor", hidden.slug),
    "viewer",
    "no longer a member: a viewer of a workspace open to all",
  );
  const users = await app.json<{ users: { userId: number; workspaceRole: string }[] }>(
    `/api/admin/workspaces/${row.id}/users`,
    bearer(token("admin")),
  );
  assert.deepEqual(
    users.body.users.map((user) => [user.userId, user.workspaceRole]).sort(),
    [[world.ids.viewer, "viewer"], [world.ids.stranger, "owner"]].sort(),
  );
});

Deno.test("an editor adds from the library only documents no hidden workspace holds", async () => {
  await using app = await createTestApp();
  const world = await buildWorld(app);
  const mine = await fixture(world, "editor");
  // A workspace the editor is not in, holding a document.
  const db = app.deps.db;
  const [theirs] = await db.insert(workspaces).values({ name: "Board", slug: "board" }).returning();
  const hiddenDoc = "custom-documents/board-minutes.json";
  await db.insert(workspaceDocuments).values({
    docId: crypto.randomUUID(),
    filename: "board-minutes.json",
    docpath: hiddenDoc,
    workspaceId: theirs.id,
    metadata: "{}",
  });
  const add = (docpath: string) =>
    app.json(`/api/workspace/${mine.slug}/update-embeddings`, {
      ...bearer(world.sessions.editor.token),
      json: { adds: [docpath], deletes: [] },
    });
  const refused = await add(hiddenDoc);
  assert.equal(refused.status, 403, JSON.stringify(refused.body));
  assert.equal(refused.body.message, HIDDEN_DOCUMENT_REFUSAL);
  const free = await add("custom-documents/in-no-workspace.json");
  assert.notEqual(free.status, 403, JSON.stringify(free.body));
  // Made visible to all users, the board's documents are the editor's to read, and so to add.
  await db.update(workspaces).set({ visibleToAll: true });
  const readable = await add(hiddenDoc);
  assert.notEqual(readable.status, 403, JSON.stringify(readable.body));
});
