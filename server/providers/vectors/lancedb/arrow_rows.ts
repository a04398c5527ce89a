// The rows of a LanceDB write as one Arrow table built by hand: the vectors copied once into a Float32Array, the
// strings UTF-8 encoded into one buffer. LanceDB's own conversion of plain objects infers each value's type and
// took most of a write's time (about 0.6 s for 1,000 chunks against 0.05 s for this).
import type { Table as ArrowTable } from "apache-arrow";
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

function utf8Column(arrow: Arrow, values: string[]) {
  const encoder = new TextEncoder();
  const offsets = new Int32Array(values.length + 1);
  let bytes = new Uint8Array(Math.max(16, values.reduce((sum, value) => sum + value.length, 0) * 3));
  let end = 0;
  values.forEach((value, index) => {
    end += encoder.encodeInto(value, bytes.subarray(end)).written;
    offsets[index + 1] = end;
  });
  bytes = bytes.slice(0, end);
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
  return new arrow.Table({
    id: utf8Column(arrow, records.map((record) => record.id)),
    doc_id: utf8Column(arrow, records.map((record) => record.docId)),
    text: utf8Column(arrow, records.map((record) => record.text)),
    metadata: utf8Column(arrow, records.map((record) => metadataJson(record.metadata))),
    vector,
  });
}
