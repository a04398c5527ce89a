import assert from "node:assert/strict";
import { installChroma, startChroma } from "../../../scripts/chroma.ts";
import { ProviderError } from "../../errors.ts";
import { chromaAuthHeaders, openChromaStore } from "./chroma.ts";
import type { VectorRecord } from "./types.ts";

// A real Chroma server (scripts/chroma.ts). Without one the tests that need it are ignored and say why, except
// under CI=true, where .ci/run installs it first and a missing server is a failure.
const ci = Deno.env.get("CI") === "true";
let bin: string | null = null;
let reason = "";
try {
  bin = await installChroma();
} catch (error) {
  reason = (error as Error).message;
  if (!ci) console.log(`Chroma adapter tests ignored: Chroma cannot be installed (${reason})`);
}
const needsChroma = { ignore: bin === null && !ci };

function chromaBin(): string {
  if (bin === null) throw new Error(`CI=true but Chroma cannot be installed: ${reason}`);
  return bin;
}

function unit(index: number, dimensions = 8): number[] {
  const vector = Array.from(
    { length: dimensions },
    (_, position) => (position === index % dimensions ? 1 : 0.1),
  );
  const norm = Math.hypot(...vector);
  return vector.map((value) => value / norm);
}

const record = (id: string, docId: string, vector: number[], text = `text of ${id}`): VectorRecord => ({
  id,
  docId,
  vector,
  text,
  metadata: { title: `${docId}.txt`, published: "1/2/2025", page: 3 },
});

Deno.test("chromaAuthHeaders: X-Chroma-Token by default, a bearer token for Authorization, nothing without a key", () => {
  assert.deepEqual(chromaAuthHeaders(undefined, undefined), {});
  assert.deepEqual(chromaAuthHeaders("X-Api-Key", ""), {});
  assert.deepEqual(chromaAuthHeaders(undefined, "k1"), { "X-Chroma-Token": "k1" });
  assert.deepEqual(chromaAuthHeaders("X-Api-Key", "k1"), { "X-Api-Key": "k1" });
  assert.deepEqual(chromaAuthHeaders("Authorization", "k1"), { Authorization: "Bearer k1" });
  assert.deepEqual(chromaAuthHeaders("authorization", "Basic abc"), { authorization: "Basic abc" });
});

Deno.test("Chroma store: an unreachable server is a clear provider error", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  const store = openChromaStore({ endpoint: `http://127.0.0.1:${port}`, timeoutMs: 2_000 });
  await assert.rejects(
    () => store.count("ws1_x"),
    (error) =>
      error instanceof ProviderError && /Cannot reach Chroma at http:\/\/127\.0\.0\.1/.test(error.message),
  );
});

Deno.test({
  name:
    "Chroma store against a real server: upsert in batches, cosine search, count, delete by document, drop",
  ...needsChroma,
  async fn() {
    await using server = await startChroma({ bin: chromaBin() });
    const store = openChromaStore({ endpoint: server.url });
    try {
      assert.equal(await store.count("ws1_abc"), 0, "a missing collection counts 0");
      assert.deepEqual(await store.search("ws1_abc", unit(0), { topK: 3 }), []);

      // More records than one request carries.
      const many = Array.from(
        { length: 1_203 },
        (_, index) => record(`m${index}`, `d${index % 7}`, unit(index)),
      );
      await store.upsert("ws1_abc", many);
      assert.equal(await store.count("ws1_abc"), 1_203);

      await store.upsert("ws1_abc", [
        record("near", "dnear", unit(0).map((value, index) => value + index * 1e-3)),
      ]);
      const hits = await store.search("ws1_abc", unit(0), { topK: 3, text: "ignored by Chroma" });
      assert.equal(hits.length, 3);
      assert.ok(
        hits.every((hit) => hit.score > 0.99 && hit.score <= 1),
        JSON.stringify(hits.map((h) => h.score)),
      );
      const first = hits[0];
      assert.deepEqual(first.metadata, { title: `${first.docId}.txt`, published: "1/2/2025", page: 3 });
      assert.equal(first.text, `text of ${first.id}`);

      // Cosine space: the opposite direction is distance 2, similarity 0.
      const opposite = await store.search("ws1_abc", unit(0).map((value) => -value), { topK: 1 });
      assert.equal(opposite[0].score, 0);

      await store.deleteDocuments("ws1_abc", ["d0", "d1", "dnear"]);
      const left = many.filter((entry) => !["d0", "d1"].includes(entry.docId)).length;
      assert.equal(await store.count("ws1_abc"), left);
      assert.ok(!(await store.search("ws1_abc", unit(0), { topK: 50 })).some((hit) => hit.docId === "d0"));
      await store.deleteDocuments("ws9_missing", ["d0"]);

      await store.upsert("ws2_abc", [record("z", "dz", unit(1))]);
      await store.upsert("ws12_abc", [record("y", "dy", unit(1))]);
      await store.dropNamespaces("ws1_");
      assert.equal(await store.count("ws1_abc"), 0);
      assert.equal(await store.count("ws2_abc"), 1);
      assert.equal(await store.count("ws12_abc"), 1, "ws1_ does not match ws12_");

      // A collection dropped by someone else is made again on the next write.
      const other = openChromaStore({ endpoint: server.url });
      await other.dropNamespaces("ws2_");
      await store.upsert("ws2_abc", [record("w", "dw", unit(2))]);
      assert.equal(await store.count("ws2_abc"), 1);
    } finally {
      await store.close();
    }
  },
});
