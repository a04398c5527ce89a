import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { embedChats, embedConfigs, eventLogs } from "../../db/schema.ts";
import type { EmbedChatsPage, EmbedView } from "../../shared/api/embeds.ts";
import { addUser, bearer, multiUserInstance } from "../testing/accounts.ts";
import { startFakeOpenAi } from "../testing/fake_openai.ts";
import { createTestApp, genericOpenAiSettings, readFrames, type TestApp } from "../testing/test_app.ts";

const FREEDONIA =
  "Freedonia is a small country. The capital of Freedonia is Fredville, on the Blue River.\n\n" +
  "Freedonia exports cheese and violins. Its national bird is the grey heron.";
const SITE = "https://shop.example";
const OTHER = "https://evil.example";
const SESSION = "6f1c2c1e-8a4b-4c1d-9e2f-0a1b2c3d4e5f";
const FOREIGN =
  "Requests from other web sites are refused: open this instance itself, or call the API without a browser.";

async function newWorkspace(app: TestApp, name: string): Promise<{ id: number; slug: string }> {
  const created = await app.json<{ workspace: { id: number; slug: string } }>("/api/workspace/new", {
    json: { name },
  });
  assert.equal(created.status, 200);
  return created.body.workspace;
}

async function withDocument(app: TestApp, name = "Atlas") {
  const workspace = await newWorkspace(app, name);
  const form = new FormData();
  form.append("file", new File([FREEDONIA], "freedonia.txt", { type: "text/plain" }));
  const upload = await app.json<{ documents: { location: string }[] }>(
    `/api/workspace/${workspace.slug}/upload`,
    { method: "POST", body: form },
  );
  assert.equal(upload.status, 200, JSON.stringify(upload.body));
  const embedded = await app.json(`/api/workspace/${workspace.slug}/update-embeddings`, {
    json: { adds: [upload.body.documents[0].location] },
  });
  assert.equal(embedded.status, 200);
  return workspace;
}

async function newEmbed(app: TestApp, body: Record<string, unknown>, init: RequestInit = {}) {
  const made = await app.json<{ embed: EmbedView; error: null }>("/api/embeds/new", { ...init, json: body });
  assert.equal(made.status, 200, JSON.stringify(made.body));
  return made.body.embed;
}

function widgetChat(
  app: TestApp,
  uuid: string,
  body: Record<string, unknown>,
  origin: string | null = SITE,
) {
  return app.request(`/api/embed/${uuid}/stream-chat`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(origin ? { Origin: origin } : {}) },
    body: JSON.stringify({ sessionId: SESSION, ...body }),
  });
}

async function events(app: TestApp, event: string) {
  return await app.deps.db.select().from(eventLogs).where(eq(eventLogs.event, event));
}

Deno.test("embeds: created with the reference's defaults and fields, listed with workspace and chat count, updated and deleted", async () => {
  await using app = await createTestApp();
  const workspace = await newWorkspace(app, "Shop help");

  const made = await newEmbed(app, {
    workspace_id: String(workspace.id),
    allowlist_domains: "shop.example, http://localhost:8080,https://shop.example/",
    max_chats_per_day: "0",
    allow_prompt_override: true,
  });
  assert.match(made.uuid, /^[0-9a-f-]{36}$/);
  assert.equal(made.enabled, true);
  assert.equal(made.chat_mode, "query");
  assert.equal(made.allowlist_domains, JSON.stringify(["https://shop.example", "http://localhost:8080"]));
  assert.equal(made.max_chats_per_day, null, "0 is no limit");
  assert.equal(made.max_chats_per_session, null);
  assert.equal(made.message_limit, 20);
  assert.equal(made.allow_prompt_override, true);
  assert.equal(made.allow_model_override, false);
  assert.deepEqual(made.workspace, { id: workspace.id, name: "Shop help", slug: workspace.slug });
  assert.deepEqual(made._count, { embed_chats: 0 });

  const listed = await app.json<{ embeds: EmbedView[] }>("/api/embeds");
  assert.equal(listed.status, 200);
  assert.deepEqual(listed.body.embeds, [made]);

  const updated = await app.json(`/api/embed/update/${made.id}`, {
    json: { chat_mode: "chat", enabled: false, allowlist_domains: null, max_chats_per_session: 3 },
  });
  assert.deepEqual(updated, { status: 200, body: { success: true, error: null } });
  const [after] = (await app.json<{ embeds: EmbedView[] }>("/api/embeds")).body.embeds;
  assert.equal(after.chat_mode, "chat");
  assert.equal(after.enabled, false);
  assert.equal(after.allowlist_domains, null);
  assert.equal(after.max_chats_per_session, 3);
  assert.equal(after.allow_prompt_override, true, "fields not sent stay");

  const [created] = await events(app, "embed_created");
  assert.deepEqual(JSON.parse(created.metadata!), { embedId: made.id, workspaceId: workspace.id });
  const [changed] = await events(app, "embed_updated");
  assert.deepEqual(JSON.parse(changed.metadata!), {
    embedId: made.id,
    changed: ["chat_mode", "allowlist_domains", "max_chats_per_session", "enabled"],
  });

  const deleted = await app.json(`/api/embed/${made.id}`, { method: "DELETE" });
  assert.deepEqual(deleted, { status: 200, body: { success: true, error: null } });
  assert.equal((await events(app, "embed_deleted")).length, 1);
  assert.deepEqual((await app.json("/api/embeds")).body, { embeds: [] });
  const again = await app.json(`/api/embed/${made.id}`, { method: "DELETE" });
  assert.deepEqual(again, {
    status: 404,
    body: { success: false, error: `Embed ${made.id} does not exist.` },
  });
  const missing = await app.json(`/api/embed/update/${made.id}`, { json: { enabled: true } });
  assert.equal(missing.status, 404);
});

