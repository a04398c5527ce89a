import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { eventLogs, workspaceChats, workspaces } from "../../db/schema.ts";
import { addUser, bearer, multiUserInstance, type Session } from "../testing/accounts.ts";
import { createTestApp, type TestApp } from "../testing/test_app.ts";

type Body = Record<string, unknown>;
type Page = { chats: Body[]; hasPages: boolean; totalChats: number };

const AT = new Date("2024-01-16T15:07:00.000Z");
const answer = (text: string) => JSON.stringify({ text, sources: [], type: "chat", attachments: [] });

/** Two workspaces and `count` chats alternating between them, the admin's, the last one a developer API chat. */
async function seed(app: TestApp, admin: Session | null, count: number) {
  const [alpha] = await app.deps.db.insert(workspaces).values({ name: "Alpha", slug: "alpha" }).returning();
  const [beta] = await app.deps.db.insert(workspaces).values({ name: "Beta", slug: "beta" }).returning();
  if (count > 0) {
    await app.deps.db.insert(workspaceChats).values(Array.from({ length: count }, (_, index) => ({
      workspaceId: index % 2 === 0 ? alpha.id : beta.id,
      prompt: `question ${index}`,
      response: answer(`answer ${index}`),
      userId: index === count - 1 ? null : admin?.user.id ?? null,
      apiSessionId: index === count - 1 ? "session-1" : null,
      createdAt: AT,
    })));
  }
  return { alpha, beta };
}

/** A multi-user instance with an admin, a manager and a default user. */
async function accounts(app: TestApp) {
  const admin = await multiUserInstance(app);
  const manager = await addUser(app, admin, "morgan", "manager");
  const member = await addUser(app, admin, "dora", "default");
  return { admin, manager, member };
}

async function remaining(app: TestApp): Promise<string[]> {
  const rows = await app.deps.db.select({ prompt: workspaceChats.prompt }).from(workspaceChats);
  return rows.map((row) => row.prompt);
}

Deno.test("POST /system/workspace-chats: every chat a page of 20 by offset, the newest first, with its names", async () => {
  await using app = await createTestApp();
  const { admin } = await accounts(app);
  const { alpha, beta } = await seed(app, admin, 25);
  const first = await app.json<Page>("/api/system/workspace-chats", { ...bearer(admin.token), json: {} });
  assert.equal(first.status, 200);
  assert.equal(first.body.chats.length, 20);
  assert.equal(first.body.hasPages, true);
  assert.equal(first.body.totalChats, 25);
  const [newest, next] = first.body.chats;
  assert.equal(newest.prompt, "question 24");
  assert.deepEqual(newest.user, { username: "API" });
  assert.deepEqual(newest.workspace, { name: "Alpha", slug: alpha.slug });
  assert.equal(next.prompt, "question 23");
  assert.deepEqual(next.user, { username: "admin" });
  assert.deepEqual(next.workspace, { name: "Beta", slug: beta.slug });
  assert.equal(JSON.parse(String(next.response)).text, "answer 23");
  assert.equal(next.createdAt, AT.toISOString());

  const second = await app.json<Page>("/api/system/workspace-chats", {
    ...bearer(admin.token),
    json: { offset: 1 },
  });
  assert.deepEqual(second.body.chats.map((chat) => chat.prompt), [4, 3, 2, 1, 0].map((n) => `question ${n}`));
  assert.equal(second.body.hasPages, false);
  assert.equal(second.body.totalChats, 25);
  const beyond = await app.json<Page>("/api/system/workspace-chats", {
    ...bearer(admin.token),
    json: { offset: 5 },
  });
  assert.deepEqual(beyond.body, { chats: [], hasPages: false, totalChats: 25 });

  const limited = await app.json<Page>("/api/system/workspace-chats", {
    ...bearer(admin.token),
    json: { offset: 2, limit: 10 },
  });
  assert.deepEqual(
    limited.body.chats.map((chat) => chat.prompt),
    [4, 3, 2, 1, 0].map((n) => `question ${n}`),
  );
  const noBody = await app.json<Page>("/api/system/workspace-chats", {
    ...bearer(admin.token),
    method: "POST",
  });
  assert.equal(noBody.status, 200);
  assert.equal(noBody.body.chats.length, 20, "no body is the first page");

  for (const json of [{ offset: -1 }, { offset: 1.5 }, { offset: "2" }, { limit: 0 }, { limit: 101 }]) {
    const refused = await app.json<Body>("/api/system/workspace-chats", { ...bearer(admin.token), json });
    assert.equal(refused.status, 400, JSON.stringify(json));
    assert.match(String(refused.body.error), /^(offset|limit): .*\.$/);
  }
});

