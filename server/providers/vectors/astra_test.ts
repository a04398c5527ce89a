import assert from "node:assert/strict";
import { astraCollection, openAstraStore } from "./astra.ts";
import { assertProviderFailure, checkStore, record, unit } from "./testing/conformance.ts";
import { startFakeAstra } from "./testing/fake_astra.ts";
import { closedPort } from "./testing/fake_server.ts";

const token = "AstraCS:abc:123";

Deno.test("astraCollection: a letter first, Astra's alphabet, 48 characters at most", () => {
  assert.equal(astraCollection("ws1_0a1b"), "ws1_0a1b");
  assert.equal(astraCollection("9-x"), "ns_9_x");
  assert.equal(astraCollection("w".repeat(60)).length, 48);
});

Deno.test("Astra DB store against a fake of its Data API: collections, batches, search, count, delete, drop", async () => {
  await using astra = startFakeAstra({ token, countLimit: 100 });
  await checkStore(() => openAstraStore({ endpoint: astra.url, token }));
  assert.ok(
    astra.requests.filter((line) => line === "POST /api/json/v1/default_keyspace/ws1_abc").length > 30,
  );
  assert.deepEqual(astra.collections.get("ws2_abc")!.options.vector, { dimension: 8, metric: "cosine" });
});

Deno.test("Astra DB store: a wrong token, an unreachable endpoint and a wrong dimension are clear sentences", async () => {
  await using astra = startFakeAstra({ token });
  await assertProviderFailure(
    () => openAstraStore({ endpoint: astra.url, token: "AstraCS:wrong" }).count("ws1_x"),
    /^Astra DB at http:\/\/127\.0\.0\.1:\d+ refused the credentials \(401\): Role unauthorized for operation: Invalid token\. Check the API key/,
  );
  await assertProviderFailure(
    () =>
      openAstraStore({ endpoint: `http://127.0.0.1:${closedPort()}`, token, timeoutMs: 2_000 }).count(
        "ws1_x",
      ),
    /^Cannot reach Astra DB at http:\/\/127/,
  );
  const store = openAstraStore({ endpoint: astra.url, token });
  await store.upsert("ws1_x", [record(crypto.randomUUID(), "d", unit(0))]);
  await assertProviderFailure(
    () => store.upsert("ws1_x", [record(crypto.randomUUID(), "d", unit(0, 4))]),
    /^Astra DB at http:\/\/127\.0\.0\.1:\d+ refused insertMany: Length of vector parameter/,
  );
});