Deno.test("embeds: bad bodies are refused with a sentence naming the field, and nothing is stored", async () => {
  await using app = await createTestApp();
  const workspace = await newWorkspace(app, "Shop help");
  const cases: [unknown, string][] = [
    [{}, "workspace_id is required: the workspace the widget answers from."],
    [{ workspace_id: "abc" }, "workspace_id must be the id of a workspace."],
    [{ workspace_id: 999 }, "workspace_id 999 is not a workspace."],
    [{ workspace_id: workspace.id, chat_mode: "automatic" }, 'chat_mode must be "chat" or "query".'],
    [
      { workspace_id: workspace.id, allowlist_domains: "shop.example, ftp://files.example" },
      'allowlist_domains: "ftp://files.example" is not a web site\'s address (such as https://example.com).',
    ],
    [
      { workspace_id: workspace.id, allowlist_domains: ["https://shop.example/path"] },
      'allowlist_domains: "https://shop.example/path" is not a web site\'s address (such as https://example.com).',
    ],
    [
      { workspace_id: workspace.id, max_chats_per_day: -1 },
      "max_chats_per_day must be a whole number (0 for no limit), or null.",
    ],
    [
      { workspace_id: workspace.id, max_chats_per_session: 1.5 },
      "max_chats_per_session must be a whole number (0 for no limit), or null.",
    ],
    [{ workspace_id: workspace.id, message_limit: 5000 }, "message_limit must be at most 1000."],
    [
      { workspace_id: workspace.id, allow_model_override: "yes" },
      "allow_model_override must be true or false.",
    ],
    ["{", "The request body is not valid JSON"],
  ];
  for (const [body, message] of cases) {
    const answer = await app.json<{ embed: null; error: string }>("/api/embeds/new", { json: body });
    assert.equal(answer.status, 400, JSON.stringify(body));
    assert.equal(answer.body.embed, null);
    assert.ok(answer.body.error.startsWith(message), `${answer.body.error} / ${message}`);
  }
  assert.equal((await app.deps.db.select().from(embedConfigs)).length, 0);

  const embed = await newEmbed(app, { workspace_id: workspace.id });
  const update = await app.json(`/api/embed/update/${embed.id}`, { json: { enabled: "on" } });
  assert.deepEqual(update, {
    status: 400,
    body: { success: false, error: "enabled must be true or false." },
  });
  const chats = await app.json("/api/embed/chats", { json: { offset: -1 } });
  assert.equal(chats.status, 400);
});

