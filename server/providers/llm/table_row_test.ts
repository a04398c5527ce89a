import assert from "node:assert/strict";
import { LLM_PROVIDERS, type LlmProviderEntry } from "../../../shared/providers/llm_catalog.ts";
import { SETTING_KEYS, settingsOfFields } from "../../../shared/settings.ts";
import { vendor } from "../../../shared/providers/data_handling.ts";
import { selectableLlms } from "../../../client/features/settings/LlmForm.tsx";
import { fieldSettings, initialValues } from "../../../client/features/settings/provider_form.ts";
import { fieldTextKeys } from "../../../client/features/settings/provider_fields.ts";
import en from "../../../client/locales/en.json" with { type: "json" };
import { createTestApp, readFrames } from "../../testing/test_app.ts";
import { startFakeOpenAi } from "../../testing/fake_openai.ts";

/** A vendor nobody has heard of, as one row of data: nothing else is added anywhere. */
const ACME: LlmProviderEntry = {
  id: "acme",
  name: "Acme AI",
  kind: "cloud",
  fields: [
    { key: "AcmeApiKey", env: "ACME_API_KEY", type: "password", required: true, role: "apiKey" },
    { key: "AcmeModelPref", env: "ACME_MODEL_PREF", type: "model", required: true, role: "model" },
  ],
  modelKey: "AcmeModelPref",
  defaultTokenLimit: 8192,
  lookup: { provider: "acme", apiKeyField: "AcmeApiKey" },
  listing: { source: "openai", needsKey: true, organization: { field: "owned_by" } },
  openai: { baseUrl: "https://api.acme.invalid/v1", apiKeyField: "AcmeApiKey" },
  dataHandling: { receives: ["prompts"], destination: vendor("api.acme.invalid") },
};

const has = (key: string) => {
  let node: unknown = en;
  for (const part of key.split(".")) node = (node as Record<string, unknown> | undefined)?.[part];
  return typeof node === "string";
};

Deno.test("adding one row to the table makes a new vendor appear in the form, the lookup and the chat", async () => {
  LLM_PROVIDERS.push(ACME);
  const definitions = settingsOfFields(ACME.fields);
  SETTING_KEYS.push(...definitions);
  try {
    // The form: offered, with its fields, labelled by their roles, sent on save.
    const choice = selectableLlms().find((provider) => provider.id === "acme");
    assert.ok(choice, "the form offers it");
    assert.deepEqual(choice.fields.map((field) => field.key), ["AcmeApiKey", "AcmeModelPref"]);
    assert.deepEqual(
      choice.fields.map((field) => fieldTextKeys(field, has).label),
      ["settings.fieldRoles.apiKey.label", "settings.fieldRoles.model.label"],
    );
    const setup = { MultiUserMode: false, RequiresAuth: false, LLMProvider: null, VectorDB: null };
    const values = { ...initialValues([choice], setup), AcmeApiKey: "acme-key", AcmeModelPref: "acme-1" };
    assert.deepEqual(fieldSettings(choice, values, [], setup), {
      AcmeApiKey: "acme-key",
      AcmeModelPref: "acme-1",
    });
    assert.deepEqual(definitions.map((definition) => [definition.key, definition.env, definition.secret]), [
      ["AcmeApiKey", "ACME_API_KEY", true],
      ["AcmeModelPref", "ACME_MODEL_PREF", false],
    ]);

    await using fake = startFakeOpenAi({ apiKey: "acme-key", models: ["acme-1", "acme-2"] });
    await using app = await createTestApp({ providerDeps: { endpoints: { acme: fake.baseURL } } });
    // The settings: checked (an empty key refused), stored, masked.
    const empty = await app.json("/api/system/update-env", { json: { AcmeApiKey: "" } });
    assert.equal(empty.body.error, "AcmeApiKey: Value cannot be empty");
    const saved = await app.json<{ newValues: Record<string, string> }>("/api/system/update-env", {
      json: { LLMProvider: "acme", ...values, VectorDB: "lancedb" },
    });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    assert.equal(saved.body.newValues.AcmeApiKey, "*".repeat(20));

    // The lookup, with the stored key.
    const models = await app.json<{ models: { id: string; organization: string }[] }>(
      "/api/system/custom-models",
      { json: { provider: "acme", apiKey: true } },
    );
    assert.deepEqual(models.body.models.map((model) => [model.id, model.organization]), [
      ["acme-1", "lectern-tests"],
      ["acme-2", "lectern-tests"],
    ]);

    // The chat.
    await app.json("/api/workspace/new", { json: { name: "P" } });
    const frames = await readFrames(
      await app.request("/api/workspace/p/stream-chat", { method: "POST", body: '{"message":"hello"}' }),
    );
    const text = frames.filter((frame) => frame.type === "textResponseChunk").map((frame) =>
      frame.textResponse
    )
      .join("");
    assert.match(text, /You asked: hello/);
    assert.equal(fake.chatRequests.at(-1)?.model, "acme-1");
    const complete = await app.json<{ results: Record<string, unknown> }>("/api/setup-complete");
    assert.equal(complete.body.results.LLMModel, "acme-1");
  } finally {
    LLM_PROVIDERS.splice(LLM_PROVIDERS.indexOf(ACME), 1);
    for (const definition of definitions) SETTING_KEYS.splice(SETTING_KEYS.indexOf(definition), 1);
  }
});

Deno.test("every field of every row has a label, an environment variable, and a check that takes its default", () => {
  const missing: string[] = [];
  for (const row of LLM_PROVIDERS) {
    for (const field of row.fields) {
      if (!has(fieldTextKeys(field, has).label)) missing.push(`${row.id}.${field.key} label`);
      if (!field.env) missing.push(`${row.id}.${field.key} env`);
      const [definition] = settingsOfFields([field]);
      if (field.defaultValue !== undefined && !definition.schema.safeParse(field.defaultValue).success) {
        missing.push(`${row.id}.${field.key} default`);
      }
    }
  }
  assert.deepEqual(missing, []);
  const keys = SETTING_KEYS.map((definition) => definition.key);
  assert.equal(new Set(keys).size, keys.length, "every update-env key once");
  assert.equal(LLM_PROVIDERS.length, 25);
});
