import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { workspaceChats, workspaceThreads } from "../../db/schema.ts";
import { addUser, bearer, multiUserInstance } from "../testing/accounts.ts";
import { makeApiKey, withKey } from "../testing/api_keys.ts";
import { createTestApp, type TestApp } from "../testing/test_app.ts";

type Json = Record<string, unknown>;
type ThreadJson = {
  id: number;
  name: string;
  slug: string;
  workspace_id: number;
  user_id: number | null;
  createdAt: string;
  lastUpdatedAt: string;
};

async function newWorkspace(app: TestApp, key: string, name: string) {
  const made = await app.json<{ workspace: { id: number; slug: string } }>(
    "/api/v1/workspace/new",
    withKey(key, { json: { name } }),
  );
  assert.equal(made.status, 200, JSON.stringify(made.body));
  return made.body.workspace;
}

const newThread = (app: TestApp, key: string, slug: string, body: unknown = {}) =>
  app.json<{ thread: ThreadJson | null; message: string | null }>(
    `/api/v1/workspace/${slug}/thread/new`,
    withKey(key, { json: body }),
  );

const limitedKey = async (app: TestApp, workspaceIds: number[], permissions: string[], session?: string) =>
  (await makeApiKey(app, { scope: "workspaces", workspaceIds, permissions }, session)).key;

Deno.test("v1 thread/new: a thread with the default name or the one given, a URL-safe slug, and refusals in the call's shape", async () => {
  await using app = await createTestApp();
  const { key } = await makeApiKey(app);
  const atlas = await newWorkspace(app, key, "Atlas");

  const plain = await newThread(app, key, atlas.slug);
  assert.equal(plain.status, 200, JSON.stringify(plain.body));
  assert.equal(plain.body.message, null);
  const thread = plain.body.thread!;
  assert.equal(thread.name, "Thread");
  assert.match(thread.slug, /^[0-9a-f-]{36}$/);
  assert.equal(thread.workspace_id, atlas.id);
  assert.equal(thread.user_id, null);
  assert.deepEqual(Object.keys(thread).sort(), [
    "createdAt",
    "id",
    "lastUpdatedAt",
    "name",
    "slug",
    "user_id",
    "workspace_id",
  ]);

  const named = await newThread(app, key, atlas.slug, { name: "Roadmap", slug: "Road Map!", userId: 7 });
  assert.equal(named.status, 200, JSON.stringify(named.body));
  assert.equal(named.body.thread!.name, "Roadmap");
  assert.equal(named.body.thread!.slug, "Road-Map-bang");
  assert.equal(named.body.thread!.user_id, null, "single-user mode has no users: userId is dropped");
  // The thread is reached by its slug.
  const chats = await app.json(`/api/v1/workspace/${atlas.slug}/thread/Road-Map-bang/chats`, withKey(key));
  assert.deepEqual(chats.body, { history: [] });

  const refusals: [string, unknown, number, Json][] = [
    [atlas.slug, { slug: "Road Map!" }, 409, {
      thread: null,
      message: 'A thread with the slug "Road-Map-bang" already exists.',
    }],
    [atlas.slug, { name: 42 }, 400, { thread: null, message: "name must be text." }],
    [atlas.slug, { slug: ["a"] }, 400, { thread: null, message: "slug must be text." }],
    [atlas.slug, { name: "x".repeat(256) }, 400, {
      thread: null,
      message: "name must be at most 255 characters.",
    }],
    [atlas.slug, { userId: "someone" }, 400, { thread: null, message: "userId must be the id of a user." }],
    ["nope", {}, 400, { thread: null, message: "Workspace nope is not a valid workspace." }],
  ];
  for (const [slug, body, status, answer] of refusals) {
    const refused = await newThread(app, key, slug, body);
    assert.equal(refused.status, status, JSON.stringify(body));
    assert.deepEqual(refused.body, answer);
  }
  assert.equal(
    (await app.deps.db.select().from(workspaceThreads)).length,
    2,
    "no refused call made a thread",
  );
});

