import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { documents, eventLogs, workspaceChats, workspaceDocuments } from "../../db/schema.ts";
import { MASKED_SECRET, SETTING_KEYS } from "../../shared/settings.ts";
import { makeApiKey, withKey } from "../testing/api_keys.ts";
import { createTestApp, genericOpenAiSettings, type TestApp } from "../testing/test_app.ts";

const SECRETS = { GenericOpenAiKey: "sk-test-very-secret-4242", OpenAiKey: "sk-another-secret-7777" };

async function keys(app: TestApp) {
  return {
    full: (await makeApiKey(app)).key,
    read: (await makeApiKey(app, { scope: "read" })).key,
  };
}

const v1 = <T = Record<string, unknown>>(
  app: TestApp,
  key: string,
  path: string,
  init: RequestInit & { json?: unknown } = {},
) => app.json<T>(`/api/v1${path}`, withKey(key, init));

async function workspace(app: TestApp, name: string): Promise<{ id: number; slug: string }> {
  return (await app.json<{ workspace: { id: number; slug: string } }>("/api/workspace/new", {
    json: { name },
  }))
    .body.workspace;
}

async function upload(app: TestApp, key: string, name: string, text: string, addToWorkspaces = "") {
  const form = new FormData();
  if (addToWorkspaces) form.append("addToWorkspaces", addToWorkspaces);
  form.append("file", new File([text], name));
  const answer = await v1<{ documents: { location: string }[] }>(app, key, "/document/upload", {
    method: "POST",
    body: form,
  });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body.documents[0].location;
}

Deno.test("GET /v1/system: every setting, and no secret's value anywhere in the answer", async () => {
  await using app = await createTestApp();
  const saved = await app.json("/api/system/update-env", {
    json: genericOpenAiSettings("http://127.0.0.1:9/v1", SECRETS),
  });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
  const { read } = await keys(app);
  const response = await app.request("/api/v1/system", withKey(read));
  assert.equal(response.status, 200);
  const text = await response.text();
  for (const secret of Object.values(SECRETS)) {
    assert.ok(!text.includes(secret), `${secret} is in the answer`);
  }
  const { settings } = JSON.parse(text) as { settings: Record<string, unknown> };
  assert.equal(settings.GenericOpenAiKey, true);
  assert.equal(settings.OpenAiKey, true);
  assert.equal(settings.AnthropicApiKey, false, "an unset secret");
  assert.equal(settings.GenericOpenAiBasePath, "http://127.0.0.1:9/v1");
  assert.equal(settings.LLMProvider, "generic-openai");
  for (const definition of SETTING_KEYS.filter((definition) => definition.secret)) {
    assert.equal(typeof settings[definition.key], "boolean", definition.key);
  }
});

Deno.test("POST /v1/system/update-env: the UI's checks, all or none, secrets masked in the answer", async () => {
  await using app = await createTestApp();
  const { full, read } = await keys(app);
  const saved = await v1(app, full, "/system/update-env", {
    json: genericOpenAiSettings("http://127.0.0.1:9/v1", { GenericOpenAiKey: SECRETS.GenericOpenAiKey }),
  });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
  assert.equal(saved.body.error, false);
  const newValues = saved.body.newValues as Record<string, string>;
  assert.equal(newValues.LLMProvider, "generic-openai");
  assert.equal(newValues.GenericOpenAiKey, MASKED_SECRET);
  assert.equal(app.deps.settings.value("GenericOpenAiKey"), SECRETS.GenericOpenAiKey);

  const refused = await v1(app, full, "/system/update-env", {
    json: { GenericOpenAiModelPref: "other-model", LLMProvider: "nope" },
  });
  assert.equal(refused.status, 400);
  assert.deepEqual(refused.body, { newValues: {}, error: "LLMProvider: nope is not a valid LLM provider." });
  assert.equal(app.deps.settings.value("GenericOpenAiModelPref"), "fake-model", "nothing applied");
  const notObject = await v1(app, full, "/system/update-env", { json: [1] });
  assert.equal(notObject.status, 400);
  assert.deepEqual(notObject.body, {
    newValues: {},
    error: "The settings must be a JSON object of setting names and values.",
  });
  const readOnly = await v1(app, read, "/system/update-env", { json: { GenericOpenAiModelPref: "x" } });
  assert.equal(readOnly.status, 403);
  assert.equal(app.deps.settings.value("GenericOpenAiModelPref"), "fake-model");
});

