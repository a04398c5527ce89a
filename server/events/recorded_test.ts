/** The events the server records where it acts, with their metadata: what the event logs screen shows. */
import assert from "node:assert/strict";
import { eventLogs } from "../../db/schema.ts";
import { addUser, bearer, multiUserInstance, type Session } from "../testing/accounts.ts";
import { makeApiKey, withKey } from "../testing/api_keys.ts";
import { createTestApp, type TestApp } from "../testing/test_app.ts";

type Recorded = { event: string; metadata: Record<string, unknown>; userId: number | null };

/** The events written since the last call (the log is emptied each time). */
async function drain(app: TestApp): Promise<Recorded[]> {
  const rows = await app.deps.db.select().from(eventLogs).orderBy(eventLogs.id);
  await app.deps.db.delete(eventLogs);
  return rows.map((row) => ({
    event: row.event,
    metadata: JSON.parse(row.metadata ?? "null"),
    userId: row.userId,
  }));
}

async function signedIn(): Promise<
  {
    app: TestApp;
    admin: Session;
    as: (init?: RequestInit & { json?: unknown }) => RequestInit & { json?: unknown };
  }
> {
  const app = await createTestApp();
  const admin = await multiUserInstance(app);
  await drain(app);
  const as = (init: RequestInit & { json?: unknown } = {}) => ({
    ...init,
    headers: { ...init.headers as Record<string, string>, Authorization: `Bearer ${admin.token}` },
  });
  return { app, admin, as };
}

/** A secret that must never reach the event log (an OpenAI key's shape). */
const SECRET = "sk-evlogs-9f3b2c71d4e8a6b5";

Deno.test("a settings save records the names of the keys that changed, never a value", async () => {
  const { app, admin, as } = await signedIn();
  await using _ = app;
  const saved = await app.json(
    "/api/system/update-env",
    as({
      json: { LLMProvider: "openai", OpenAiKey: SECRET, OpenAiModelPref: "gpt-4o-mini" },
    }),
  );
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
  assert.deepEqual(await drain(app), [
    {
      event: "settings_updated",
      metadata: { keys: ["LLMProvider", "OpenAiKey", "OpenAiModelPref"] },
      userId: admin.user.id,
    },
    { event: "update_llm_provider", metadata: {}, userId: admin.user.id },
  ]);

  // The same values again (the key as the form's asterisks): nothing changed, nothing recorded.
  await app.json(
    "/api/system/update-env",
    as({
      json: { LLMProvider: "openai", OpenAiKey: "*".repeat(20), OpenAiModelPref: "gpt-4o-mini" },
    }),
  );
  assert.deepEqual(await drain(app), []);

  // A new key alone: its name only.
  await app.json("/api/system/update-env", as({ json: { OpenAiKey: `${SECRET}-rotated` } }));
  await app.json(
    "/api/system/update-env",
    as({
      json: { EmbeddingEngine: "native", VectorDB: "lancedb", GenericOpenAiKey: `${SECRET}-generic` },
    }),
  );
  const recorded = await drain(app);
  assert.deepEqual(recorded.map((row) => [row.event, row.metadata]), [
    ["settings_updated", { keys: ["OpenAiKey"] }],
    ["settings_updated", { keys: ["EmbeddingEngine", "VectorDB", "GenericOpenAiKey"] }],
    ["update_embedding_engine", {}],
    ["update_vector_db", {}],
  ]);

  // A refused save changes nothing and records nothing.
  const refused = await app.json("/api/system/update-env", as({ json: { OpenAiKey: "not-a-key" } }));
  assert.equal(refused.status, 400);
  assert.deepEqual(await drain(app), []);

  // The other settings saves: the default system prompt, the text splitter, live document sync.
  const prompt = "Answer as a harbour master would.";
  assert.equal(
    (await app.json("/api/system/default-system-prompt", as({ json: { defaultSystemPrompt: prompt } })))
      .status,
    200,
  );
  assert.equal(
    (await app.json("/api/admin/system-preferences", as({ json: { text_splitter_chunk_size: 800 } }))).status,
    200,
  );
  assert.equal(
    (await app.json("/api/experimental/toggle-live-sync", as({ json: { updatedStatus: true } }))).status,
    200,
  );
  const others = await drain(app);
  assert.deepEqual(others.map((row) => [row.event, row.metadata, row.userId]), [
    ["settings_updated", { keys: ["default_system_prompt"] }, admin.user.id],
    [
      "settings_updated",
      { keys: ["text_splitter_chunk_size", "text_splitter_chunk_overlap"] },
      admin.user.id,
    ],
    ["settings_updated", { keys: ["experimental_live_file_sync"] }, admin.user.id],
  ]);
  assert.ok(!JSON.stringify(others).includes("harbour master"), "the prompt itself is not recorded");
});

