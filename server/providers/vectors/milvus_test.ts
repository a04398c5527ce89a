import assert from "node:assert/strict";
import { milvusCollection, openMilvusStore } from "./milvus.ts";
import { assertProviderFailure, checkStore, record, unit } from "./testing/conformance.ts";
import { startFakeMilvus } from "./testing/fake_milvus.ts";
import { closedPort } from "./testing/fake_server.ts";
import { openZillizStore } from "./zilliz.ts";

Deno.test("milvusCollection: Milvus's alphabet, never a leading digit", () => {
  assert.equal(milvusCollection("ws1_0a1b"), "ws1_0a1b");
  assert.equal(milvusCollection("9-x"), "_9_x");
});

Deno.test("Milvus store against a fake of its REST API v2: schema, batches, search, count, delete, drop", async () => {
  await using milvus = startFakeMilvus({ token: "root:Milvus" });
  await checkStore(() => openMilvusStore({ endpoint: milvus.url, token: "root:Milvus" }));
  assert.ok(milvus.requests.filter((line) => line === "POST /v2/vectordb/entities/upsert").length >= 4);
  const created = milvus.collections.get("ws2_abc")!.schema as { params: { consistencyLevel: string } };
  assert.equal(created.params.consistencyLevel, "Strong");
});

Deno.test("Zilliz Cloud store: the Milvus API at the cluster endpoint with its token", async () => {
  await using zilliz = startFakeMilvus({ token: "zk-123" });
  await checkStore(() => openZillizStore({ endpoint: zilliz.url, token: "zk-123" }), { total: 120 });
  await assertProviderFailure(
    () => openZillizStore({ endpoint: zilliz.url, token: "nope" }).count("ws1_x"),
    /^Zilliz Cloud at http:\/\/127\.0\.0\.1:\d+ refused the credentials \(code 1800\): user hasn't authenticated\. Check the API key/,
  );
});

Deno.test("Milvus store: a refused token, an unreachable server and a wrong dimension are clear sentences", async () => {
  await using milvus = startFakeMilvus({ token: "root:Milvus" });
  await assertProviderFailure(
    () => openMilvusStore({ endpoint: milvus.url }).search("ws1_x", unit(0), { topK: 1 }),
    /^Milvus at http:\/\/127\.0\.0\.1:\d+ refused the credentials \(code 1800\)/,
  );
  await assertProviderFailure(
    () => openMilvusStore({ endpoint: `http://127.0.0.1:${closedPort()}`, timeoutMs: 2_000 }).count("ws1_x"),
    /^Cannot reach Milvus at http:\/\/127/,
  );
  const store = openMilvusStore({ endpoint: milvus.url, token: "root:Milvus" });
  await store.upsert("ws1_x", [record(crypto.randomUUID(), "d", unit(0))]);
  await assertProviderFailure(
    () => store.upsert("ws1_x", [record(crypto.randomUUID(), "d", unit(0, 4))]),
    /answered code 1100: the dim \(4\) of field data\(vector\) is not equal to schema dim \(8\)\./,
  );
});