Deno.test("GET /v1/system/vector-count: the vectors of every workspace, as the UI counts them", async () => {
  await using app = await createTestApp();
  const { full, read } = await keys(app);
  await workspace(app, "Atlas");
  await workspace(app, "Birch");
  const empty = await v1(app, read, "/system/vector-count");
  assert.deepEqual(empty, { status: 200, body: { vectorCount: 0 } });
  await upload(app, full, "a.txt", "Herons fish in rivers and lakes.", "atlas,birch");
  const counted = await v1<{ vectorCount: number }>(app, read, "/system/vector-count");
  assert.ok(counted.body.vectorCount >= 2, JSON.stringify(counted.body));
  const ui = await app.json<{ vectorCount: number }>("/api/system/system-vectors");
  assert.equal(counted.body.vectorCount, ui.body.vectorCount);
});

Deno.test("GET /v1/system/export-chats: each format streamed with its type, API chats included, bad types refused", async () => {
  await using app = await createTestApp();
  const { read } = await keys(app);
  const atlas = await workspace(app, "Atlas");
  await app.deps.db.insert(workspaceChats).values([
    { workspaceId: atlas.id, prompt: "hello", response: JSON.stringify({ text: "Hi.", sources: [] }) },
    {
      workspaceId: atlas.id,
      prompt: "from a script",
      response: JSON.stringify({ text: "Done.", sources: [] }),
      apiSessionId: "job-7",
    },
  ]);
  const expected: [string, string][] = [
    ["csv", "text/csv"],
    ["json", "application/json"],
    ["jsonAlpaca", "application/json"],
    ["jsonl", "application/jsonl"],
  ];
  for (const [type, contentType] of expected) {
    const response = await app.request(`/api/v1/system/export-chats?type=${type}`, withKey(read));
    assert.equal(response.status, 200, type);
    assert.equal(response.headers.get("content-type"), contentType, type);
    const text = await response.text();
    assert.ok(text.includes("from a script"), `${type} holds the API chat`);
  }
  const csv = await (await app.request("/api/v1/system/export-chats?type=csv", withKey(read))).text();
  assert.match(csv, /^id,workspace,prompt,response,sent_at,username,rating\n"1","Atlas","hello","Hi\."/);
  assert.match(csv, /"2","Atlas","from a script","Done\.","[^"]+","API","--"$/);
  const byDefault = await app.request("/api/v1/system/export-chats", withKey(read));
  assert.equal(byDefault.headers.get("content-type"), "application/jsonl");
  const line = JSON.parse(await byDefault.text());
  assert.equal(line.messages.length, 5);

  const bad = await v1(app, read, "/system/export-chats?type=xml");
  assert.equal(bad.status, 400);
  const message = 'The export type "xml" is not one of json, csv, jsonl, jsonAlpaca.';
  assert.deepEqual(bad.body, { message, error: message });
  const logged = await app.deps.db.select().from(eventLogs).where(eq(eventLogs.event, "exported_chats"));
  assert.equal(logged.length, 6);
});

Deno.test("DELETE /v1/system/remove-documents: gone from every workspace and the library; bad names refused", async () => {
  await using app = await createTestApp();
  const { full, read } = await keys(app);
  await workspace(app, "Atlas");
  const embedded = await upload(app, full, "a.txt", "Alpha words here.", "atlas");
  const kept = await upload(app, full, "b.txt", "Beta words here.");

  const readOnly = await v1(app, read, "/system/remove-documents", {
    method: "DELETE",
    json: { names: [embedded] },
  });
  assert.equal(readOnly.status, 403);
  const refusals: [unknown, string][] = [
    [{}, "names: names must be a list of document locations."],
    [
      { names: ["../secrets.json"] },
      '"../secrets.json" is not a document location (expected "folder/file.json").',
    ],
  ];
  for (const [json, message] of refusals) {
    const refused = await v1(app, full, "/system/remove-documents", { method: "DELETE", json });
    assert.equal(refused.status, 400);
    assert.deepEqual(refused.body, { success: false, message });
  }

  const removed = await v1(app, full, "/system/remove-documents", {
    method: "DELETE",
    json: { names: [embedded, "custom-documents/never-was.json"] },
  });
  assert.equal(removed.status, 200);
  assert.deepEqual(removed.body, { success: true, message: "Documents removed successfully" });
  const left = await app.deps.db.select({ location: documents.location }).from(documents);
  assert.deepEqual(left.map((row) => row.location), [kept]);
  assert.equal((await app.deps.db.select().from(workspaceDocuments)).length, 0);
  await assert.rejects(() => Deno.stat(`${app.deps.paths.documents}/${embedded}`), Deno.errors.NotFound);
});

Deno.test("GET /v1/system/env-dump is not offered, and says why", async () => {
  await using app = await createTestApp();
  const { full } = await keys(app);
  const answer = await v1(app, full, "/system/env-dump");
  assert.equal(answer.status, 404);
  assert.equal(
    answer.body.error,
    "GET /api/v1/system/env-dump is not offered by Lectern: it would print secrets. Read the settings, with secrets masked, from GET /api/v1/system.",
  );
});
