import assert from "node:assert/strict";
import { embedLexical } from "../../embedders/native.ts";
import { openLanceStore } from "../lancedb.ts";
import type { VectorRecord } from "../types.ts";

const rows = (
  prefix: string,
  count: number,
  vector = (index: number) => embedLexical(`${prefix} ${index}`),
) =>
  Array.from({ length: count }, (_, index): VectorRecord => ({
    id: `${prefix}-${index}`,
    docId: prefix,
    vector: vector(index),
    text: `${prefix} chunk ${index}`,
    metadata: { title: `${prefix}.txt` },
  }));

/** The versions the table has been through (each commit makes one). */
async function versions(directory: string, namespace: string): Promise<number> {
  const lancedb = await import("@lancedb/lancedb");
  const connection = await lancedb.connect(directory);
  try {
    const table = await connection.openTable(namespace);
    const count = (await table.listVersions()).length;
    table.close();
    return count;
  } finally {
    connection.close();
  }
}

Deno.test("LanceDB store: adds queued while a write runs go in as one commit; an add that cannot be built fails alone", async () => {
  const directory = await Deno.makeTempDir({ prefix: "lectern-lance-" });
  const store = await openLanceStore(directory, { maintenanceDelayMs: 60_000 });
  try {
    await store.upsert("ws1", rows("first", 3));
    const before = await versions(directory, "ws1");
    // Twenty documents arrive together, one of them with vectors of the wrong length.
    const results = await Promise.allSettled([
      ...Array.from({ length: 20 }, (_, index) => store.upsert("ws1", rows(`doc${index}`, 4))),
      store.upsert("ws1", [...rows("bad", 1), ...rows("bad-short", 1, () => [1, 0, 0])]),
    ]);
    assert.deepEqual(results.slice(0, 20).map((result) => result.status), Array(20).fill("fulfilled"));
    assert.equal(results[20].status, "rejected");
    assert.match(String((results[20] as PromiseRejectedResult).reason), /differ in length/);
    assert.equal(await store.count("ws1"), 3 + 20 * 4);
    const commits = (await versions(directory, "ws1")) - before;
    assert.ok(commits >= 1 && commits <= 2, `twenty adds made ${commits} commits`);
    const hits = await store.search("ws1", embedLexical("doc7 2"), { topK: 1 });
    assert.equal(hits[0].id, "doc7-2");
  } finally {
    await store.close();
    await Deno.remove(directory, { recursive: true });
  }
});