Deno.test("embeds: admins and managers use the screens' calls; a default user is refused and a visitor without a session too", async () => {
  await using app = await createTestApp();
  const admin = await multiUserInstance(app);
  const manager = await addUser(app, admin, "manny", "manager");
  const dora = await addUser(app, admin, "dora", "default");
  const workspace = await app.json<{ workspace: { id: number } }>("/api/workspace/new", {
    ...bearer(admin.token),
    json: { name: "Shop" },
  });
  const embed = await newEmbed(app, { workspace_id: workspace.body.workspace.id }, bearer(admin.token));
  const calls = (id: number) => [
    { path: "/api/embeds", init: {} },
    { path: "/api/embeds/new", init: { json: { workspace_id: workspace.body.workspace.id } } },
    { path: `/api/embed/update/${id}`, init: { json: { enabled: false } } },
    { path: "/api/embed/chats", init: { json: { offset: 0 } } },
    { path: "/api/embed/chats/987654", init: { method: "DELETE" } },
    { path: `/api/embed/${id}`, init: { method: "DELETE" } },
  ];
  for (const { path, init } of calls(embed.id)) {
    const refused = await app.json(path, { ...init, ...bearer(dora.token) });
    assert.equal(refused.status, 403, `default user: ${path}`);
    assert.match(JSON.stringify(refused.body), /You do not have permission to do that\./);
    const anonymous = await app.json(path, init);
    assert.equal(anonymous.status, 401, `no session: ${path}`);
  }
  assert.equal((await app.deps.db.select().from(embedConfigs)).length, 1, "nothing changed");

  const expected = [200, 200, 200, 200, 404, 200];
  for (const [index, { path, init }] of calls(embed.id).entries()) {
    const allowed = await app.json(path, { ...init, ...bearer(manager.token) });
    assert.equal(allowed.status, expected[index], `manager: ${path} ${JSON.stringify(allowed.body)}`);
  }
});