Deno.test("no secret sent in a settings save appears anywhere in event_logs", async () => {
  const { app, as } = await signedIn();
  await using _ = app;
  await app.json(
    "/api/system/update-env",
    as({
      json: { LLMProvider: "openai", OpenAiKey: SECRET, AnthropicApiKey: `sk-ant-${SECRET}` },
    }),
  );
  await app.json("/api/system/update-env", as({ json: { OpenAiKey: `${SECRET}x` } }));
  await app.json("/api/system/update-env", as({ json: { OpenAiKey: "bad" } }));
  const rows = await app.deps.db.all(`SELECT * FROM event_logs`);
  assert.ok(rows.length >= 3);
  assert.ok(!JSON.stringify(rows).includes(SECRET.slice(3)), "not even part of the key");
  const exported = await (await app.request("/api/system/event-logs/export?type=csv", as())).text();
  assert.match(exported, /settings_updated/);
  assert.ok(!exported.includes(SECRET.slice(3)));
});

Deno.test("workspaces created, reset and deleted are recorded with their names and who did it", async () => {
  const { app, admin, as } = await signedIn();
  await using _ = app;
  const manager = await addUser(app, admin, "mona", "manager");
  await drain(app);

  const made = await app.json<{ workspace: { slug: string } }>(
    "/api/workspace/new",
    as({ json: { name: "Harbour" } }),
  );
  const byManager = await app.json<{ workspace: { id: number } }>("/api/admin/workspaces/new", {
    ...bearer(manager.token),
    json: { name: "Tides" },
  });
  await app.json(`/api/workspace/${made.body.workspace.slug}/reset-vector-db`, as({ method: "DELETE" }));
  await app.json(`/api/workspace/${made.body.workspace.slug}`, as({ method: "DELETE" }));
  await app.json(`/api/admin/workspaces/${byManager.body.workspace.id}`, {
    ...bearer(manager.token),
    method: "DELETE",
  });
  assert.deepEqual(await drain(app), [
    { event: "workspace_created", metadata: { workspaceName: "Harbour" }, userId: admin.user.id },
    { event: "workspace_created", metadata: { workspaceName: "Tides" }, userId: manager.user.id },
    { event: "workspace_vectors_reset", metadata: { workspaceName: "Harbour" }, userId: admin.user.id },
    { event: "workspace_deleted", metadata: { workspaceName: "Harbour" }, userId: admin.user.id },
    { event: "workspace_deleted", metadata: { workspaceName: "Tides" }, userId: manager.user.id },
  ]);

  // A refused call records nothing.
  const dora = await addUser(app, admin, "dora", "default");
  await drain(app);
  assert.equal(
    (await app.json("/api/workspace/new", { ...bearer(dora.token), json: { name: "Mine" } })).status,
    403,
  );
  assert.deepEqual(await drain(app), []);

  // Through the developer API, under the reference's own names.
  const { key } = await makeApiKey(app, {}, admin.token);
  await drain(app);
  const viaApi = await app.json<{ workspace: { slug: string } }>(
    "/api/v1/workspace/new",
    withKey(key, { json: { name: "Keys" } }),
  );
  assert.equal(viaApi.status, 200);
  await app.json(`/api/v1/workspace/${viaApi.body.workspace.slug}`, withKey(key, { method: "DELETE" }));
  assert.deepEqual((await drain(app)).map((row) => [row.event, row.metadata]), [
    ["api_workspace_created", { workspaceName: "Keys" }],
    ["api_workspace_deleted", { workspaceName: "Keys" }],
  ]);
});

