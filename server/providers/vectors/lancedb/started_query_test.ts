import assert from "node:assert/strict";
import * as lancedb from "@lancedb/lancedb";
import { openLanceStore } from "../lancedb.ts";
import type { VectorRecord } from "../types.ts";
import { startQuery } from "./started_query.ts";

const words = ["river", "heron", "lantern", "granite", "orchard"];

function records(count: number): VectorRecord[] {
  return Array.from({ length: count }, (_, index) => ({
    id: `r${index}`,
    docId: `d${index % 7}`,
    vector: Array.from({ length: 8 }, (_, d) => ((index * 3 + d) % 11) / 11),
    text: `chunk ${index} ${words[index % words.length]} ${words[(index * 3) % words.length]}`,
    metadata: { index },
  }));
}

Deno.test("LanceDB: a started query gives the rows toArray gives (full-text, many batches), and a failure only in its rows", async () => {
  const directory = await Deno.makeTempDir({ prefix: "lectern-started-query-" });
  const store = await openLanceStore(directory, { maintenanceDelayMs: 0 });
  try {
    await store.upsert("ws", records(3000));
    await store.idle();
    assert.equal((await store.indexState("ws"))?.fullText, true, "the table has its full-text index");
    const table = await (await lancedb.connect(directory)).openTable("ws");
    const fullText = () =>
      table.query().fullTextSearch("heron granite", { columns: ["text"] }).select(["id", "text", "_score"])
        .limit(40);
    // The path under test, not the fallback: a LanceDB without it would lose the overlap unnoticed.
    assert.equal(typeof (fullText() as unknown as { nativeExecute?: unknown }).nativeExecute, "function");
    const started = startQuery(fullText());
    await started.reading;
    const rows = await started.rows;
    const expected = await fullText().toArray();
    assert.equal(rows.length, 40);
    assert.deepEqual(
      rows.map((row) => [row.id, row._score]),
      expected.map((row) => [row.id, row._score]),
    );
    assert.ok(rows.every((row) => /heron|granite/.test(String(row.text))));

    // More rows than one batch holds: every batch is read, in order.
    const all = startQuery(table.query().select(["id"]).limit(3000));
    const ids = (await all.rows).map((row) => String(row.id));
    assert.equal(ids.length, 3000);
    assert.equal(new Set(ids).size, 3000);

    // A query LanceDB refuses: `reading` still resolves, `rows` rejects.
    const failing = startQuery(
      table.query().fullTextSearch("heron", { columns: ["no_such_column"] }).limit(5),
    );
    await failing.reading;
    await assert.rejects(failing.rows);
  } finally {
    await store.close();
    await Deno.remove(directory, { recursive: true });
  }
});
