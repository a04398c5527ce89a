import assert from "node:assert/strict";
import { systemSettings } from "../../db/schema.ts";
import { MASKED_SECRET } from "../../shared/settings.ts";
import { createTestApp, genericOpenAiSettings } from "../testing/test_app.ts";

Deno.test("POST /api/system/update-env stores generic-openai settings and never returns the key", async () => {
  await using app = await createTestApp();
  const saved = await app.json("/api/system/update-env", {
    json: genericOpenAiSettings("http://127.0.0.1:9/v1/", { GenericOpenAiKey: "sk-secret-value" }),
  });
  assert.equal(saved.status, 200);
  assert.equal(saved.body.error, false);
  const newValues = saved.body.newValues as Record<string, string>;
  assert.equal(newValues.GenericOpenAiBasePath, "http://127.0.0.1:9/v1", "trailing slash removed");
  assert.equal(newValues.GenericOpenAiKey, MASKED_SECRET);

  const setup = await app.json<{ results: Record<string, unknown> }>("/api/setup-complete");
  const results = setup.body.results;
  assert.equal(results.LLMProvider, "generic-openai");
  assert.equal(results.GenericOpenAiKey, true);
  assert.equal(results.GenericOpenAiModelPref, "fake-model");
  assert.equal(results.LLMModel, "fake-model");
  assert.equal(results.VectorDB, "lancedb");
  assert.equal(results.EmbeddingEngine, "native");
  assert.equal(results.MultiUserMode, false);
  assert.equal(results.RequiresAuth, false);
  assert.ok(!JSON.stringify(setup.body).includes("sk-secret-value"), "the secret is never returned");

  const rows = await app.deps.db.select().from(systemSettings);
  const keyRow = rows.find((row) => row.label === "GenericOpenAiKey");
  assert.ok(keyRow?.value?.startsWith("enc:v1:"), "stored encrypted");
  assert.ok(!rows.some((row) => row.value?.includes("sk-secret-value")));
});

Deno.test("update-env keeps a stored secret when the form sends the mask back, and clears it when empty", async () => {
  await using app = await createTestApp();
  await app.json("/api/system/update-env", { json: { GenericOpenAiKey: "first-key" } });
  await app.json("/api/system/update-env", { json: { GenericOpenAiKey: MASKED_SECRET } });
  assert.equal(app.deps.settings.value("GenericOpenAiKey"), "first-key");
  await app.json("/api/system/update-env", { json: { GenericOpenAiKey: "" } });
  assert.equal(app.deps.settings.value("GenericOpenAiKey"), undefined);
});

Deno.test("update-env validates every key first and applies none when one is wrong", async () => {
  await using app = await createTestApp();
  const answer = await app.json("/api/system/update-env", {
    json: {
      LLMProvider: "generic-openai",
      GenericOpenAiBasePath: "not a url",
      GenericOpenAiTokenLimit: "0",
      MadeUpSetting: "x",
      VectorDB: "pgvector",
    },
  });
  assert.equal(answer.status, 400);
  assert.deepEqual(answer.body.newValues, {});
  const error = String(answer.body.error);
  assert.match(error, /GenericOpenAiBasePath: URL is not a valid URL\./);
  assert.match(error, /GenericOpenAiTokenLimit: Value must be greater than zero/);
  assert.match(error, /Unknown setting "MadeUpSetting"/);
  assert.match(error, /VectorDB: pgvector is not a supported vector database\./);
  assert.equal(app.deps.settings.value("LLMProvider"), undefined, "nothing applied");

  const badProvider = await app.json("/api/system/update-env", { json: { LLMProvider: "skynet" } });
  assert.equal(badProvider.body.error, "LLMProvider: skynet is not a valid LLM provider.");
  const notJson = await app.request("/api/system/update-env", { method: "POST", body: "{oops" });
  assert.equal(notJson.status, 400);
  assert.match((await notJson.json()).error, /not valid JSON/);
  const notObject = await app.json("/api/system/update-env", { json: [1, 2] });
  assert.equal(notObject.status, 400);
  const nested = await app.json("/api/system/update-env", { json: { GenericOpenAiModelPref: { a: 1 } } });
  assert.match(String(nested.body.error), /the value must be text/);
});

Deno.test("settings fixed in the environment win and cannot be changed through the API", async () => {
  await using app = await createTestApp({
    env: { LLM_PROVIDER: "generic-openai", GENERIC_OPEN_AI_MODEL_PREF: "ops-model" },
  });
  assert.equal(app.deps.settings.value("GenericOpenAiModelPref"), "ops-model");
  const answer = await app.json("/api/system/update-env", { json: { GenericOpenAiModelPref: "other" } });
  assert.equal(answer.status, 400);
  assert.match(String(answer.body.error), /set by the server's environment \(GENERIC_OPEN_AI_MODEL_PREF\)/);
  const setup = await app.json<{ results: { LockedSettings: string[] } }>("/api/setup-complete");
  assert.deepEqual(setup.body.results.LockedSettings.sort(), ["GenericOpenAiModelPref", "LLMProvider"]);
});

Deno.test("settings survive a restart of the instance", async () => {
  const storageDir = await Deno.makeTempDir();
  try {
    {
      await using app = await createTestApp({ storageDir });
      await app.json("/api/system/update-env", {
        json: genericOpenAiSettings("http://localhost:1234/v1", { GenericOpenAiKey: "k1" }),
      });
    }
    await using again = await createTestApp({ storageDir });
    assert.equal(again.deps.settings.value("GenericOpenAiBasePath"), "http://localhost:1234/v1");
    assert.equal(again.deps.settings.value("GenericOpenAiKey"), "k1", "decrypted with the kept key");
  } finally {
    await Deno.remove(storageDir, { recursive: true });
  }
});
