// The rows of a LanceDB write as one Arrow table built by hand: the vectors copied once into a Float32Array, the
// strings UTF-8 encoded into one buffer. LanceDB's own conversion of plain objects infers each value's type and
// took most of a write's time (about 0.6 s for 1,000 chunks against 0.05 s for this).
//
// The buffers of a write are freed as soon as it is through (`releaseRows`, `addRows`), not left for the garbage
// collector: V8 collects ArrayBuffers only in a full collection, which it starts once about 64 MiB more of them
// are held than after the last one, and during the corpus ingest a write's buffers and LanceDB's copies of them
// (its IPC serialisation, then a Buffer copy of that) were 100-120 MiB of the server's peak (issue 21).
import type { Table } from "@lancedb/lancedb";
import type { Table as ArrowTable } from "apache-arrow";
import { Buffer } from "node:buffer";
import { createRequire } from "node:module";
import type { VectorRecord } from "../types.ts";

type Arrow = typeof import("apache-arrow");

let arrowModule: Arrow | null = null;
/**
 * apache-arrow as LanceDB loads it (its CommonJS build, through require): LanceDB drops the rows of a table made
 * with the ES module's classes without a word. It loads with the first write, as LanceDB does.
 */
const loadArrow = () =>
  Promise.resolve(arrowModule ??= createRequire(import.meta.url)("apache-arrow") as Arrow);

/** Frees an ArrayBuffer's memory now (it is detached: every view of it reads as empty from here on). */
function free(buffer: ArrayBufferLike): void {
  if (buffer instanceof ArrayBuffer && !buffer.detached && buffer.byteLength > 0) buffer.transfer(0);
}

function utf8Column(arrow: Arrow, values: string[], owned: ArrayBufferLike[]) {
  const encoder = new TextEncoder();
  const offsets = new Int32Array(values.length + 1);
  // Room for the worst case (3 bytes a UTF-16 unit), then the bytes written copied out at their size and the room
  // freed: only the pages written to are ever resident.
  const room = new Uint8Array(Math.max(16, values.reduce((sum, value) => sum + value.length, 0) * 3));
  let end = 0;
  values.forEach((value, index) => {
    end += encoder.encodeInto(value, room.subarray(end)).written;
    offsets[index + 1] = end;
  });
  const bytes = room.slice(0, end);
  free(room.buffer);
  owned.push(offsets.buffer, bytes.buffer);
  return arrow.makeVector(
    arrow.makeData({
      type: new arrow.Utf8(),
      length: values.length,
      nullCount: 0,
      valueOffsets: offsets,
      data: bytes,
    }),
  );
}

/**
 * The table of `records` with the columns of a Lectern table: id, doc_id, text, metadata (JSON) as UTF-8 and
 * vector as a fixed-size list of float32, as LanceDB infers them from plain rows.
 */
export async function arrowRows(records: VectorRecord[]): Promise<ArrowTable> {
  const arrow = await loadArrow();
  // A document's chunks share one metadata object (those with a page have their own): one JSON each.
  const texts = new Map<object, string>();
  const metadataJson = (metadata: Record<string, unknown>) => {
    let text = texts.get(metadata);
    if (text === undefined) texts.set(metadata, text = JSON.stringify(metadata));
    return text;
  };
  const dimensions = records[0].vector.length;
  const flat = new Float32Array(records.length * dimensions);
  records.forEach((record, index) => {
    if (record.vector.length !== dimensions) {
      throw new Error(
        `The vectors of one write differ in length (${record.vector.length} and ${dimensions}).`,
      );
    }
    flat.set(record.vector, index * dimensions);
  });
  const listType = new arrow.FixedSizeList(dimensions, new arrow.Field("item", new arrow.Float32(), true));
  const values = arrow.makeData({ type: new arrow.Float32(), length: flat.length, data: flat });
  const vector = arrow.makeVector(
    arrow.makeData({ type: listType, length: records.length, nullCount: 0, child: values }),
  );
  const owned: ArrayBufferLike[] = [flat.buffer];
  const table = new arrow.Table({
    id: utf8Column(arrow, records.map((record) => record.id), owned),
    doc_id: utf8Column(arrow, records.map((record) => record.docId), owned),
    text: utf8Column(arrow, records.map((record) => record.text), owned),
    metadata: utf8Column(arrow, records.map((record) => metadataJson(record.metadata)), owned),
    vector,
  });
  ownedBuffers.set(table, owned);
  return table;
}

/** The buffers `arrowRows` made for each table (only those: a table's columns may be views of others' memory). */
const ownedBuffers = new WeakMap<ArrowTable, ArrayBufferLike[]>();

/** Frees the memory of tables `arrowRows` made, but `keep`; the tables must not be read afterwards. */
export function releaseRows(tables: ArrowTable[], keep?: ArrayBufferLike): void {
  for (const table of tables) {
    for (const buffer of ownedBuffers.get(table) ?? []) if (buffer !== keep) free(buffer);
    ownedBuffers.delete(table);
  }
}

/** The native side of a LanceDB table handle (not part of its typed API; see `addRows`). */
type NativeAdd = (buffer: Buffer, mode: string) => Promise<unknown>;

const nativeOf = (table: Table) => (table as unknown as { inner?: { add?: NativeAdd } }).inner;

/** Whether `addRows` hands the table its rows' IPC bytes natively (else it writes through `table.add`). */
export function addsNatively(table: Table): boolean {
  return typeof nativeOf(table)?.add === "function";
}

/**
 * Appends `rows` (made of the tables `parts` from `arrowRows`) to the table in one commit, as `table.add(rows)`
 * does, with each copy of the rows freed as soon as the next is made. `table.add` serialises the rows to Arrow
 * IPC, copies that into a Buffer and hands it to LanceDB's native code, which copies it again; the first two were
 * left for the garbage collector. Here the rows are serialised once, `parts` are freed, the IPC bytes are handed
 * over as they are and freed once the commit is through. When the handle has no native `add` (another LanceDB
 * version), `table.add` does the write. `parts` are freed in any case.
 */
export async function addRows(table: Table, rows: ArrowTable, parts: ArrowTable[] = [rows]): Promise<void> {
  const native = nativeOf(table);
  if (!native || typeof native.add !== "function") {
    try {
      await table.add(rows);
    } finally {
      releaseRows(parts);
    }
    return;
  }
  const arrow = await loadArrow();
  let ipc: Uint8Array | undefined;
  try {
    ipc = arrow.RecordBatchFileWriter.writeAll(rows).toUint8Array(true);
  } finally {
    // Apache Arrow may give a view of one of them when it is all the bytes (it is not for a whole IPC file).
    releaseRows(parts, ipc?.buffer);
  }
  try {
    await native.add(Buffer.from(ipc.buffer, ipc.byteOffset, ipc.byteLength), "append");
  } finally {
    free(ipc.buffer);
  }
}
