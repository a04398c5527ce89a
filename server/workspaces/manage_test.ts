import assert from "node:assert/strict";
import { workspaceChats, workspaceThreads } from "../../db/schema.ts";
import { Workspace } from "../../shared/api/workspaces.ts";
import { createTestApp, genericOpenAiSettings, readFrames, type TestApp } from "../testing/test_app.ts";
import { startFakeOpenAi } from "../testing/fake_openai.ts";
import { workspaceNamespace } from "../providers/vectors/namespace.ts";

async function workspace(app: TestApp, name = "Manage") {
  const created = await app.json<{ workspace: { slug: string; id: number } }>("/api/workspace/new", {
    json: { name },
  });
  return created.body.workspace;
}

Deno.test("POST /api/workspace/:slug/update applies the writable fields and names what is wrong", async () => {
  await using app = await createTestApp();
  const { slug } = await workspace(app);
  const update = (body: unknown) =>
    app.json<{ workspace: unknown; message: string | null }>(`/api/workspace/${slug}/update`, { json: body });

  const ok = await update({
    name: "Renamed",
    openAiTemp: "0.2",
    openAiHistory: "0",
    similarityThreshold: 0.5,
    topN: "8",
    chatMode: "automatic",
    queryRefusalResponse: "Nothing here.",
    openAiPrompt: "Be brief. {workspace.name}",
    chatProvider: "default",
    chatModel: "ignored",
    slug: "hijack",
    id: 999,
  });
  assert.equal(ok.status, 200);
  const row = Workspace.parse(ok.body.workspace);
  assert.equal(row.name, "Renamed");
  assert.equal(row.slug, slug, "the slug is not writable");
  assert.equal(row.openAiTemp, 0.2);
  assert.equal(row.openAiHistory, 0);
  assert.equal(row.topN, 8);
  assert.equal(row.similarityThreshold, 0.5);
  assert.equal(row.chatMode, "chat", "automatic is an alias of chat");
  assert.equal(row.chatProvider, null);
  assert.equal(row.chatModel, null, "default clears the model");
  assert.equal(ok.body.message, null);

  const cleared = await update({ openAiTemp: "", queryRefusalResponse: "" });
  const clearedRow = Workspace.parse(cleared.body.workspace);
  assert.equal(clearedRow.openAiTemp, null);
  assert.equal(clearedRow.queryRefusalResponse, null);

  const nothing = await update({ unknown: 1 });
  assert.equal(nothing.status, 200);
  assert.equal(nothing.body.message, "No valid fields to update!");

  const checks: [unknown, string][] = [
    [{ name: "" }, "Workspace name cannot be empty."],
    [{ topN: 0 }, "Max context snippets must be at least 1."],
    [{ similarityThreshold: 2 }, "Similarity threshold must be between 0 and 1."],
    [{ openAiHistory: -1 }, "Chat history cannot be negative."],
    [{ openAiTemp: "hot" }, "Temperature must be a number."],
    [{ chatMode: "agent" }, "Chat mode must be chat or query."],
    [{ chatProvider: "skynet" }, "skynet is not a valid LLM provider."],
  ];
  for (const [body, message] of checks) {
    const answer = await update(body);
    assert.equal(answer.status, 400, JSON.stringify(body));
    assert.equal(answer.body.message, message);
    assert.equal(answer.body.workspace, null);
  }
  assert.equal((await app.json("/api/workspace/nope/update", { json: { name: "x" } })).status, 404);
});

Deno.test("a workspace's model override reaches the LLM", async () => {
  await using llm = startFakeOpenAi();
  await using app = await createTestApp();
  await app.json("/api/system/update-env", { json: genericOpenAiSettings(llm.baseURL) });
  const { slug } = await workspace(app);
  await app.json(`/api/workspace/${slug}/update`, {
    json: { chatProvider: "generic-openai", chatModel: "special-model" },
  });
  await readFrames(
    await app.request(`/api/workspace/${slug}/stream-chat`, { method: "POST", body: '{"message":"hi"}' }),
  );
  assert.equal(llm.chatRequests[0].model, "special-model");
});

