import assert from "node:assert/strict";
import { openLanceStore } from "../lancedb.ts";
import { addRows, addsNatively, arrowRows, releaseRows } from "./arrow_rows.ts";

const vector = (seed: number, dimensions = 4) =>
  Array.from({ length: dimensions }, (_, index) => seed + index);

Deno.test("a write's rows become one Arrow table with the columns LanceDB infers, vectors as float32", async () => {
  const table = await arrowRows([
    { id: "a", docId: "d1", text: "héllo 😀", metadata: { title: "One", page: 2 }, vector: vector(1) },
    { id: "b", docId: "d2", text: "", metadata: {}, vector: vector(5) },
  ]);
  assert.equal(table.numRows, 2);
  assert.equal(
    String(table.schema),
    "Schema<{ 0: id: Utf8, 1: doc_id: Utf8, 2: text: Utf8, 3: metadata: Utf8, 4: vector: FixedSizeList[4]<Float32> }>",
  );
  assert.deepEqual(table.getChild("text")!.toArray(), ["héllo 😀", ""]);
  assert.deepEqual(table.getChild("metadata")!.toArray(), ['{"title":"One","page":2}', "{}"]);
  assert.deepEqual(Array.from(table.getChild("vector")!.get(1)!.toArray()), [5, 6, 7, 8]);
});

Deno.test("a LanceDB write is all or nothing: a batch with a bad vector stores none of its rows", async () => {
  const directory = await Deno.makeTempDir({ prefix: "lectern-arrow-" });
  const store = await openLanceStore(directory, { maintenanceDelayMs: 10 });
  try {
    await store.upsert("ws1_x", [{ id: "a", docId: "d1", text: "first", metadata: {}, vector: vector(1) }]);
    await assert.rejects(
      store.upsert("ws1_x", [
        { id: "b", docId: "d2", text: "second", metadata: {}, vector: vector(2) },
        { id: "c", docId: "d3", text: "third", metadata: {}, vector: vector(3, 3) },
      ]),
      /The vectors of one write differ in length \(3 and 4\)\./,
    );
    await store.upsert("ws1_x", [
      { id: "d", docId: "d4", text: "fourth", metadata: { page: 1 }, vector: vector(4) },
      { id: "e", docId: "d4", text: "fifth", metadata: {}, vector: vector(5) },
    ]);
    assert.equal(await store.count("ws1_x"), 3);
    const hits = await store.search("ws1_x", vector(4), { topK: 3 });
    assert.deepEqual(hits.map((hit) => hit.id).sort(), ["a", "d", "e"]);
    assert.deepEqual(hits.find((hit) => hit.id === "d")?.metadata, { page: 1 });
  } finally {
    await store.idle();
    await store.close();
    await Deno.remove(directory, { recursive: true });
  }
});

const records = (count: number, dimensions = 4) =>
  Array.from({ length: count }, (_, index) => ({
    id: `r${index}`,
    docId: `d${index % 3}`,
    text: `row ${index} ünïcode`,
    metadata: { title: `t${index % 2}` },
    vector: Float32Array.from(vector(index, dimensions)) as unknown as number[],
  }));

/** The ArrayBuffers under a table's columns. */
const buffersOf = (table: Awaited<ReturnType<typeof arrowRows>>) =>
  table.data.flatMap((batch) =>
    batch.children.flatMap((column) => [
      column.values?.buffer,
      column.valueOffsets?.buffer,
      ...column.children.map((child) => child.values?.buffer),
    ]).filter((buffer): buffer is ArrayBuffer => buffer instanceof ArrayBuffer)
  );

Deno.test("releaseRows frees the memory of the tables arrowRows made, never the callers' vectors", async () => {
  const input = records(3);
  const [first, second] = [await arrowRows(input), await arrowRows(records(2))];
  const buffers = [...buffersOf(first), ...buffersOf(second)];
  assert.ok(buffers.length >= 9 && buffers.every((buffer) => buffer.byteLength > 0));
  releaseRows([first, second]);
  assert.deepEqual(buffers.map((buffer) => buffer.detached), buffers.map(() => true));
  assert.ok(
    input.every((record) => !((record.vector as unknown as Float32Array).buffer as ArrayBuffer).detached),
  );
  releaseRows([first]); // twice is harmless
});

Deno.test("addRows writes through LanceDB's native add: the rows read back as written, the tables are freed", async () => {
  const directory = await Deno.makeTempDir({ prefix: "lectern-arrow-" });
  const lancedb = await import("@lancedb/lancedb");
  const connection = await lancedb.connect(directory);
  try {
    const table = await connection.createTable("t", await arrowRows(records(1)));
    assert.equal(addsNatively(table), true, "LanceDB's handle no longer has the native add addRows uses");
    const parts = [await arrowRows(records(5).slice(1)), await arrowRows(records(8).slice(5))];
    await addRows(table, parts[0].concat(parts[1]), parts);
    assert.ok(parts.flatMap(buffersOf).every((buffer) => buffer.detached));
    const rows = (await table.query().toArray()).sort((a, b) => String(a.id).localeCompare(String(b.id)));
    assert.deepEqual(rows.map((row) => row.id), ["r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7"]);
    assert.equal(rows[6].text, "row 6 ünïcode");
    assert.equal(rows[6].doc_id, "d0");
    assert.equal(rows[6].metadata, '{"title":"t0"}');
    assert.deepEqual(Array.from(rows[6].vector.toArray()), [6, 7, 8, 9]);
    // A write LanceDB refuses (vectors of another length) fails, and its rows are freed all the same.
    const wrong = await arrowRows(records(2, 3));
    await assert.rejects(addRows(table, wrong));
    assert.ok(buffersOf(wrong).every((buffer) => buffer.detached));
    assert.equal(await table.countRows(), 8);
    table.close();
  } finally {
    connection.close();
    await Deno.remove(directory, { recursive: true });
  }
});

Deno.test("addRows falls back on table.add where the handle has no native add, and frees the rows too", async () => {
  const added: number[] = [];
  const handle = { add: (rows: { numRows: number }) => Promise.resolve(void added.push(rows.numRows)) };
  const rows = await arrowRows(records(4));
  const table = handle as unknown as Parameters<typeof addRows>[0];
  assert.equal(addsNatively(table), false);
  await addRows(table, rows);
  assert.deepEqual(added, [4]);
  assert.ok(buffersOf(rows).every((buffer) => buffer.detached));
});
