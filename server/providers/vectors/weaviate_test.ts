import assert from "node:assert/strict";
import { assertProviderFailure, checkStore, record, unit } from "./testing/conformance.ts";
import { closedPort } from "./testing/fake_server.ts";
import { startFakeWeaviate } from "./testing/fake_weaviate.ts";
import { openWeaviateStore, weaviateClass } from "./weaviate.ts";

Deno.test("weaviateClass: a capitalised class name of Weaviate's alphabet", () => {
  assert.equal(weaviateClass("ws1_0a1b2c"), "Ws1_0a1b2c");
  assert.equal(weaviateClass("ws1_"), "Ws1_");
  assert.equal(weaviateClass("9-x"), "L9_x");
});

Deno.test("Weaviate store against a fake of its REST and GraphQL APIs: classes, batches, search, count, delete, drop", async () => {
  await using weaviate = startFakeWeaviate({ apiKey: "wk", deleteLimit: 50 });
  await checkStore(() => openWeaviateStore({ endpoint: weaviate.url, apiKey: "wk" }), { hybrid: true });
  assert.ok(
    weaviate.requests.filter((line) => line === "POST /v1/batch/objects").length >= 4,
    "batches of 100",
  );
  assert.ok(
    weaviate.requests.filter((line) => line === "DELETE /v1/batch/objects").length >= 2,
    "a delete larger than the server's limit is repeated",
  );
  const config = weaviate.classes.get("Ws2_abc")!.config as { vectorIndexConfig: { distance: string } };
  assert.equal(config.vectorIndexConfig.distance, "cosine");
});

Deno.test("Weaviate store: with the question's text the search is hybrid and scores stay cosine similarities", async () => {
  await using weaviate = startFakeWeaviate();
  const store = openWeaviateStore({ endpoint: weaviate.url });
  const byMeaning = crypto.randomUUID();
  const byWords = crypto.randomUUID();
  await store.upsert("ws1_h", [
    record(byMeaning, "a", unit(0), "a chunk about something else"),
    record(byWords, "b", unit(3), "invoice number seventeen"),
  ]);
  const vectorOnly = await store.search("ws1_h", unit(0), { topK: 1 });
  assert.equal(vectorOnly[0].id, byMeaning);
  const hybrid = await store.search("ws1_h", unit(0), { topK: 1, text: "invoice seventeen" });
  assert.equal(hybrid[0].id, byWords, "found by its words");
  const expected = unit(0).reduce((sum, value, index) => sum + value * unit(3)[index], 0);
  assert.ok(Math.abs(hybrid[0].score - expected) < 1e-9, `${hybrid[0].score} is the cosine ${expected}`);
});

Deno.test("Weaviate store: a wrong key and an unreachable server are clear sentences", async () => {
  await using weaviate = startFakeWeaviate({ apiKey: "wk" });
  await assertProviderFailure(
    () => openWeaviateStore({ endpoint: weaviate.url, apiKey: "nope" }).count("ws1_x"),
    /^Weaviate at http:\/\/127\.0\.0\.1:\d+ refused the credentials \(401\): unauthorized: invalid api key/,
  );
  await assertProviderFailure(
    () =>
      openWeaviateStore({ endpoint: `http://127.0.0.1:${closedPort()}`, timeoutMs: 2_000 }).count("ws1_x"),
    /^Cannot reach Weaviate at http:\/\/127/,
  );
});
