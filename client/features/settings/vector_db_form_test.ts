// The vector database form is derived from the catalog rows (VectorDbForm.tsx): each database's fields, their
// labels and hints, and what the form sends and reads back through update-env and setup-complete.
import assert from "node:assert/strict";
import { VECTOR_DBS } from "../../../shared/providers/embedder_catalog.ts";
import { MASKED_SECRET, SETTING_KEYS } from "../../../shared/settings.ts";
import { createTestApp } from "../../../server/testing/test_app.ts";
import en from "../../locales/en.json" with { type: "json" };
import { fieldSettings, initialValues } from "./provider_form.ts";
import type { SetupResults } from "./setup.ts";

const SAMPLES: Record<string, string> = {
  url: "http://127.0.0.1:6333",
  text: "sample-name",
  password: "sample-secret",
};

Deno.test("vector database form: every database of the catalog can be chosen, with labelled fields the server accepts", () => {
  const strings = en.vectorDb as {
    providers: Record<string, string>;
    fields: Record<string, { label: string; hint: string }>;
  };
  assert.deepEqual(
    VECTOR_DBS.filter((database) => database.builtIn).map((database) => database.id),
    ["lancedb", "chroma", "pinecone", "qdrant", "weaviate", "milvus", "zilliz", "astra"],
  );
  for (const database of VECTOR_DBS) {
    assert.ok(strings.providers[database.id], `${database.id} has a description`);
    if (!database.embedded) {
      assert.ok(database.fields.some((field) => field.required), `${database.id} needs something set`);
    }
    for (const field of database.fields) {
      assert.ok(strings.fields[field.key]?.label, `${field.key} has a label`);
      assert.ok(strings.fields[field.key]?.hint, `${field.key} has a hint`);
      const definition = SETTING_KEYS.find((entry) => entry.key === field.key);
      assert.ok(definition, `update-env accepts ${field.key}`);
      assert.equal(definition.secret, field.type === "password", `${field.key} is secret when a password`);
    }
  }
});

Deno.test("vector database form: what each database's form sends is saved and read back into the form", async () => {
  await using app = await createTestApp();
  for (const database of VECTOR_DBS.filter((entry) => !entry.embedded)) {
    const typed = Object.fromEntries(database.fields.map((field) => [field.key, SAMPLES[field.type]]));
    const sent = fieldSettings(database, typed, [], null);
    assert.deepEqual(sent, typed, `${database.id}: the form sends every field`);
    const saved = await app.json<{ newValues: Record<string, string>; error: string | null }>(
      "/api/system/update-env",
      { json: { VectorDB: database.id, ...sent } },
    );
    assert.equal(saved.status, 200, `${database.id}: ${JSON.stringify(saved.body)}`);
    assert.equal(saved.body.newValues.VectorDB, database.id);
    const setup = (await app.json<{ results: SetupResults }>("/api/setup-complete")).body.results;
    assert.equal(setup.VectorDB, database.id);
    const shown = initialValues([database], setup);
    for (const field of database.fields) {
      assert.equal(
        shown[field.key],
        field.type === "password" ? MASKED_SECRET : typed[field.key],
        `${database.id}: ${field.key} is shown again${field.type === "password" ? ", masked" : ""}`,
      );
      assert.equal(app.deps.settings.value(field.key), typed[field.key]);
    }
  }
  const bad = await app.json<{ error: string }>("/api/system/update-env", {
    json: { VectorDB: "qdrant", QdrantEndpoint: "not a url" },
  });
  assert.equal(bad.status, 400);
  assert.match(bad.body.error, /QdrantEndpoint/);
});
