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

/** A query whose native stream gives `batches` batches of `rows` rows, then the end; its calls are counted. */
async function countedQuery(batches: number, rows: number) {
  const { tableFromArrays, tableToIPC } = await import("apache-arrow");
  const buffers = Array.from(
    { length: batches },
    (_, batch) =>
      tableToIPC(tableFromArrays({ id: Int32Array.from({ length: rows }, (_, row) => batch * rows + row) })),
  );
  const calls = { next: 0 };
  const query = {
    nativeExecute: () =>
      Promise.resolve({
        next: () => Promise.resolve(buffers[calls.next++] ?? null),
      }),
  };
  return { query: query as unknown as lancedb.Query, calls };
}

Deno.test("startQuery(): with atMost, the rows are read until that many came, without asking for the end", async () => {
  const one = await countedQuery(1, 40);
  assert.deepEqual((await startQuery(one.query, 40).rows).map((row) => row.id), [...Array(40).keys()]);
  assert.equal(one.calls.next, 1, "the batch only: no call for the end");

  const two = await countedQuery(2, 20);
  assert.equal((await startQuery(two.query, 40).rows).length, 40);
  assert.equal(two.calls.next, 2);

  // Fewer rows than asked (a row deleted meanwhile): read to the end, as without atMost.
  const short = await countedQuery(2, 15);
  assert.equal((await startQuery(short.query, 40).rows).length, 30);
  assert.equal(short.calls.next, 3);
  const whole = await countedQuery(1, 40);
  assert.equal((await startQuery(whole.query).rows).length, 40);
  assert.equal(whole.calls.next, 2, "without atMost the end is asked for");
});

Deno.test("LanceDB: a take and a full-text search read until their rows came give the rows toArray gives", async () => {
  const directory = await Deno.makeTempDir({ prefix: "lectern-started-query-" });
  const store = await openLanceStore(directory, { maintenanceDelayMs: 0 });
  try {
    await store.upsert("ws", records(500));
    await store.idle();
    const table = await (await lancedb.connect(directory)).openTable("ws");
    const ids = (await table.query().select(["id"]).withRowId().limit(60).toArray())
      .map((row) => BigInt(row._rowid)).filter((_, index) => index % 3 === 0);
    const take = () => table.takeRowIds(ids).select(["id", "text"]).withRowId();
    assert.deepEqual(
      (await startQuery(take(), ids.length).rows).map((row) => [row._rowid, row.id, row.text]),
      (await take().toArray()).map((row) => [row._rowid, row.id, row.text]),
    );
    const fullText = () =>
      table.query().fullTextSearch("heron", { columns: ["text"] }).select(["id", "_score"]).limit(25);
    const rows = await startQuery(fullText(), 25).rows;
    assert.equal(rows.length, 25);
    assert.deepEqual(
      new Set(rows.map((row) => `${row.id} ${row._score}`)),
      new Set((await fullText().toArray()).map((row) => `${row.id} ${row._score}`)),
    );
  } finally {
    await store.close();
    await Deno.remove(directory, { recursive: true });
  }
});

Deno.test("LanceDB store: a hybrid search never asks LanceDB for the end of its full-text rows or its take", async () => {
  const directory = await Deno.makeTempDir({ prefix: "lectern-started-query-" });
  const store = await openLanceStore(directory, { maintenanceDelayMs: 0 });
  const base = lancedb.QueryBase.prototype as unknown as { nativeExecute: (...args: unknown[]) => unknown };
  const nativeExecute = base.nativeExecute;
  try {
    await store.upsert("ws", records(500));
    await store.idle();
    const query = records(1)[0].vector;
    await store.search("ws", query, { topK: 4, text: "heron granite" });
    assert.equal(store.heldInMemory("ws"), "float32", "the vectors in memory: a scan, then a take");
    const answers = { batches: 0, ends: 0 };
    base.nativeExecute = function (...args: unknown[]) {
      return Promise.resolve(nativeExecute.apply(this, args)).then((native) => {
        const stream = native as { next: () => Promise<unknown> };
        return {
          next: () =>
            stream.next().then((buffer) => {
              if (buffer) answers.batches++;
              else answers.ends++;
              return buffer;
            }),
        };
      });
    };
    const hits = await store.search("ws", query, { topK: 4, text: "heron granite" });
    assert.equal(hits.length, 4);
    assert.ok(answers.batches >= 2, `${answers.batches} batches: the full-text rows and the take`);
    assert.equal(answers.ends, 0);
  } finally {
    base.nativeExecute = nativeExecute;
    await store.close();
    await Deno.remove(directory, { recursive: true });
  }
});

Deno.test("LanceDB store: a hybrid search asks the handle's version while LanceDB plans its full-text side", async () => {
  const directory = await Deno.makeTempDir({ prefix: "lectern-started-query-" });
  const store = await openLanceStore(directory, { maintenanceDelayMs: 0 });
  const base = lancedb.QueryBase.prototype as unknown as { nativeExecute: (...args: unknown[]) => unknown };
  const nativeExecute = base.nativeExecute;
  let local: { version: () => Promise<number> } | null = null;
  let version: (() => Promise<number>) | null = null;
  try {
    await store.upsert("ws", records(500));
    await store.idle();
    const query = records(1)[0].vector;
    await store.search("ws", query, { topK: 4, text: "heron granite" });
    assert.equal(store.heldInMemory("ws"), "float32");
    // The store's handles are of the class a handle opened here is of.
    local = Object.getPrototypeOf(await (await lancedb.connect(directory)).openTable("ws"));
    version = local!.version;
    const events: string[] = [];
    const original = version;
    local!.version = function () {
      events.push("version");
      return original.call(this);
    };
    base.nativeExecute = function (...args: unknown[]) {
      events.push("execute");
      return Promise.resolve(nativeExecute.apply(this, args)).then((native) => {
        events.push("planned");
        return native;
      });
    };
    await store.search("ws", query, { topK: 4, text: "heron granite" });
    const first = events.indexOf("planned");
    assert.deepEqual(events.slice(0, first + 1).filter((event) => event !== "version").slice(0, 2), [
      "execute",
      "planned",
    ]);
    assert.ok(events.slice(0, first).includes("version"), events.join(", "));
  } finally {
    base.nativeExecute = nativeExecute;
    if (local && version) local.version = version;
    await store.close();
    await Deno.remove(directory, { recursive: true });
  }
});
