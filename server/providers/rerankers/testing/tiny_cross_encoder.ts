import { join } from "node:path";
import { writeTinyModel } from "../../embedders/testing/tiny_model.ts";

/**
 * A sequence-classification model small enough to write by hand, in the layout transformers.js reads: the
 * tiny embedder's tokenizer, and an ONNX graph `logits = ReduceSum(Gather(weights, input_ids), axis 1)` — each
 * token adds its weight, so a pair holding a heavy word scores high. Tests use it to run the local reranker's
 * real loading and inference path offline.
 */

function varint(value: number): number[] {
  const bytes: number[] = [];
  let rest = value;
  do {
    let byte = rest & 0x7f;
    rest = Math.floor(rest / 128);
    if (rest > 0) byte |= 0x80;
    bytes.push(byte);
  } while (rest > 0);
  return bytes;
}
const key = (field: number, wireType: number) => varint((field << 3) | wireType);
const intField = (field: number, value: number) => [...key(field, 0), ...varint(value)];
const bytesField = (field: number, bytes: Uint8Array | number[]) => [
  ...key(field, 2),
  ...varint(bytes.length),
  ...bytes,
];
const stringField = (field: number, text: string) => bytesField(field, new TextEncoder().encode(text));
const FLOAT = 1;
const INT64 = 7;

function tensorInfo(name: string, elementType: number, dims: (string | number)[]): number[] {
  const shape = dims.map((dim) =>
    bytesField(1, typeof dim === "number" ? intField(1, dim) : stringField(2, dim))
  );
  const tensorType = bytesField(1, [...intField(1, elementType), ...bytesField(2, shape.flat())]);
  return [...stringField(1, name), ...bytesField(2, tensorType)];
}

function crossEncoderOnnx(weights: Float32Array): Uint8Array {
  const table = [
    ...intField(1, weights.length),
    ...intField(1, 1),
    ...intField(2, FLOAT),
    ...stringField(8, "token_weights"),
    ...bytesField(9, new Uint8Array(weights.buffer, weights.byteOffset, weights.byteLength)),
  ];
  const axes = [
    ...intField(1, 1),
    ...intField(2, INT64),
    ...stringField(8, "axes"),
    ...bytesField(9, new Uint8Array(new BigInt64Array([1n]).buffer)),
  ];
  const gather = [
    ...stringField(1, "token_weights"),
    ...stringField(1, "input_ids"),
    ...stringField(2, "token_scores"),
    ...stringField(3, "gather"),
    ...stringField(4, "Gather"),
  ];
  // keepdims = 0: [batch, sequence, 1] → [batch, 1].
  const keepdims = [...stringField(1, "keepdims"), ...intField(3, 0), ...intField(20, 2)];
  const reduce = [
    ...stringField(1, "token_scores"),
    ...stringField(1, "axes"),
    ...stringField(2, "logits"),
    ...stringField(3, "sum"),
    ...stringField(4, "ReduceSum"),
    ...bytesField(5, keepdims),
  ];
  const graph = [
    ...bytesField(1, gather),
    ...bytesField(1, reduce),
    ...stringField(2, "tiny-cross-encoder"),
    ...bytesField(5, table),
    ...bytesField(5, axes),
    ...bytesField(11, tensorInfo("input_ids", INT64, ["batch_size", "sequence_length"])),
    ...bytesField(12, tensorInfo("logits", FLOAT, ["batch_size", 1])),
  ];
  return new Uint8Array([
    ...intField(1, 8),
    ...stringField(2, "lectern-tests"),
    ...bytesField(7, graph),
    ...bytesField(8, [...stringField(1, ""), ...intField(2, 13)]),
  ]);
}

/** Writes the model under `root/<modelId>/`; `weights` gives words their score (others score 0). */
export async function writeTinyCrossEncoder(
  root: string,
  modelId: string,
  weights: Record<string, number>,
): Promise<void> {
  const model = await writeTinyModel(root, modelId);
  const special = 5; // [PAD] [UNK] [CLS] [SEP] [MASK]
  const table = new Float32Array(special + model.words.length);
  model.words.forEach((word, index) => table[special + index] = weights[word] ?? 0);
  await Deno.writeTextFile(
    join(model.directory, "config.json"),
    JSON.stringify({
      model_type: "bert",
      architectures: ["BertForSequenceClassification"],
      num_labels: 1,
      id2label: { 0: "LABEL_0" },
      label2id: { LABEL_0: 0 },
      hidden_size: 16,
      vocab_size: table.length,
    }),
  );
  await Deno.writeFile(join(model.directory, "onnx", "model_quantized.onnx"), crossEncoderOnnx(table));
}
