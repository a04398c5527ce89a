// The behaviour every remote vector store shows against its fake: the same checks for each adapter.
import assert from "node:assert/strict";
import { ProviderError } from "../../../errors.ts";
import type { VectorRecord, VectorStore } from "../types.ts";

export function unit(index: number, dimensions = 8): number[] {
  const vector = Array.from(
    { length: dimensions },
    (_, position) => (position === index % dimensions ? 1 : 0.1),
  );
  const norm = Math.hypot(...vector);
  return vector.map((value) => value / norm);
}

export const record = (
  id: string,
  docId: string,
  vector: number[],
  text = `text of ${id}`,
): VectorRecord => ({
  id,
  docId,
  vector,
  text,
  metadata: { title: `${docId}.txt`, published: "1/2/2025", page: 3 },
});

/** The similarity threshold as chat retrieval applies it (server/chat/retrieve.ts). */
const above = (threshold: number) => (hit: { score: number }) => hit.score >= threshold;

/**
 * Create, add in several batches, search (topN, threshold, best first), replace, count, delete by document,
 * drop by prefix, and a namespace dropped behind the store's back made again on the next write.
 */
export async function checkStore(
  open: () => VectorStore,
  options: { total?: number; hybrid?: boolean } = {},
): Promise<void> {
  const total = options.total ?? 301;
  const store = open();
  try {
    assert.equal(await store.count("ws1_abc"), 0, "a missing namespace counts 0");
    assert.deepEqual(await store.search("ws1_abc", unit(0), { topK: 3 }), []);
    await store.deleteDocuments("ws1_abc", ["d0"]);

    const many = Array.from(
      { length: total },
      (_, index) => record(crypto.randomUUID(), `d${index % 7}`, unit(index)),
    );
    await store.upsert("ws1_abc", many);
    assert.equal(await store.count("ws1_abc"), total);

    const nearId = crypto.randomUUID();
    const near = unit(0).map((value, index) => value + index * 1e-3);
    await store.upsert("ws1_abc", [
      record(nearId, "dnear", near),
    ]);
    assert.equal(await store.count("ws1_abc"), total + 1);

    const hits = await store.search("ws1_abc", unit(0), { topK: 3 });
    if (!options.hybrid) {
      // A store without a full-text side searches by vector only: the question's text changes nothing.
      assert.deepEqual(await store.search("ws1_abc", unit(0), { topK: 3, text: "text of" }), hits);
    }
    assert.equal(hits.length, 3, "topN");
    assert.ok(
      hits.every((hit) => hit.score > 0.99 && hit.score <= 1),
      JSON.stringify(hits.map((h) => h.score)),
    );
    assert.ok(hits[0].score >= hits[1].score && hits[1].score >= hits[2].score, "best first");
    const first = hits[0];
    assert.deepEqual(first.metadata, { title: `${first.docId}.txt`, published: "1/2/2025", page: 3 });
    assert.equal(first.text, `text of ${first.id}`);
    assert.ok(
      many.some((entry) => entry.id === first.id && entry.docId === first.docId) || first.id === nearId,
    );

    // The threshold: a wide search keeps only the close hits above it; the opposite direction scores 0.
    const wide = await store.search("ws1_abc", unit(0), { topK: 100 });
    assert.equal(wide.length, 100);
    const close = wide.filter(above(0.99));
    assert.ok(close.length > 3 && close.length < 100, `${close.length} hits above 0.99`);
    assert.ok(close.every((hit) => hit.docId === "dnear" || Number(hit.docId.slice(1)) % 1 === 0));
    const opposite = await store.search("ws1_abc", unit(0).map((value) => -value), { topK: 1 });
    assert.equal(opposite[0].score, 0);

    // The same id again replaces its record.
    await store.upsert("ws1_abc", [record(nearId, "dnear", near, "replaced")]);
    assert.equal(await store.count("ws1_abc"), total + 1);
    const [replaced] = await store.search("ws1_abc", near, { topK: 1 });
    assert.equal(replaced.id, nearId);
    assert.equal(replaced.text, "replaced");

    await store.deleteDocuments("ws1_abc", ["d0", "d1", "dnear"]);
    const left = many.filter((entry) => !["d0", "d1"].includes(entry.docId)).length;
    assert.equal(await store.count("ws1_abc"), left);
    assert.ok(!(await store.search("ws1_abc", unit(0), { topK: 100 })).some((hit) => hit.docId === "d0"));

    await store.upsert("ws2_abc", [record(crypto.randomUUID(), "dz", unit(1))]);
    await store.upsert("ws12_abc", [record(crypto.randomUUID(), "dy", unit(1))]);
    await store.dropNamespaces("ws1_");
    assert.equal(await store.count("ws1_abc"), 0);
    assert.deepEqual(await store.search("ws1_abc", unit(0), { topK: 3 }), []);
    assert.equal(await store.count("ws2_abc"), 1);
    assert.equal(await store.count("ws12_abc"), 1, "ws1_ does not match ws12_");

    // A namespace dropped by someone else is made again on the next write.
    const other = open();
    await other.dropNamespaces("ws2_");
    await other.close();
    assert.equal(await store.count("ws2_abc"), 0);
    await store.upsert("ws2_abc", [record(crypto.randomUUID(), "dw", unit(2))]);
    assert.equal(await store.count("ws2_abc"), 1);
  } finally {
    await store.close();
  }
}

/** A failed call rejects with a ProviderError whose message is one clear sentence matching `pattern`. */
export async function assertProviderFailure(work: () => Promise<unknown>, pattern: RegExp): Promise<void> {
  await assert.rejects(work, (error) => {
    assert.ok(error instanceof ProviderError, `a ProviderError, not ${error}`);
    assert.match(error.message, pattern);
    assert.match(error.message, /^[A-Z].*\.$/s, "a sentence that ends with a period");
    return true;
  });
}
