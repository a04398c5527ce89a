import assert from "node:assert/strict";
import * as lancedb from "@lancedb/lancedb";
import { openLanceStore } from "../lancedb.ts";
import type { VectorRecord } from "../types.ts";
import { plainRows, type Row } from "./plain_rows.ts";
import { startQuery } from "./started_query.ts";

const words = ["river", "heron", "lantern", "granite", "orchard", "café"];

function records(count: number): VectorRecord[] {
  return Array.from({ length: count }, (_, index) => ({
    id: `r${index}`,
    docId: `d${index % 7}`,
    vector: Array.from({ length: 8 }, (_, d) => ((index * 3 + d) % 11) / 11 - 0.4),
    text: `chunk ${index} ${words[index % words.length]} ${words[(index * 3) % words.length]} ✓`,
    metadata: { index, title: `t${index % 3}.txt` },
  }));
}

/** A row of Arrow's own (a proxy), its vector as a plain array: what the store read before. */
function arrowRow(row: Row): Row {
  const plain: Row = {};
  for (const [name, value] of Object.entries(row)) plain[name] = comparable(value);
  return plain;
}

function comparable(value: unknown): unknown {
  const vector = value as { toArray?: () => ArrayLike<number> } | null;
  return vector && typeof vector.toArray === "function" ? Array.from(vector.toArray()) : value;
}

Deno.test("LanceDB plain rows: the same columns and values as Arrow's own rows, for full-text, vector and take answers over many batches", async () => {
  const directory = await Deno.makeTempDir({ prefix: "lectern-plain-rows-" });
  const store = await openLanceStore(directory, { maintenanceDelayMs: 0 });
  try {
    // Several adds: several fragments, so the answers come in several batches.
    for (let part = 0; part < 3; part++) {
      await store.upsert("ws", records(1500).slice(part * 500, part * 500 + 500));
    }
    await store.idle();
    const table = await (await lancedb.connect(directory)).openTable("ws");
    const rowIds = (await table.query().select(["id"]).withRowId().limit(1500).toArray())
      .map((row) => row._rowid as bigint);
    const fullText = () =>
      table.query().fullTextSearch("heron granite", { columns: ["text"] })
        .select(["_rowid", "id", "doc_id", "text", "metadata", "_score"]).limit(40);
    const queries = [
      fullText,
      () =>
        table.query().fullTextSearch("café river", { columns: ["text"] })
          .select(["id", "doc_id", "text", "metadata", "vector", "_score"]).limit(40),
      () =>
        table.vectorSearch([0.1, -0.2, 0.3, 0, 0.5, -0.1, 0.2, 0.1]).distanceType("cosine")
          .select(["id", "doc_id", "text", "metadata", "_distance"]).limit(25),
      () => table.query().select(["id", "vector"]).withRowId().limit(1500),
      () =>
        table.takeRowIds([rowIds[3], rowIds[700], rowIds[12], rowIds[1400]]).select([
          "id",
          "doc_id",
          "text",
          "metadata",
          "vector",
        ]).withRowId(),
    ];
    // One answer read both ways (LanceDB orders rows of equal BM25 score differently from one run to the next).
    for (const query of queries) {
      const answer = await query().toArrow();
      const expected = answer.toArray().map(arrowRow);
      assert.ok(expected.length > 0);
      assert.deepEqual(plainRows([answer]).map(arrowRow), expected);
    }
    // Batch by batch, as a started query reads them: the same rows (in an order of its own among equal scores).
    const byId = (rows: Row[]) => rows.map(arrowRow).sort((a, b) => String(a.id).localeCompare(String(b.id)));
    const started = await startQuery(fullText()).rows;
    assert.equal(started.length, 40);
    const expected = byId(await fullText().limit(1500).toArray()).filter((row) =>
      started.some((other) => other.id === row.id)
    );
    assert.deepEqual(byId(started), expected);
    const all = table.query().select(["id"]).limit(1500);
    const batches = [];
    for await (const batch of all) batches.push(batch);
    assert.ok(batches.length > 1, `several batches (${batches.length})`);
    assert.deepEqual(
      plainRows(batches).map((row) => row.id),
      (await table.query().select(["id"]).limit(1500).toArray()).map((row) => row.id),
    );
    table.close();
  } finally {
    await store.close();
    await Deno.remove(directory, { recursive: true });
  }
});
