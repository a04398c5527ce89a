import assert from "node:assert/strict";
import { embedLexical } from "../../embedders/native.ts";
import { openLanceStore } from "../lancedb.ts";
import { lanceAddStats } from "./store.ts";
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
    const counted = { ...lanceAddStats };
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
    // The counts the ingest benchmark prints: the twenty adds written, in the commits made.
    assert.equal(lanceAddStats.adds - counted.adds, 20);
    assert.equal(lanceAddStats.commits - counted.commits, commits);
    const hits = await store.search("ws1", embedLexical("doc7 2"), { topK: 1 });
    assert.equal(hits[0].id, "doc7-2");
  } finally {
    await store.close();
    await Deno.remove(directory, { recursive: true });
  }
});

Deno.test("LanceDB store: a commit that fails rejects every add in it, and those adds can be made again", async () => {
  const directory = await Deno.makeTempDir({ prefix: "lectern-lance-" });
  const store = await openLanceStore(directory, { maintenanceDelayMs: 60_000 });
  try {
    await store.upsert("ws1", rows("first", 3));
    const before = { ...lanceAddStats };
    // Two adds that build (their vectors agree with each other) but do not fit the table's vector column.
    const short = (prefix: string) => rows(prefix, 2, (index) => [1, index, 0]);
    const results = await Promise.allSettled([
      store.upsert("ws1", short("a")),
      store.upsert("ws1", short("b")),
    ]);
    assert.deepEqual(results.map((result) => result.status), ["rejected", "rejected"]);
    assert.equal(lanceAddStats.commits - before.commits, 0);
    assert.equal(await store.count("ws1"), 3);
    // The same documents again, with vectors of the table's length: their rows are built anew and written.
    await Promise.all([store.upsert("ws1", rows("a", 2)), store.upsert("ws1", rows("b", 2))]);
    assert.equal(await store.count("ws1"), 3 + 2 + 2);
  } finally {
    await store.close();
    await Deno.remove(directory, { recursive: true });
  }
});
