import assert from "node:assert/strict";
import { join } from "node:path";
import { Buffer } from "node:buffer";
import { encodeCacheChunks, uuidv5, VectorCache } from "./vector_cache.ts";

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

Deno.test("encodeCacheChunks() writes what JSON.stringify of each chunk, with its vector as base64 float32, writes", () => {
  const reference = (chunks: { text: string; vector: ArrayLike<number>; page?: number }[]) =>
    chunks.map((chunk) => {
      const floats = Float32Array.from(chunk.vector);
      return JSON.stringify({
        text: chunk.text,
        ...(chunk.page === undefined ? {} : { page: chunk.page }),
        vector: Buffer.from(floats.buffer).toString("base64"),
      });
    }).join(",");
  const chunks = [
    { text: 'A "quoted" line\nand a tab\t, a control \u0001 and é, 漢字, 😀', vector: [0.1, -2.5, 3e-8] },
    { text: "Paged", vector: new Float32Array([1, 0, 0.333]), page: 7 },
    // A longer vector after a shorter one, then a shorter again (the float32 scratch is resized).
    { text: "", vector: Array.from({ length: 384 }, (_, index) => Math.sin(index)), page: 0 },
    { text: "Short again", vector: [Number.MAX_VALUE, -0, 1e-40] },
    { text: "A view", vector: new Float32Array([9, 8, 7, 6]).subarray(1, 3) },
  ];
  assert.equal(encodeCacheChunks(chunks), reference(chunks));
  assert.equal(encodeCacheChunks([]), "");
  assert.deepEqual(
    JSON.parse(`[${encodeCacheChunks(chunks)}]`).map((chunk: { page?: number }) => chunk.page),
    [
      undefined,
      7,
      0,
      undefined,
      undefined,
    ],
  );
});