Deno.test("embeds: the widget streams an answer with sources from an allowed origin, keeps it as an embed chat, and reads and resets the session's history", async () => {
  await using llm = startFakeOpenAi();
  await using app = await createTestApp();
  await app.json("/api/system/update-env", { json: genericOpenAiSettings(llm.baseURL) });
  const workspace = await withDocument(app);
  const embed = await newEmbed(app, { workspace_id: workspace.id, allowlist_domains: [SITE] });

  const preflight = await app.request(`/api/embed/${embed.uuid}/stream-chat`, {
    method: "OPTIONS",
    headers: {
      Origin: SITE,
      "Access-Control-Request-Method": "POST",
      "Access-Control-Request-Headers": "content-type",
    },
  });
  assert.equal(preflight.status, 204);
  assert.equal(preflight.headers.get("access-control-allow-origin"), SITE);
  assert.match(preflight.headers.get("access-control-allow-headers") ?? "", /Content-Type/);

  const response = await widgetChat(app, embed.uuid, { message: "What is the capital of Freedonia?" });
  assert.equal(response.status, 200);
  assert.equal(response.headers.get("content-type"), "text/event-stream");
  assert.equal(response.headers.get("access-control-allow-origin"), SITE);
  assert.match(response.headers.get("vary") ?? "", /Origin/);
  const frames = await readFrames(response);
  const text = frames.filter((frame) => frame.type === "textResponseChunk").map((frame) => frame.textResponse)
    .join("");
  assert.equal(text, "You asked: What is the capital of Freedonia?. I saw 1 context blocks.");
  const closing = frames.at(-2)!;
  assert.equal(closing.close, true);
  const sources = closing.sources as { title: string; text: string }[];
  assert.equal(sources.length, 1);
  assert.equal(sources[0].title, "freedonia.txt");
  const finalize = frames.at(-1)!;
  assert.equal(finalize.type, "finalizeResponseStream");

  const stored = await app.deps.db.select().from(embedChats);
  assert.equal(stored.length, 1);
  assert.equal(stored[0].id, finalize.chatId);
  assert.equal(stored[0].embedId, embed.id);
  assert.equal(stored[0].sessionId, SESSION);
  assert.equal(stored[0].prompt, "What is the capital of Freedonia?");
  const answer = JSON.parse(stored[0].response);
  assert.equal(answer.text, text);
  assert.equal(answer.type, "query");
  assert.equal(answer.sources.length, 1);
  const connection = JSON.parse(stored[0].connectionInformation!);
  assert.equal(connection.host, SITE);
  assert.equal(connection.username, null);
  assert.equal(typeof connection.ip, "string");

  // The next message sees the session's history. The embed answers in query mode (no context, no model), so
  // the follow-up must find the chunk at any upload time: "And its river?" fell to 0.19 against the 0.25
  // threshold at some (the chunk's header holds the time; server/testing/lexical_pairs.ts).
  await readFrames(
    await widgetChat(app, embed.uuid, { message: "And on which river is the capital of Freedonia?" }),
  );
  // The answer's request is the last: a follow-up is first rewritten for the search (server/chat/rewrite.ts).
  assert.deepEqual(llm.chatRequests.at(-1)!.messages.slice(1).map((message) => message.role), [
    "user",
    "assistant",
    "user",
  ]);
  assert.equal(llm.chatRequests.at(-1)!.messages[1].content, "What is the capital of Freedonia?");

  const history = await app.request(`/api/embed/${embed.uuid}/${SESSION}`, { headers: { Origin: SITE } });
  assert.equal(history.status, 200);
  assert.equal(history.headers.get("access-control-allow-origin"), SITE);
  const entries = (await history.json()).history as Record<string, unknown>[];
  assert.equal(entries.length, 4);
  assert.deepEqual(entries.map((entry) => entry.role), ["user", "assistant", "user", "assistant"]);
  assert.equal(entries[1].content, text);
  assert.deepEqual(entries[1].sources, [], "history leaves the sources out, as the reference does");

  const other = await app.json<{ history: unknown[] }>(
    `/api/embed/${embed.uuid}/0d9c8b7a-6f5e-4d3c-8b2a-1f0e9d8c7b6a`,
    { headers: { Origin: SITE } },
  );
  assert.deepEqual(other.body.history, [], "another session sees nothing");

  const reset = await app.request(`/api/embed/${embed.uuid}/${SESSION}`, {
    method: "DELETE",
    headers: { Origin: SITE },
  });
  assert.equal(reset.status, 200);
  assert.equal(reset.headers.get("access-control-allow-origin"), SITE);
  const cleared = await app.json<{ history: unknown[] }>(`/api/embed/${embed.uuid}/${SESSION}`, {
    headers: { Origin: SITE },
  });
  assert.deepEqual(cleared.body.history, []);
  assert.equal((await app.deps.db.select().from(embedChats)).length, 2, "the chats stay for the admin");

  // A whole question too: "What does Freedonia export?" came within 0.05 of the threshold at some upload times.
  await readFrames(
    await widgetChat(app, embed.uuid, { message: "What does the small country of Freedonia export?" }),
  );
  assert.deepEqual(llm.chatRequests.at(-1)!.messages.map((message) => message.role), ["system", "user"]);

  // The admin screen lists them, newest first, and deletes one.
  const page = await app.json<EmbedChatsPage>("/api/embed/chats", { json: { offset: 0, limit: 2 } });
  assert.equal(page.body.totalChats, 3);
  assert.equal(page.body.hasPages, true);
  assert.deepEqual(page.body.chats.map((chat) => chat.prompt), [
    "What does the small country of Freedonia export?",
    "And on which river is the capital of Freedonia?",
  ]);
  assert.equal(page.body.chats[0].session_id, SESSION);
  assert.deepEqual(page.body.chats[0].embed_config, {
    id: embed.id,
    uuid: embed.uuid,
    workspace: { name: "Atlas", slug: workspace.slug },
  });
  const listed = await app.json<{ embeds: EmbedView[] }>("/api/embeds");
  assert.deepEqual(listed.body.embeds[0]._count, { embed_chats: 3 });
  const removed = await app.json(`/api/embed/chats/${page.body.chats[0].id}`, { method: "DELETE" });
  assert.deepEqual(removed, { status: 200, body: { success: true, error: null } });
  assert.equal((await app.deps.db.select().from(embedChats)).length, 2);
  const gone = await app.json(`/api/embed/chats/${page.body.chats[0].id}`, { method: "DELETE" });
  assert.equal(gone.status, 404);
});

