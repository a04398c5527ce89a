import assert from "node:assert/strict";
import { Workspace, WorkspaceDetail } from "../../shared/api/workspaces.ts";
import { createTestApp } from "../testing/test_app.ts";

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
  assert.deepEqual(missing.body, { workspace: null });
});