Deno.test("documents added to and removed from the library and a workspace's embeddings are recorded", async () => {
  const { app, admin, as } = await signedIn();
  await using _ = app;
  const made = await app.json<{ workspace: { slug: string } }>(
    "/api/workspace/new",
    as({ json: { name: "Harbour" } }),
  );
  const slug = made.body.workspace.slug;
  const upload = async (name: string, folderName?: string) => {
    const form = new FormData();
    form.append("file", new File([`The harbour opens at seven. ${name}`], name));
    if (folderName) form.append("folderName", folderName);
    const answer = await app.json<{ documents: { location: string }[] }>(
      `/api/workspace/${slug}/upload`,
      as({ method: "POST", body: form }),
    );
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return answer.body.documents[0].location;
  };
  const notes = await upload("notes.txt");
  const archived = await upload("old.txt", "archive");
  const spare = await upload("spare.txt");
  await drain(app);

  await app.json(
    `/api/workspace/${slug}/update-embeddings`,
    as({ json: { adds: [notes, "custom-documents/missing.json"] } }),
  );
  await app.json(`/api/workspace/${slug}/update-embeddings`, as({ json: { deletes: [notes] } }));
  await app.json(`/api/workspace/${slug}/update-embeddings`, as({ json: { deletes: [spare] } }));
  assert.deepEqual(await drain(app), [
    {
      event: "workspace_documents_added",
      metadata: { workspaceName: "Harbour", numberOfDocumentsAdded: 1, failed: 1 },
      userId: admin.user.id,
    },
    {
      event: "workspace_documents_removed",
      metadata: { workspaceName: "Harbour", numberOfDocuments: 1 },
      userId: admin.user.id,
    },
  ], "removing a document the workspace does not hold records nothing");

  await upload("fresh.txt");
  const removedOne = await app.json(
    "/api/system/remove-document",
    as({ method: "DELETE", json: { name: notes } }),
  );
  assert.equal(removedOne.status, 200);
  await app.json("/api/system/remove-documents", as({ method: "DELETE", json: { names: [spare] } }));
  await app.json("/api/system/remove-folder", as({ method: "DELETE", json: { name: "archive" } }));
  const recorded = await drain(app);
  assert.deepEqual(recorded.map((row) => [row.event, row.metadata, row.userId]), [
    ["document_uploaded", { documentName: "fresh.txt" }, admin.user.id],
    ["documents_removed", { count: 1, documents: [notes] }, admin.user.id],
    ["documents_removed", { count: 1, documents: [spare] }, admin.user.id],
    ["documents_removed", { count: 1, documents: [], folder: "archive" }, admin.user.id],
  ]);
  assert.ok(archived.startsWith("archive/"));

  // An upload into a named folder says so.
  await upload("later.txt", "archive");
  assert.deepEqual((await drain(app)).map((row) => row.metadata), [{
    documentName: "later.txt",
    folder: "archive",
  }]);

  // Upload and embed: the upload, then what became of its embedding (written together, in that order).
  const form = new FormData();
  form.append("file", new File(["The ferry leaves at nine."], "ferry.txt"));
  const embedded = await app.json(
    `/api/workspace/${slug}/upload-and-embed`,
    as({ method: "POST", body: form }),
  );
  assert.equal(embedded.status, 200, JSON.stringify(embedded.body));
  assert.deepEqual((await drain(app)).map((row) => [row.event, row.metadata, row.userId]), [
    ["document_uploaded", { documentName: "ferry.txt" }, admin.user.id],
    [
      "workspace_documents_added",
      { workspaceName: "Harbour", numberOfDocumentsAdded: 1, failed: 0 },
      admin.user.id,
    ],
  ]);
});

Deno.test("API keys created and deleted are recorded without the key itself", async () => {
  const { app, admin } = await signedIn();
  await using _ = app;
  const { id, key } = await makeApiKey(app, { name: "n8n" }, admin.token);
  await app.json(`/api/admin/delete-api-key/${id}`, { ...bearer(admin.token), method: "DELETE" });
  const recorded = await drain(app);
  assert.deepEqual(recorded.map((row) => [row.event, row.userId]), [
    ["api_key_created", admin.user.id],
    ["api_key_deleted", admin.user.id],
  ]);
  assert.equal(recorded[0].metadata.name, "n8n");
  assert.ok(!JSON.stringify(recorded).includes(key));
});
