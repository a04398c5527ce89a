import assert from "node:assert/strict";
import { openPineconeStore } from "./pinecone.ts";
import { assertProviderFailure, checkStore, record, unit } from "./testing/conformance.ts";
import { startFakePinecone } from "./testing/fake_pinecone.ts";
import { closedPort } from "./testing/fake_server.ts";

const options = { apiKey: "pk", index: "lectern" };

Deno.test("Pinecone store against a fake of its control and data planes (serverless: delete by id prefix)", async () => {
  await using pinecone = startFakePinecone(options);
  await checkStore(() => openPineconeStore({ ...options, controlPlane: pinecone.url }));
  assert.ok(
    pinecone.requests.filter((line) => line === "POST /vectors/upsert").length >= 4,
    "batches of 100",
  );
  assert.ok(pinecone.requests.includes("GET /vectors/list"), "a document's ids are listed by prefix");
  const ids = [...pinecone.namespaces.get("ws2_abc")!.keys()];
  assert.match(ids[0], /^dw#[0-9a-f-]{36}$/, "ids are docId#chunkId");
});

Deno.test("Pinecone store: a pod-based index deletes a document's vectors by metadata filter", async () => {
  await using pinecone = startFakePinecone({ ...options, podBased: true });
  const store = openPineconeStore({ ...options, controlPlane: pinecone.url });
  await store.upsert("ws1_x", [
    record(crypto.randomUUID(), "a", unit(0)),
    record(crypto.randomUUID(), "b", unit(1)),
  ]);
  await store.deleteDocuments("ws1_x", ["a"]);
  assert.equal(await store.count("ws1_x"), 1);
  assert.equal((await store.search("ws1_x", unit(0), { topK: 5 }))[0].docId, "b");
});

Deno.test("Pinecone store: wrong key, unreachable, missing or unready index, wrong metric and dimension are clear sentences", async () => {
  await using pinecone = startFakePinecone(options);
  await assertProviderFailure(
    () => openPineconeStore({ ...options, apiKey: "nope", controlPlane: pinecone.url }).count("ws1_x"),
    /^Pinecone at http:\/\/127\.0\.0\.1:\d+ refused the credentials \(401\): Invalid API Key\. Check the API key/,
  );
  await assertProviderFailure(
    () => openPineconeStore({ ...options, controlPlane: `http://127.0.0.1:${closedPort()}` }).count("ws1_x"),
    /^Cannot reach Pinecone at http:\/\/127/,
  );
  await assertProviderFailure(
    () => openPineconeStore({ ...options, index: "other", controlPlane: pinecone.url }).count("ws1_x"),
    /^Pinecone has no index named "other"\./,
  );
  await assertProviderFailure(
    () =>
      openPineconeStore({ ...options, controlPlane: pinecone.url }).upsert("ws1_x", [
        record(crypto.randomUUID(), "a", unit(0, 4)),
      ]),
    /holds vectors of 8 dimensions, but the embedder makes 4\./,
  );
  await using unready = startFakePinecone({ ...options, ready: false });
  await assertProviderFailure(
    () => openPineconeStore({ ...options, controlPlane: unready.url }).count("ws1_x"),
    /is not ready yet \(Initializing\)\./,
  );
  await using euclidean = startFakePinecone({ ...options, metric: "euclidean" });
  await assertProviderFailure(
    () => openPineconeStore({ ...options, controlPlane: euclidean.url }).count("ws1_x"),
    /uses the euclidean metric; Lectern needs cosine/,
  );
});