Deno.test("the workspace chats calls are for admins: a manager and a default user are refused, nothing changes", async () => {
  await using app = await createTestApp();
  const { admin, manager, member } = await accounts(app);
  await seed(app, admin, 3);
  for (const session of [manager, member]) {
    const calls: [string, RequestInit & { json?: unknown }][] = [
      ["/api/system/workspace-chats", { json: {} }],
      ["/api/system/workspace-chats/1", { method: "DELETE" }],
      ["/api/system/workspace-chats/-1", { method: "DELETE" }],
      ["/api/system/export-chats?type=csv&chatType=workspace", {}],
      ["/api/system/export-chats", {}],
    ];
    for (const [path, init] of calls) {
      const refused = await app.json<Body>(path, { ...init, ...bearer(session.token) });
      assert.equal(refused.status, 403, `${session.user.role} ${init.method ?? "GET"} ${path}`);
      assert.deepEqual(refused.body, { success: false, error: "You do not have permission to do that." });
    }
  }
  // The Embed Chats screen's export is also the managers': embed chats, never the workspaces' chats.
  const embedExport = await app.request(
    "/api/system/export-chats?type=jsonl&chatType=embed",
    bearer(manager.token),
  );
  assert.equal(embedExport.status, 200);
  assert.equal(await embedExport.text(), "", "no embed chats: an empty file");
  const memberEmbedExport = await app.json<Body>(
    "/api/system/export-chats?type=csv&chatType=embed",
    bearer(member.token),
  );
  assert.equal(memberEmbedExport.status, 403);
  const anonymous = await app.json("/api/system/workspace-chats", { json: {} });
  assert.equal(anonymous.status, 401);
  assert.equal((await remaining(app)).length, 3, "no refused call deleted anything");
});

Deno.test("DELETE /system/workspace-chats/:id deletes one chat, -1 deletes every chat; both idempotent", async () => {
  await using app = await createTestApp();
  const { admin } = await accounts(app);
  await seed(app, admin, 4);
  const [second] = await app.deps.db.select().from(workspaceChats).where(
    eq(workspaceChats.prompt, "question 1"),
  );
  const one = await app.json(`/api/system/workspace-chats/${second.id}`, {
    ...bearer(admin.token),
    method: "DELETE",
  });
  assert.equal(one.status, 200);
  assert.deepEqual(one.body, { success: true, error: null });
  assert.deepEqual((await remaining(app)).sort(), ["question 0", "question 2", "question 3"]);
  const again = await app.json(`/api/system/workspace-chats/${second.id}`, {
    ...bearer(admin.token),
    method: "DELETE",
  });
  assert.deepEqual(again.body, { success: true, error: null }, "a chat already gone is not an error");
  assert.equal((await remaining(app)).length, 3);

  for (const id of ["abc", "0", "-2", "1.5"]) {
    const bad = await app.json<Body>(`/api/system/workspace-chats/${id}`, {
      ...bearer(admin.token),
      method: "DELETE",
    });
    assert.equal(bad.status, 400, id);
    assert.deepEqual(bad.body, { success: false, error: `"${id}" is not a chat id.` });
  }
  assert.equal((await remaining(app)).length, 3);

  const all = await app.json("/api/system/workspace-chats/-1", { ...bearer(admin.token), method: "DELETE" });
  assert.deepEqual(all.body, { success: true, error: null });
  assert.deepEqual(await remaining(app), []);
  assert.equal((await app.deps.db.select().from(workspaces)).length, 2, "the workspaces stay");
  const events = await app.deps.db.select().from(eventLogs);
  const cleared = events.find((event) => event.event === "workspace_chats_cleared");
  assert.ok(cleared, "clearing every chat is logged");
  assert.deepEqual(JSON.parse(String(cleared.metadata)), { deleted: 3 });
  assert.equal(cleared.userId, admin.user.id);
  const empty = await app.json<Page>("/api/system/workspace-chats", { ...bearer(admin.token), json: {} });
  assert.deepEqual(empty.body, { chats: [], hasPages: false, totalChats: 0 });
  const twice = await app.json("/api/system/workspace-chats/-1", {
    ...bearer(admin.token),
    method: "DELETE",
  });
  assert.deepEqual(twice.body, { success: true, error: null });
});

