import assert from "node:assert/strict";
import { join } from "node:path";
import { workspaceDocuments } from "../../db/schema.ts";
import { NATIVE_EMBEDDING_MODELS } from "../../shared/providers/embedder_catalog.ts";
import { LECTERN_VERSION } from "../../shared/version.ts";
import { configuredTestApp, createTestApp } from "../testing/test_app.ts";
import { addUser, bearer, multiUserInstance } from "../testing/accounts.ts";

Deno.test("POST /api/system/custom-models lists the built-in embedder's models for native-embedder", async () => {
  await using app = await createTestApp();
  const answer = await app.json<{ models: Record<string, string>[]; error: unknown }>(
    "/api/system/custom-models",
    {
      json: { provider: "native-embedder" },
    },
  );
  assert.equal(answer.status, 200);
  assert.equal(answer.body.error, null);
  assert.deepEqual(
    answer.body.models.map((model) => model.id),
    NATIVE_EMBEDDING_MODELS.map((model) => model.id),
  );
  for (const model of answer.body.models) {
    assert.deepEqual(Object.keys(model).sort(), ["description", "id", "lang", "modelCard", "name", "size"]);
    for (const field of ["name", "description", "lang", "size"]) {
      assert.ok(typeof model[field] === "string" && model[field].length > 0, `${model.id} ${field}`);
    }
    assert.equal(typeof model.modelCard, "string");
  }
  const neural = answer.body.models.find((model) => model.id === "Xenova/all-MiniLM-L6-v2")!;
  assert.equal(neural.modelCard, "https://huggingface.co/Xenova/all-MiniLM-L6-v2");
  assert.equal(neural.size, "23 MB download");

  const unknown = await app.json("/api/system/custom-models", { json: { provider: "no-such-provider" } });
  assert.equal(unknown.status, 400);
  assert.deepEqual(unknown.body, { models: [], error: "Invalid provider for custom models" });
});

Deno.test("custom-models for native-embedder is for admins only", async () => {
  await using app = await createTestApp();
  const admin = await multiUserInstance(app);
  const manager = await addUser(app, admin, "mia", "manager");
  const member = await addUser(app, admin, "dora", "default");
  for (const session of [manager, member]) {
    const answer = await app.json("/api/system/custom-models", {
      ...bearer(session.token),
      json: { provider: "native-embedder" },
    });
    assert.equal(answer.status, 403);
    assert.deepEqual(answer.body, { models: [], error: "You do not have permission to do that." });
  }
  const allowed = await app.json<{ models: unknown[] }>("/api/system/custom-models", {
    ...bearer(admin.token),
    json: { provider: "native-embedder" },
  });
  assert.equal(allowed.status, 200);
  assert.equal(allowed.body.models.length, NATIVE_EMBEDDING_MODELS.length);
});

Deno.test("GET /api/utils/metrics answers without a login, with the version and no path or secret", async () => {
  await using app = await configuredTestApp({ settings: { GenericOpenAiKey: "sk-metrics-secret" } });
  const single = await app.json<Record<string, unknown>>("/api/utils/metrics");
  assert.equal(single.status, 200);
  assert.deepEqual(Object.keys(single.body).sort(), [
    "appVersion",
    "mode",
    "online",
    "storage",
    "vectorDB",
    "version",
  ]);
  assert.equal(single.body.online, true);
  assert.equal(single.body.appVersion, LECTERN_VERSION);
  assert.equal(single.body.version, LECTERN_VERSION);
  assert.equal(single.body.mode, "single-user");
  assert.equal(single.body.vectorDB, "lancedb");
  const storage = single.body.storage as { current: number; capacity: number };
  assert.ok(Number.isInteger(storage.current) && Number.isInteger(storage.capacity));
  assert.ok(storage.current <= storage.capacity);
  const text = JSON.stringify(single.body);
  assert.ok(!text.includes(app.storageDir) && !text.includes("sk-metrics-secret"));

  await multiUserInstance(app);
  const multi = await app.json<Record<string, unknown>>("/api/utils/metrics");
  assert.equal(multi.status, 200, "no token needed in multi-user mode either");
  assert.equal(multi.body.mode, "multi-user");
});

Deno.test("GET /api/setup-complete answers the instance facts the reference's client reads", async () => {
  await using app = await configuredTestApp();
  const results = async () =>
    (await app.json<{ results: Record<string, unknown> }>("/api/setup-complete")).body.results;
  const first = await results();
  assert.equal(first.DisableViewChatHistory, false);
  assert.equal(first.DisableTelemetry, "true", "Lectern sends no telemetry");
  assert.equal(first.HasExistingEmbeddings, false);
  assert.equal(first.HasCachedEmbeddings, false);
  assert.equal(first.SimpleSSONoLoginRedirect, null);
  assert.equal(first.LLMModel, "fake-model");

  const created = await app.json<{ workspace: { id: number } }>("/api/workspace/new", {
    json: { name: "Atlas" },
  });
  await app.deps.db.insert(workspaceDocuments).values({
    docId: crypto.randomUUID(),
    filename: "a.json",
    docpath: "custom-documents/a.json",
    workspaceId: created.body.workspace.id,
  });
  await Deno.mkdir(app.deps.paths.vectorCache, { recursive: true });
  await Deno.writeTextFile(join(app.deps.paths.vectorCache, "entry.json"), "{}");
  const second = await results();
  assert.equal(second.HasExistingEmbeddings, true);
  assert.equal(second.HasCachedEmbeddings, true);
});

Deno.test("GET /api/setup-complete gives the configured model before login, for the chat header's picker", async () => {
  await using app = await configuredTestApp();
  const admin = await multiUserInstance(app);
  const anonymous = await app.json<{ results: Record<string, unknown> }>("/api/setup-complete");
  assert.equal(anonymous.body.results.LLMProvider, "generic-openai");
  assert.equal(anonymous.body.results.LLMModel, "fake-model");
  for (
    const key of [
      "GenericOpenAiKey",
      "GenericOpenAiBasePath",
      "DisableViewChatHistory",
      "HasExistingEmbeddings",
    ]
  ) {
    assert.ok(!(key in anonymous.body.results), `${key} stays for signed-in admins`);
  }
  const full = await app.json<{ results: Record<string, unknown> }>(
    "/api/setup-complete",
    bearer(admin.token),
  );
  assert.equal(full.body.results.LLMModel, "fake-model");
  assert.equal(full.body.results.GenericOpenAiKey, false);
  assert.equal(full.body.results.DisableViewChatHistory, false);
});
