import assert from "node:assert/strict";
import { openQdrantStore } from "./qdrant.ts";
import { assertProviderFailure, checkStore, record, unit } from "./testing/conformance.ts";
import { startFakeQdrant } from "./testing/fake_qdrant.ts";
import { closedPort, serveFake } from "./testing/fake_server.ts";

Deno.test("Qdrant store against a fake of its REST API: collections, batches, search, count, delete, drop", async () => {
  await using qdrant = startFakeQdrant({ apiKey: "qk" });
  await checkStore(() => openQdrantStore({ endpoint: `${qdrant.url}/`, apiKey: "qk" }));
  assert.ok(
    qdrant.requests.filter((line) => line === "PUT /collections/ws1_abc/points").length >= 2,
    "batches",
  );
  assert.deepEqual(qdrant.collections.get("ws2_abc")?.indexes, ["doc_id"], "doc_id is indexed");
});

Deno.test("Qdrant store: a wrong key, an unreachable server and a wrong dimension are clear sentences", async () => {
  await using qdrant = startFakeQdrant({ apiKey: "qk" });
  const wrong = openQdrantStore({ endpoint: qdrant.url, apiKey: "nope" });
  await assertProviderFailure(
    () => wrong.count("ws1_x"),
    /^Qdrant at http:\/\/127\.0\.0\.1:\d+ refused the credentials \(401\): Invalid api-key\. Check the API key/,
  );
  await using other = serveFake(() => new Response("404 page not found", { status: 404 }));
  await assertProviderFailure(
    () => openQdrantStore({ endpoint: other.url }).count("ws1_x"),
    /answered 404 without naming a collection; check that it is Qdrant's REST address/,
  );
  const away = openQdrantStore({ endpoint: `http://127.0.0.1:${closedPort()}`, timeoutMs: 2_000 });
  await assertProviderFailure(
    () => away.search("ws1_x", unit(0), { topK: 1 }),
    /^Cannot reach Qdrant at http:\/\/127/,
  );

  const store = openQdrantStore({ endpoint: qdrant.url, apiKey: "qk" });
  await store.upsert("ws1_x", [record(crypto.randomUUID(), "d", unit(0))]);
  await assertProviderFailure(
    () => store.upsert("ws1_x", [record(crypto.randomUUID(), "d", unit(0, 4))]),
    /answered 400: Wrong input: Vector dimension error: expected dim: 8, got 4\./,
  );
});

Deno.test("Qdrant store: ids that are not UUIDs get a stable UUID and come back as given", async () => {
  await using qdrant = startFakeQdrant();
  const store = openQdrantStore({ endpoint: qdrant.url });
  await store.upsert("ws1_x", [record("chunk-1", "d", unit(0)), record("chunk-1", "d", unit(0))]);
  assert.equal(await store.count("ws1_x"), 1);
  const [hit] = await store.search("ws1_x", unit(0), { topK: 1 });
  assert.equal(hit.id, "chunk-1");
  assert.match([...qdrant.collections.get("ws1_x")!.points.keys()][0], /^[0-9a-f-]{36}$/);
});