Deno.test("GET /system/export-chats: each type's file, attached with its content type, and the export logged", async () => {
  await using app = await createTestApp();
  const { admin } = await accounts(app);
  await seed(app, admin, 3);
  const get = (query: string) => app.request(`/api/system/export-chats${query}`, bearer(admin.token));

  const csv = await get("?type=csv&chatType=workspace");
  assert.equal(csv.status, 200);
  assert.equal(csv.headers.get("content-type"), "text/csv");
  assert.equal(csv.headers.get("content-disposition"), 'attachment; filename="chats.csv"');
  const lines = (await csv.text()).split("\n");
  assert.equal(lines[0], "id,workspace,prompt,response,sent_at,username,rating");
  assert.deepEqual(lines.slice(1).map((line) => line.split(",").slice(1, 4).join(",")), [
    '"Alpha","question 0","answer 0"',
    '"Beta","question 1","answer 1"',
    '"Alpha","question 2","answer 2"',
  ]);
  assert.match(lines[3], /,"API","--"$/);

  const json = await get("?type=json");
  assert.equal(json.headers.get("content-type"), "application/json");
  const records = JSON.parse(await json.text());
  assert.deepEqual(records.map((record: Body) => [record.prompt, record.response, record.username]), [
    ["question 0", "answer 0", "admin"],
    ["question 1", "answer 1", "admin"],
    ["question 2", "answer 2", "API"],
  ]);

  const jsonl = await get("?type=jsonl&chatType=workspace");
  assert.equal(jsonl.headers.get("content-type"), "application/jsonl");
  assert.equal(jsonl.headers.get("content-disposition"), 'attachment; filename="chats.jsonl"');
  const workspaceLines = (await jsonl.text()).split("\n").map((line) => JSON.parse(line));
  assert.equal(workspaceLines.length, 2, "one line per workspace");
  assert.deepEqual(
    workspaceLines[0].messages.slice(1).map((message: { content: { text: string }[] }) =>
      message.content[0].text
    ),
    ["question 0", "answer 0", "question 2", "answer 2"],
  );
  assert.equal(workspaceLines[0].messages[0].role, "system");

  const alpaca = await get("?type=jsonAlpaca");
  assert.equal(alpaca.headers.get("content-type"), "application/json");
  const pairs = JSON.parse(await alpaca.text());
  assert.deepEqual(pairs.map((pair: Body) => [pair.input, pair.output]), [
    ["question 0", "answer 0"],
    ["question 1", "answer 1"],
    ["question 2", "answer 2"],
  ]);
  assert.equal(typeof pairs[0].instruction, "string");

  const byDefault = await get("");
  assert.equal(
    byDefault.headers.get("content-type"),
    "application/jsonl",
    "jsonl by default, as the reference",
  );
  await byDefault.body?.cancel();

  const events = (await app.deps.db.select().from(eventLogs)).filter((event) =>
    event.event === "exported_chats"
  );
  assert.deepEqual(events.map((event) => JSON.parse(String(event.metadata))), [
    { type: "csv", chatType: "workspace" },
    { type: "json", chatType: "workspace" },
    { type: "jsonl", chatType: "workspace" },
    { type: "jsonAlpaca", chatType: "workspace" },
    { type: "jsonl", chatType: "workspace" },
  ]);
  assert.ok(events.every((event) => event.userId === admin.user.id));
});

Deno.test("GET /system/export-chats of an empty table: an empty file of each type, never an error", async () => {
  await using app = await createTestApp();
  await seed(app, null, 0);
  const expected: Record<string, string> = {
    csv: "id,workspace,prompt,response,sent_at,username,rating",
    json: "[]",
    jsonl: "",
    jsonAlpaca: "[]",
  };
  for (const [type, body] of Object.entries(expected)) {
    // A single-user instance: its owner is its admin.
    const response = await app.request(`/api/system/export-chats?type=${type}&chatType=workspace`);
    assert.equal(response.status, 200, type);
    assert.equal(await response.text(), body, type);
  }
});

Deno.test("GET /system/export-chats refuses an unknown type or chat type with a sentence", async () => {
  await using app = await createTestApp();
  const cases: [string, string][] = [
    ["?type=xml", 'The export type "xml" is not one of json, csv, jsonl, jsonAlpaca.'],
    ["?type=csv&chatType=thread", 'The chat type "thread" is not one of workspace, embed.'],
  ];
  for (const [query, error] of cases) {
    const refused = await app.json<Body>(`/api/system/export-chats${query}`);
    assert.equal(refused.status, 400, query);
    assert.deepEqual(refused.body, { success: false, error }, query);
  }
  const logged = (await app.deps.db.select().from(eventLogs)).filter((event) =>
    event.event === "exported_chats"
  );
  assert.equal(logged.length, 0, "a refused export is not logged");
});
