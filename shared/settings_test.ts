import assert from "node:assert/strict";
import { SETTING_KEYS, settingDefinition } from "./settings.ts";

Deno.test("setting definitions build their check on first read, once, and it checks as before", () => {
  for (const definition of SETTING_KEYS) {
    // A getter, not a schema built for every setting when the module loads (issue 21: start-up).
    const schema = Object.getOwnPropertyDescriptor(definition, "schema");
    assert.equal(typeof schema?.get, "function", `${definition.key}'s check is built at load`);
    assert.equal(schema?.value, undefined);
  }
  const url = settingDefinition("EmbeddingBasePath")!;
  assert.equal(url.schema, url.schema, "the check is built once");
  assert.deepEqual(url.schema.safeParse("http://127.0.0.1:8080/v1/").data, "http://127.0.0.1:8080/v1");
  assert.equal(url.schema.safeParse("not a url").error?.issues[0]?.message, "URL is not a valid URL.");
  const optional = settingDefinition("AgentSearXNGApiUrl")!;
  assert.equal(optional.schema.safeParse("  ").data, "");
  const chunks = settingDefinition("EmbeddingModelMaxChunkLength")!;
  assert.equal(chunks.schema.safeParse("0100").data, "100");
  assert.equal(chunks.schema.safeParse("").data, "");
  assert.equal(chunks.schema.safeParse("-1").success, false);
  const reranker = settingDefinition("RerankerProvider")!;
  assert.equal(
    reranker.schema.safeParse("nope").error?.issues[0]?.message,
    "nope is not a supported reranker.",
  );
  // Spreading a definition (as the settings' answers may) reads the check like any property.
  assert.ok({ ...url }.schema);
});
