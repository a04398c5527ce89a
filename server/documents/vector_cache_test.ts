import assert from "node:assert/strict";
import { join } from "node:path";
import { uuidv5, VectorCache } from "./vector_cache.ts";

const DNS = "6ba7b810-9dad-11d1-80b4-00c04fd430c8";

Deno.test("uuidv5() matches the RFC 4122 examples", () => {
  assert.equal(uuidv5("www.example.com", DNS), "2ed6657d-e927-568b-95e1-2665a8aea6a2");
  assert.equal(uuidv5("http://python.org/"), "4c565f0d-3f5a-5890-b41b-20cf47701c5e");
});

Deno.test("the cache returns what was written, only for the same document, text, embedder and splitter", async () => {
  const directory = await Deno.makeTempDir({ prefix: "lectern-cache-" });
  try {
    const cache = new VectorCache(join(directory, "vector-cache"));
    const key = {
      docpath: "custom-documents/a.json",
      fingerprint: "native:x:3",
      contentHash: "h1",
      chunkSize: 1000,
      chunkOverlap: 20,
    };
    assert.equal(await cache.read(key), null, "nothing cached yet, and no folder");
    const chunks = [
      { text: "one", vector: [0.5, -0.25, 1], page: 2 },
      { text: "two", vector: [0, 0.125, -1] },
    ];
    await cache.write(key, chunks);
    assert.deepEqual(await cache.read(key), chunks);
    assert.match(cache.fileFor(key.docpath, key.fingerprint), /vector-cache\/[0-9a-f-]{36}\.json$/);
    for (
      const change of [{ contentHash: "h2" }, { chunkSize: 500 }, { chunkOverlap: 0 }, { fingerprint: "y" }]
    ) {
      assert.equal(await cache.read({ ...key, ...change }), null, JSON.stringify(change));
    }
    await Deno.writeTextFile(cache.fileFor(key.docpath, key.fingerprint), "{not json");
    assert.equal(await cache.read(key), null, "a damaged file is a miss");

    await cache.write(key, chunks);
    await cache.forget(key.docpath, [key.fingerprint, "other"]);
    assert.equal(await cache.read(key), null);
    await cache.write(key, chunks);
    await cache.write({ ...key, docpath: "custom-documents/b.json" }, chunks);
    assert.equal(await cache.purge(), 2);
    assert.equal(await cache.read(key), null);
  } finally {
    await Deno.remove(directory, { recursive: true });
  }
});