Deno.test("deleting a workspace removes its chats, threads, documents and vectors for everyone", async () => {
  await using llm = startFakeOpenAi();
  await using app = await createTestApp();
  await app.json("/api/system/update-env", { json: genericOpenAiSettings(llm.baseURL) });
  const { slug, id } = await workspace(app);
  const form = new FormData();
  form.append("file", new File(["Herons fish in rivers."], "herons.txt"));
  await app.json(`/api/workspace/${slug}/upload-and-embed`, { method: "POST", body: form });
  await app.json(`/api/workspace/${slug}/thread/new`, { method: "POST" });
  await readFrames(
    await app.request(`/api/workspace/${slug}/stream-chat`, {
      method: "POST",
      body: '{"message":"herons?"}',
    }),
  );
  const namespace = workspaceNamespace(id, app.deps.providers.embedder());
  assert.ok(await app.deps.vectors.count(namespace) > 0);

  const reset = await app.json(`/api/workspace/${slug}/reset-vector-db`, { method: "DELETE" });
  assert.equal(reset.status, 200);
  assert.equal(await app.deps.vectors.count(namespace), 0);
  const detail = await app.json<{ workspace: { documents: unknown[] } }>(`/api/workspace/${slug}`);
  assert.deepEqual(detail.body.workspace.documents, []);
  assert.equal((await app.deps.db.select().from(workspaceChats)).length, 1, "a reset keeps the chats");

  const deleted = await app.json(`/api/workspace/${slug}`, { method: "DELETE" });
  assert.equal(deleted.status, 200);
  assert.equal((await app.json(`/api/workspace/${slug}`)).status, 404);
  assert.equal((await app.deps.db.select().from(workspaceChats)).length, 0);
  assert.equal((await app.deps.db.select().from(workspaceThreads)).length, 0);
  assert.equal((await app.json(`/api/workspace/${slug}`, { method: "DELETE" })).status, 404);
});

Deno.test("suggested messages are replaced as a whole and validated", async () => {
  await using app = await createTestApp();
  const { slug } = await workspace(app);
  assert.deepEqual((await app.json(`/api/workspace/${slug}/suggested-messages`)).body, {
    success: true,
    suggestedMessages: [],
  });
  const messages = [{ heading: "Summarise", message: "Summarise the documents" }, {
    heading: "",
    message: "List dates",
  }];
  const saved = await app.json(`/api/workspace/${slug}/suggested-messages`, { json: { messages } });
  assert.deepEqual(saved.body, { success: true, message: "Suggested messages saved successfully." });
  assert.deepEqual((await app.json(`/api/workspace/${slug}/suggested-messages`)).body, {
    success: true,
    suggestedMessages: messages,
  });
  const bad = await app.json(`/api/workspace/${slug}/suggested-messages`, { json: { messages: "nope" } });
  assert.equal(bad.status, 400);
  const empty = await app.json(`/api/workspace/${slug}/suggested-messages`, { json: { messages: [] } });
  assert.equal(empty.status, 200);
  assert.deepEqual((await app.json(`/api/workspace/${slug}/suggested-messages`)).body, {
    success: true,
    suggestedMessages: [],
  });
});

Deno.test("workspace picture: upload, read, remove; text-to-speech answers 204 without a voice", async () => {
  await using app = await createTestApp();
  const { slug } = await workspace(app);
  assert.equal((await app.request(`/api/workspace/${slug}/pfp`)).status, 204);
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
  const form = new FormData();
  form.append("file", new File([png], "logo.png"));
  assert.equal(
    (await app.json(`/api/workspace/${slug}/upload-pfp`, { method: "POST", body: form })).status,
    200,
  );
  const picture = await app.request(`/api/workspace/${slug}/pfp`);
  assert.equal(picture.headers.get("content-type"), "image/png");
  assert.deepEqual(new Uint8Array(await picture.arrayBuffer()), png);
  assert.equal((await app.json(`/api/workspace/${slug}/remove-pfp`, { method: "DELETE" })).status, 200);
  assert.equal((await app.request(`/api/workspace/${slug}/pfp`)).status, 204);
  // No such chat: the speak route (server/speech/) answers 404.
  assert.equal((await app.json(`/api/workspace/${slug}/tts/1`)).status, 404);
});

Deno.test("GET /api/system/system-vectors counts one workspace or all", async () => {
  await using app = await createTestApp();
  const first = await workspace(app, "First");
  await workspace(app, "Second");
  const form = new FormData();
  form.append("file", new File(["Some words about rivers."], "rivers.txt"));
  await app.json(`/api/workspace/${first.slug}/upload-and-embed`, { method: "POST", body: form });
  const one = await app.json<{ vectorCount: number }>(`/api/system/system-vectors?slug=${first.slug}`);
  assert.equal(one.body.vectorCount, 1);
  assert.equal((await app.json<{ vectorCount: number }>("/api/system/system-vectors")).body.vectorCount, 1);
  assert.equal(
    (await app.json<{ vectorCount: number }>("/api/system/system-vectors?slug=second")).body.vectorCount,
    0,
  );
});
