import assert from "node:assert/strict";
import {
  DEFAULT_REFUSAL,
  DEFAULT_SYSTEM_PROMPT,
  Workspace,
  WorkspaceDetail,
} from "../../shared/api/workspaces.ts";
import { createTestApp, genericOpenAiSettings, readFrames } from "../testing/test_app.ts";
import { startFakeOpenAi } from "../testing/fake_openai.ts";

Deno.test("POST /api/workspace/new creates a workspace with the reference slug and default prompt", async () => {
  await using app = await createTestApp();
  const created = await app.json<{ workspace: Record<string, unknown>; message: null }>(
    "/api/workspace/new",
    {
      headers: { "Content-Type": "text/plain;charset=UTF-8" },
      json: { name: "C++ & AI", onboardingComplete: true },
    },
  );
  assert.equal(created.status, 200);
  const workspace = Workspace.parse(created.body.workspace);
  assert.equal(workspace.slug, "c-plus-plus-and-ai");
  assert.equal(workspace.chatMode, "chat");
  assert.equal(workspace.openAiHistory, 20);
  assert.equal(workspace.topN, 4);
  assert.equal(workspace.similarityThreshold, 0.25);
  assert.match(workspace.openAiPrompt ?? "", /^Given the following conversation, relevant context/);
  assert.equal(created.body.message, null);
  assert.ok(!("documents" in created.body.workspace), "a bare row");

  const again = await app.json<{ workspace: { slug: string } }>("/api/workspace/new", {
    json: { name: "C++ & AI" },
  });
  assert.match(again.body.workspace.slug, /^c-plus-plus-and-ai-\d{8}$/, "collisions get a random suffix");
});

Deno.test("POST /api/workspace/new refuses a missing or blank name with the reference's message", async () => {
  await using app = await createTestApp();
  for (const body of [{}, { name: "" }, { name: "   " }, { name: 12 }]) {
    const answer = await app.json("/api/workspace/new", { json: body });
    assert.equal(answer.status, 400, JSON.stringify(body));
    assert.equal(answer.body.workspace, null);
    assert.equal(answer.body.message, "name cannot be null");
  }
  const tooLong = await app.json("/api/workspace/new", { json: { name: "x".repeat(256) } });
  assert.equal(tooLong.status, 400);
  assert.equal(tooLong.body.message, "Workspace name must be at most 255 characters.");
  const malformed = await app.request("/api/workspace/new", { method: "POST", body: "{" });
  assert.equal(malformed.status, 400);
  assert.match((await malformed.json()).message, /not valid JSON/);
});

Deno.test("GET /api/workspaces lists and GET /api/workspace/:slug returns the detail", async () => {
  await using app = await createTestApp();
  await app.json("/api/workspace/new", { json: { name: "Beta" } });
  await app.json("/api/workspace/new", { json: { name: "Alpha" } });
  const list = await app.json<{ workspaces: { name: string }[] }>("/api/workspaces");
  assert.deepEqual(list.body.workspaces.map((workspace) => workspace.name), ["Alpha", "Beta"]);

  const detail = await app.json<{ workspace: unknown }>("/api/workspace/alpha");
  const workspace = WorkspaceDetail.parse(detail.body.workspace);
  assert.deepEqual(workspace.documents, []);
  assert.equal(workspace.contextWindow, null, "no LLM configured yet");
  assert.equal(workspace.currentContextTokenCount, 0);

  const missing = await app.json("/api/workspace/nope");
  assert.equal(missing.status, 404);
  assert.deepEqual(missing.body, { workspace: null, error: "Workspace does not exist." });
});

Deno.test("an empty prompt or refusal response is stored as null and chats then use the defaults", async () => {
  await using llm = startFakeOpenAi();
  await using app = await createTestApp();
  await app.json("/api/system/update-env", { json: genericOpenAiSettings(llm.baseURL) });
  const created = await app.json<{ workspace: Workspace }>("/api/workspace/new", { json: { name: "Atlas" } });
  assert.equal(created.body.workspace.openAiPrompt, DEFAULT_SYSTEM_PROMPT, "the default system prompt");
  type Answer = { workspace: Workspace };
  const own = await app.json<Answer>("/api/workspace/atlas/update", {
    json: { openAiPrompt: "Answer as a librarian.", queryRefusalResponse: "Not in Atlas." },
  });
  assert.equal(own.body.workspace.openAiPrompt, "Answer as a librarian.");
  assert.equal(own.body.workspace.queryRefusalResponse, "Not in Atlas.");

  const cleared = await app.json<Answer>("/api/workspace/atlas/update", {
    json: { openAiPrompt: "", queryRefusalResponse: "   " },
  });
  assert.equal(cleared.status, 200);
  assert.equal(cleared.body.workspace.openAiPrompt, null);
  assert.equal(cleared.body.workspace.queryRefusalResponse, null);
  const stored = await app.json<Answer>("/api/workspace/atlas");
  assert.equal(stored.body.workspace.openAiPrompt, null, "no prompt of its own");
  assert.equal(stored.body.workspace.queryRefusalResponse, null);

  const chat = (message: string) =>
    app.request("/api/workspace/atlas/stream-chat", { method: "POST", body: JSON.stringify({ message }) });
  await readFrames(await chat("Hello"));
  const system = llm.chatRequests[0].messages[0];
  assert.equal(system.role, "system");
  assert.ok(system.content.startsWith(DEFAULT_SYSTEM_PROMPT.split("{datetime}")[0]), system.content);
  assert.ok(!system.content.includes("{datetime}"), "the default's variables are filled in");

  await app.json("/api/workspace/atlas/update", { json: { chatMode: "query" } });
  const frames = await readFrames(await chat("Anything in the documents?"));
  assert.equal(frames[0].type, "textResponse");
  assert.equal(frames[0].textResponse, DEFAULT_REFUSAL);
});