Deno.test("v1 thread/new in multi-user mode: userId must name a user, who then owns the thread in the UI", async () => {
  await using app = await createTestApp();
  const admin = await multiUserInstance(app);
  const mara = await addUser(app, admin, "mara", "manager");
  const { key } = await makeApiKey(app, {}, admin.token);
  const atlas = await newWorkspace(app, key, "Atlas");

  const owned = await newThread(app, key, atlas.slug, { userId: mara.user.id, name: "Mara's" });
  assert.equal(owned.status, 200, JSON.stringify(owned.body));
  assert.equal(owned.body.thread!.user_id, mara.user.id);
  const asString = await newThread(app, key, atlas.slug, { userId: String(mara.user.id) });
  assert.equal(asString.body.thread!.user_id, mara.user.id);
  const nobody = await newThread(app, key, atlas.slug, { name: "API only" });
  assert.equal(nobody.body.thread!.user_id, null);

  const unknown = await newThread(app, key, atlas.slug, { userId: 9999 });
  assert.equal(unknown.status, 400);
  assert.deepEqual(unknown.body, { thread: null, message: "userId 9999 is not the id of a user." });

  // In the UI a user sees only their own threads; the API sees every thread.
  const inUi = await app.json<{ threads: ThreadJson[] }>(
    `/api/workspace/${atlas.slug}/threads`,
    bearer(mara.token),
  );
  assert.deepEqual(inUi.body.threads.map((thread) => thread.name).sort(), ["Mara's", "Thread"]);
  const listed = await app.json<{ workspaces: { threads: Json[] }[] }>("/api/v1/workspaces", withKey(key));
  assert.equal(listed.body.workspaces[0].threads.length, 3);
  // The API renames and deletes a user's thread: an API key has no user, so ownership does not limit it.
  const renamed = await app.json<{ thread: ThreadJson }>(
    `/api/v1/workspace/${atlas.slug}/thread/${owned.body.thread!.slug}/update`,
    withKey(key, { json: { name: "Renamed by the API" } }),
  );
  assert.equal(renamed.body.thread.name, "Renamed by the API");
  assert.equal(renamed.body.thread.user_id, mara.user.id);
});

Deno.test("v1 thread update, delete and chats: rename, delete with its chats, read every user's chats; unknowns as the reference", async () => {
  await using app = await createTestApp();
  const { key } = await makeApiKey(app);
  const atlas = await newWorkspace(app, key, "Atlas");
  const other = await newWorkspace(app, key, "Other");
  const thread = (await newThread(app, key, atlas.slug, { slug: "plans" })).body.thread!;
  const elsewhere = (await newThread(app, key, other.slug, { slug: "elsewhere" })).body.thread!;

  const renamed = await app.json<{ thread: ThreadJson; message: null }>(
    `/api/v1/workspace/${atlas.slug}/thread/plans/update`,
    withKey(key, { json: { name: "  Q3 plans " } }),
  );
  assert.equal(renamed.status, 200);
  assert.equal(renamed.body.thread.name, "Q3 plans");
  assert.equal(renamed.body.thread.id, thread.id);
  assert.equal(renamed.body.message, null);

  const updateRefusals: [string, unknown, number, Json][] = [
    [`${atlas.slug}/thread/plans`, {}, 400, { thread: null, message: "name is required." }],
    [`${atlas.slug}/thread/plans`, { name: " " }, 400, {
      thread: null,
      message: "The thread name cannot be empty.",
    }],
    [`${atlas.slug}/thread/nothing`, { name: "x" }, 404, { message: "Thread not found" }],
    [`${atlas.slug}/thread/elsewhere`, { name: "x" }, 404, { message: "Thread not found" }],
    ["nope/thread/plans", { name: "x" }, 404, { message: "Workspace not found" }],
  ];
  for (const [path, body, status, answer] of updateRefusals) {
    const refused = await app.json(`/api/v1/workspace/${path}/update`, withKey(key, { json: body }));
    assert.equal(refused.status, status, path);
    assert.deepEqual(refused.body, answer, path);
  }

  const response = (text: string) =>
    JSON.stringify({ text, sources: [], type: "chat", attachments: [], metrics: {} });
  await app.deps.db.insert(workspaceChats).values([
    { workspaceId: atlas.id, threadId: thread.id, prompt: "first", response: response("one") },
    {
      workspaceId: atlas.id,
      threadId: thread.id,
      prompt: "cleared",
      response: response("x"),
      include: false,
    },
    { workspaceId: atlas.id, threadId: thread.id, prompt: "api", response: response("x"), apiSessionId: "s" },
    { workspaceId: atlas.id, prompt: "default thread", response: response("x") },
    { workspaceId: atlas.id, threadId: thread.id, prompt: "second", response: response("two") },
  ]);
  const chats = await app.json<{ history: { role: string; content: string }[] }>(
    `/api/v1/workspace/${atlas.slug}/thread/plans/chats`,
    withKey(key),
  );
  assert.equal(chats.status, 200);
  assert.deepEqual(chats.body.history.map((entry) => [entry.role, entry.content]), [
    ["user", "first"],
    ["assistant", "one"],
    ["user", "second"],
    ["assistant", "two"],
  ]);
  for (
    const [path, answer] of [
      [`${atlas.slug}/thread/nothing`, { message: "Thread not found" }],
      ["nope/thread/plans", { message: "Workspace not found" }],
    ] as const
  ) {
    const refused = await app.json(`/api/v1/workspace/${path}/chats`, withKey(key));
    assert.equal(refused.status, 404);
    assert.deepEqual(refused.body, answer);
  }

  const deleted = await app.request(
    `/api/v1/workspace/${atlas.slug}/thread/plans`,
    withKey(key, { method: "DELETE" }),
  );
  assert.equal(deleted.status, 200);
  assert.equal(await deleted.text(), "OK");
  assert.deepEqual(
    (await app.deps.db.select().from(workspaceThreads)).map((row) => row.slug),
    ["elsewhere"],
  );
  const left = await app.deps.db.select().from(workspaceChats).where(
    eq(workspaceChats.workspaceId, atlas.id),
  );
  assert.deepEqual(left.map((row) => row.prompt), ["default thread"], "the thread's chats went with it");

  // Another workspace's thread is not deleted through this one; an unknown thread is OK, as the reference.
  const wrongPlace = await app.request(
    `/api/v1/workspace/${atlas.slug}/thread/${elsewhere.slug}`,
    withKey(key, { method: "DELETE" }),
  );
  assert.equal(wrongPlace.status, 200);
  assert.equal((await app.deps.db.select().from(workspaceThreads)).length, 1);
  const unknown = await app.json("/api/v1/workspace/nope/thread/plans", withKey(key, { method: "DELETE" }));
  assert.equal(unknown.status, 400);
  assert.deepEqual(unknown.body, { error: "Workspace nope is not a valid workspace." });
});

