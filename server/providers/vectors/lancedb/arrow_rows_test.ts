import assert from "node:assert/strict";
import { openLanceStore } from "../lancedb.ts";
import { arrowRows } from "./arrow_rows.ts";

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