Deno.test("embeds: a site not allowed gets 403 without CORS headers and is logged; other calls keep refusing cross-site requests", async () => {
  await using app = await createTestApp();
  const workspace = await newWorkspace(app, "Shop help");
  const embed = await newEmbed(app, { workspace_id: workspace.id, allowlist_domains: [SITE] });

  const refused = await widgetChat(app, embed.uuid, { message: "Hello" }, OTHER);
  assert.equal(refused.status, 403);
  assert.equal(refused.headers.get("access-control-allow-origin"), null);
  const body = await refused.json();
  assert.equal(body.type, "abort");
  assert.equal(body.error, "Invalid request.");
  const [logged] = await events(app, "embed_origin_refused");
  assert.ok(logged, "the refusal is in the event log");
  assert.deepEqual(JSON.parse(logged.metadata!), {
    embedId: embed.id,
    embedUuid: embed.uuid,
    origin: OTHER,
    path: `/api/embed/${embed.uuid}/stream-chat`,
  });

  const noOrigin = await widgetChat(app, embed.uuid, { message: "Hello" }, null);
  assert.equal(noOrigin.status, 403, "a page must name an allowed origin");
  await noOrigin.body?.cancel();

  const preflight = await app.request(`/api/embed/${embed.uuid}/stream-chat`, {
    method: "OPTIONS",
    headers: { Origin: OTHER, "Access-Control-Request-Method": "POST" },
  });
  assert.equal(preflight.status, 403);
  assert.equal(preflight.headers.get("access-control-allow-origin"), null);
  await preflight.body?.cancel();

  for (
    const [method, path] of [["GET", `/api/embed/${embed.uuid}/${SESSION}`], [
      "DELETE",
      `/api/embed/${embed.uuid}/${SESSION}`,
    ]]
  ) {
    const answer = await app.request(path, { method, headers: { Origin: OTHER } });
    assert.equal(answer.status, 403, `${method} ${path}`);
    assert.equal(answer.headers.get("access-control-allow-origin"), null);
    await answer.body?.cancel();
  }
  assert.equal((await app.deps.db.select().from(embedChats)).length, 0);

  // The embed's own site may call only the widget's calls: the rest of the API refuses it as before.
  const other = await app.request("/api/workspace/new", {
    method: "POST",
    headers: { Origin: SITE },
    body: JSON.stringify({ name: "Pwned" }),
  });
  assert.equal(other.status, 403);
  assert.deepEqual(await other.json(), { success: false, error: FOREIGN });
  assert.equal(other.headers.get("access-control-allow-origin"), null);
  const read = await app.request("/api/workspaces", { headers: { Origin: SITE } });
  assert.equal(read.headers.get("access-control-allow-origin"), null);
  await read.body?.cancel();
  const adminPreflight = await app.request("/api/embeds", {
    method: "OPTIONS",
    headers: { Origin: SITE, "Access-Control-Request-Method": "GET" },
  });
  assert.equal(adminPreflight.headers.get("access-control-allow-origin"), null);
  await adminPreflight.body?.cancel();

  // An embed without domains answers any site, as the reference's.
  const open = await newEmbed(app, { workspace_id: workspace.id });
  const history = await app.request(`/api/embed/${open.uuid}/${SESSION}`, { headers: { Origin: OTHER } });
  assert.equal(history.status, 200);
  assert.equal(history.headers.get("access-control-allow-origin"), OTHER);
  await history.body?.cancel();
});

Deno.test("embeds: a disabled or deleted embed answers 404; bad sessions, empty messages and large bodies are refused", async () => {
  await using app = await createTestApp();
  const workspace = await newWorkspace(app, "Shop help");
  const embed = await newEmbed(app, { workspace_id: workspace.id, allowlist_domains: [SITE] });

  const badSession = await widgetChat(app, embed.uuid, { message: "Hi", sessionId: "not-a-uuid" });
  assert.equal(badSession.status, 404);
  assert.equal((await badSession.json()).error, "Invalid session ID.");
  for (const message of ["", "  ", 42, null]) {
    const empty = await widgetChat(app, embed.uuid, { message });
    assert.equal(empty.status, 400);
    assert.equal((await empty.json()).error, "Message is empty.");
  }
  const large = await widgetChat(app, embed.uuid, { message: "x".repeat(70 * 1024) });
  assert.equal(large.status, 413);
  assert.match((await large.json()).error, /64 KB/);

  await app.json(`/api/embed/update/${embed.id}`, { json: { enabled: false } });
  const disabled = await widgetChat(app, embed.uuid, { message: "Hi" });
  assert.equal(disabled.status, 404);
  assert.equal(disabled.headers.get("access-control-allow-origin"), SITE, "the widget can read why");
  assert.equal(
    (await disabled.json()).error,
    "This chat has been disabled by the administrator - try again later.",
  );
  const disabledHistory = await app.request(`/api/embed/${embed.uuid}/${SESSION}`, {
    headers: { Origin: SITE },
  });
  assert.equal(disabledHistory.status, 404);
  await disabledHistory.body?.cancel();

  await app.json(`/api/embed/${embed.id}`, { method: "DELETE" });
  for (
    const [method, path] of [
      ["POST", `/api/embed/${embed.uuid}/stream-chat`],
      ["GET", `/api/embed/${embed.uuid}/${SESSION}`],
      ["DELETE", `/api/embed/${embed.uuid}/${SESSION}`],
    ]
  ) {
    const answer = await app.request(path, {
      method,
      headers: { Origin: SITE },
      body: method === "POST" ? JSON.stringify({ sessionId: SESSION, message: "Hi" }) : undefined,
    });
    assert.equal(answer.status, 404, `${method} ${path}`);
    assert.equal((await answer.json()).error, "This chat does not exist.");
  }
  const unknown = await app.json("/api/embed/not-an-embed/stream-chat", { json: { sessionId: SESSION } });
  assert.equal(unknown.status, 404);
});

