import assert from "node:assert/strict";
import { openLanceStore } from "../lancedb.ts";
import { randomRecords } from "./test_records.ts";

const DIMENSIONS = 32;

const records = (count: number, prefix: string, seed: number) =>
  randomRecords(count, prefix, seed, DIMENSIONS);

Deno.test("LanceDB: after maintenance moves a table to a new version its vectors are read into memory again without a search", async () => {
  const directory = await Deno.makeTempDir({ prefix: "lectern-warm-" });
  const store = await openLanceStore(directory, { maintenanceDelayMs: 10, quietBeforeLoadMs: 0 });
  try {
    // Several adds make several fragments, which the maintenance process compacts (new row ids).
    for (let batch = 0; batch < 3; batch++) await store.upsert("ws", records(40, `b${batch}`, batch + 1));
    const query = records(1, "q", 9)[0].vector;
    assert.equal((await store.search("ws", query, { topK: 3 })).length, 3);
    const before = store.exactCacheState().loads;
    assert.ok(before >= 1, "the search read the rows");
    await store.upsert("ws", records(5, "c", 7));
    assert.equal(store.heldInMemory("ws"), null, "a write lets the rows go");

    await store.idle(); // maintenance, then the read it starts
    assert.equal(store.heldInMemory("ws"), "float32", "the rows are in memory before any search");
    const warmed = store.exactCacheState().loads;
    assert.ok(warmed > before, `read again after maintenance (${before} → ${warmed})`);

    const hits = await store.search("ws", query, { topK: 3 });
    assert.equal(hits.length, 3);
    assert.equal(store.exactCacheState().loads, warmed, "the search after maintenance reads nothing");
    assert.equal(await store.count("ws"), 125);
  } finally {
    await store.close();
    await Deno.remove(directory, { recursive: true });
  }
});