Deno.test("v1 threads and key scopes: chat keys change threads in their workspaces, read keys read their chats", async () => {
  await using app = await createTestApp();
  const { key } = await makeApiKey(app);
  const atlas = await newWorkspace(app, key, "Atlas");
  const other = await newWorkspace(app, key, "Other");
  await newThread(app, key, other.slug, { slug: "theirs" });
  const chat = await limitedKey(app, [atlas.id], ["chat"]);
  const read = await limitedKey(app, [atlas.id], ["read"]);
  const readOnly = (await makeApiKey(app, { scope: "read" })).key;

  const made = await newThread(app, chat, atlas.slug, { slug: "mine" });
  assert.equal(made.status, 200);
  const renamed = await app.json(
    `/api/v1/workspace/${atlas.slug}/thread/mine/update`,
    withKey(chat, { json: { name: "Mine" } }),
  );
  assert.equal(renamed.status, 200);
  assert.equal(
    (await app.json(`/api/v1/workspace/${atlas.slug}/thread/mine/chats`, withKey(read))).status,
    200,
  );
  assert.equal(
    (await app.json(`/api/v1/workspace/${atlas.slug}/thread/mine/chats`, withKey(readOnly))).status,
    200,
  );

  const refusals: [string, string, string, unknown, RegExp][] = [
    ["read key makes a thread", read, `${atlas.slug}/thread/new`, {}, /cannot chat\.$/],
    ["read-only key makes a thread", readOnly, `${atlas.slug}/thread/new`, {}, /read-only/],
    ["chat key reads chats", chat, `${atlas.slug}/thread/mine/chats`, undefined, /cannot read\.$/],
    [
      "chat key in another workspace",
      chat,
      `${other.slug}/thread/new`,
      {},
      /cannot use the workspace "other"/,
    ],
    ["chat key renames elsewhere", chat, `${other.slug}/thread/theirs/update`, { name: "x" }, /"other"/],
  ];
  for (const [what, withAKey, path, body, message] of refusals) {
    const refused = await app.json<Json>(
      `/api/v1/workspace/${path}`,
      withKey(withAKey, body === undefined ? {} : { json: body }),
    );
    assert.equal(refused.status, 403, what);
    assert.match(String(refused.body.error), message, what);
  }
  const deleteElsewhere = await app.json(
    `/api/v1/workspace/${other.slug}/thread/theirs`,
    withKey(chat, { method: "DELETE" }),
  );
  assert.equal(deleteElsewhere.status, 403);
  const deleteAsReader = await app.json(
    `/api/v1/workspace/${atlas.slug}/thread/mine`,
    withKey(read, { method: "DELETE" }),
  );
  assert.equal(deleteAsReader.status, 403);
  assert.deepEqual((await app.deps.db.select().from(workspaceThreads)).map((row) => row.slug).sort(), [
    "mine",
    "theirs",
  ]);
  assert.equal(
    (await app.request(`/api/v1/workspace/${atlas.slug}/thread/mine`, withKey(chat, { method: "DELETE" })))
      .status,
    200,
  );
});