Deno.test("embeds: the daily and per-session limits answer with the reference's messages", async () => {
  await using llm = startFakeOpenAi();
  await using app = await createTestApp();
  await app.json("/api/system/update-env", { json: genericOpenAiSettings(llm.baseURL) });
  const workspace = await newWorkspace(app, "Shop help");
  const embed = await newEmbed(app, {
    workspace_id: workspace.id,
    chat_mode: "chat",
    max_chats_per_session: 1,
    max_chats_per_day: 2,
  });

  const first = await widgetChat(app, embed.uuid, { message: "One" });
  assert.equal(first.status, 200);
  await readFrames(first);
  const session = await widgetChat(app, embed.uuid, { message: "Two" });
  assert.equal(session.status, 429);
  const sessionBody = await session.json();
  assert.equal(sessionBody.type, "abort");
  assert.equal(
    sessionBody.error,
    "Your quota for this chat has been reached. Try again later or contact the site owner.",
  );

  const second = "1b2c3d4e-5f60-4718-8a9b-0c1d2e3f4a5b";
  const other = await widgetChat(app, embed.uuid, { message: "Three", sessionId: second });
  assert.equal(other.status, 200);
  await readFrames(other);
  const day = await widgetChat(app, embed.uuid, {
    message: "Four",
    sessionId: "2c3d4e5f-6071-4829-9bac-1d2e3f4a5b6c",
  });
  assert.equal(day.status, 429);
  const dayBody = await day.json();
  assert.equal(dayBody.error, "Rate limit exceeded");
  assert.equal(
    dayBody.errorMsg,
    "The quota for this chat has been reached. Try again later or contact the site owner.",
  );
});

Deno.test("embeds: the widget's prompt, model and temperature count only when the embed allows them", async () => {
  await using llm = startFakeOpenAi();
  await using app = await createTestApp();
  await app.json("/api/system/update-env", { json: genericOpenAiSettings(llm.baseURL) });
  const workspace = await newWorkspace(app, "Shop help");
  const overrides = { prompt: "You are a pirate.", model: "pirate-model", temperature: 1.5 };

  const strict = await newEmbed(app, { workspace_id: workspace.id, chat_mode: "chat" });
  await readFrames(await widgetChat(app, strict.uuid, { message: "Hello", ...overrides }));
  const plain = llm.chatRequests.at(-1)!;
  assert.equal(plain.model, "fake-model");
  assert.notEqual(plain.temperature, 1.5);
  assert.ok(!plain.messages[0].content.includes("pirate"));

  const loose = await newEmbed(app, {
    workspace_id: workspace.id,
    chat_mode: "chat",
    allow_prompt_override: true,
    allow_model_override: true,
    allow_temperature_override: true,
  });
  await readFrames(await widgetChat(app, loose.uuid, { message: "Hello", ...overrides }));
  const overridden = llm.chatRequests.at(-1)!;
  assert.equal(overridden.model, "pirate-model");
  assert.equal(overridden.temperature, 1.5);
  assert.ok(overridden.messages[0].content.startsWith("You are a pirate."));
});
