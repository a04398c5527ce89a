import assert from "node:assert/strict";
import type { Table } from "@lancedb/lancedb";
import { randomRecords } from "./test_records.ts";
import { arrowRows } from "./arrow_rows.ts";
import { ExactCache } from "./exact_cache.ts";
import { LanceTables } from "./tables.ts";

const DIMENSIONS = 16;

const records = (count: number, prefix: string, seed: number) =>
  randomRecords(count, prefix, seed, DIMENSIONS);

/** LanceTables over a fresh folder, with a table "ws" of three adds (three fragments), and how often each
 * handle's version() was called. */
async function withTable(test: (tables: LanceTables, table: Table, calls: () => number) => Promise<void>) {
  const directory = await Deno.makeTempDir({ prefix: "lectern-tables-" });
  const tables = new LanceTables(directory, {
    reconnectAfterCommits: 1_000,
    events: { track: () => {}, unindexed: () => {} },
  });
  try {
    const state = await tables.serial(
      "ws",
      async () => tables.create("ws", await arrowRows(records(20, "a", 1))),
    );
    const table = state.table;
    for (const [prefix, seed] of [["b", 2], ["c", 3]] as const) {
      const rows = await arrowRows(records(20, prefix, seed));
      await tables.serial("ws", () => tables.changing(table, () => table.add(rows)));
    }
    let count = 0;
    const version = table.version.bind(table);
    table.version = () => {
      count++;
      return version();
    };
    await test(tables, table, () => count);
  } finally {
    await tables.close();
    await Deno.remove(directory, { recursive: true });
  }
}

Deno.test("LanceDB tables: a handle's version is asked of LanceDB once until a change through `changing`", async () => {
  await withTable(async (tables, table, calls) => {
    const first = await tables.versionOf(table);
    assert.equal(await tables.versionOf(table), first);
    assert.equal(await tables.versionOf(table), first);
    assert.equal(calls(), 1, "asked once");

    const rows = await arrowRows(records(5, "d", 4));
    await tables.changing(table, () => table.add(rows));
    const after = await tables.versionOf(table);
    assert.ok(after > first, `the add made a new version (${first} → ${after})`);
    assert.equal(after, await table.version());

    // A change that fails is asked again too (it may have moved the handle before failing).
    const failing = tables.changing(table, () => Promise.reject(new Error("no")));
    await assert.rejects(failing, /no/);
    const before = calls();
    await tables.versionOf(table);
    assert.equal(calls(), before + 1);
  });
});

Deno.test("LanceDB tables: a handle's row count is asked of LanceDB once until a change through `changing`", async () => {
  await withTable(async (tables, table) => {
    let counted = 0;
    const countRows = table.countRows.bind(table);
    table.countRows = (filter?: string) => {
      counted++;
      return countRows(filter);
    };
    assert.equal(await tables.rowsOf(table), 60);
    assert.equal(await tables.rowsOf(table), 60);
    assert.equal(counted, 1, "asked once");
    const rows = await arrowRows(records(5, "d", 4));
    await tables.changing(table, () => table.add(rows));
    assert.equal(await tables.rowsOf(table), 65);
    await tables.changing(table, () => table.delete("doc_id = 'a-doc'"));
    assert.equal(await tables.rowsOf(table), 45);
    assert.equal(counted, 3);
  });
});

Deno.test("LanceDB tables: after a compaction taken in by refresh, the vectors in memory are read again at the new version", async () => {
  await withTable(async (tables, table) => {
    const cache = new ExactCache(1 << 20, { versionOf: (handle) => tables.versionOf(handle) });
    const before = await cache.rows("ws", table);
    assert.ok(before);
    assert.equal(cache.loadCount(), 1);
    assert.equal(await cache.rows("ws", table), before, "unchanged: the same rows");

    // Another process (the maintenance worker) compacts the three fragments into one: new row ids.
    const lancedb = await tables.lanceModule();
    const other = await (await lancedb.connect(tables.directory)).openTable("ws");
    await other.optimize();
    other.close();
    assert.equal(await cache.rows("ws", table), before, "the handle stays on its version until it moves");

    await tables.refresh("ws", tables.current("ws")!);
    const after = await cache.rows("ws", table);
    assert.ok(after && after !== before, "read again");
    assert.equal(cache.loadCount(), 2);
    assert.equal(after.version, await table.version());
    assert.notDeepEqual([...after.rowIds], [...before.rowIds], "the compaction gave the rows new ids");
  });
});
