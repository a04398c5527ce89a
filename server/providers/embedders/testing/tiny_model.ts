import { join } from "node:path";

/**
 * A BERT-shaped feature-extraction model small enough to write by hand: a WordPiece tokenizer over a few
 * dozen words and an ONNX graph with one Gather node that looks each token up in an embedding table and
 * names the result `last_hidden_state`. Mean pooling over it gives a bag-of-words vector, so texts that share
 * words come out close. Tests use it to run the neural embedder's real loading and inference path offline.
 */

const SPECIAL = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"];

// Protocol buffer encoding, just the wire types ONNX needs: varints (0) and length-delimited fields (2).
function varint(value: number | bigint): number[] {
  let rest = BigInt(value);
  const bytes: number[] = [];
  do {
    let byte = Number(rest & 0x7fn);
    rest >>= 7n;
    if (rest > 0n) byte |= 0x80;
    bytes.push(byte);
  } while (rest > 0n);
  return bytes;
}

const key = (field: number, wireType: number) => varint((field << 3) | wireType);
const intField = (field: number, value: number) => [...key(field, 0), ...varint(value)];
function bytesField(field: number, bytes: Uint8Array | number[]): number[] {
  return [...key(field, 2), ...varint(bytes.length), ...bytes];
}
const stringField = (field: number, text: string) => bytesField(field, new TextEncoder().encode(text));
const messageField = (field: number, parts: number[][]) => bytesField(field, parts.flat());

const FLOAT = 1;
const INT64 = 7;

/** ValueInfoProto of a tensor whose dimensions are named (symbolic) or fixed. */
function tensorInfo(name: string, elementType: number, dims: (string | number)[]): number[] {
  const shape = dims.map((dim) =>
    messageField(1, [typeof dim === "number" ? intField(1, dim) : stringField(2, dim)])
  );
  const tensorType = messageField(1, [intField(1, elementType), messageField(2, shape)]);
  return [...stringField(1, name), ...messageField(2, [tensorType])];
}

/** The ONNX ModelProto bytes: last_hidden_state = Gather(embeddings, input_ids). */
export function tinyOnnxModel(table: Float32Array, vocabSize: number, dimensions: number): Uint8Array {
  const raw = new Uint8Array(table.buffer, table.byteOffset, table.byteLength);
  const initializer = [
    ...intField(1, vocabSize),
    ...intField(1, dimensions),
    ...intField(2, FLOAT),
    ...stringField(8, "embeddings.word_embeddings.weight"),
    ...bytesField(9, raw),
  ];
  const node = [
    ...stringField(1, "embeddings.word_embeddings.weight"),
    ...stringField(1, "input_ids"),
    ...stringField(2, "last_hidden_state"),
    ...stringField(3, "gather"),
    ...stringField(4, "Gather"),
  ];
  const graph = [
    ...bytesField(1, node),
    ...stringField(2, "tiny-bert"),
    ...bytesField(5, initializer),
    ...bytesField(11, tensorInfo("input_ids", INT64, ["batch_size", "sequence_length"])),
    ...bytesField(12, tensorInfo("last_hidden_state", FLOAT, ["batch_size", "sequence_length", dimensions])),
  ];
  const model = [
    ...intField(1, 8),
    ...stringField(2, "lectern-tests"),
    ...bytesField(7, graph),
    ...messageField(8, [stringField(1, ""), intField(2, 13)]),
  ];
  return new Uint8Array(model);
}

function tokenizerJson(vocabulary: Record<string, number>) {
  const added = SPECIAL.map((content, id) => ({
    id,
    content,
    single_word: false,
    lstrip: false,
    rstrip: false,
    normalized: false,
    special: true,
  }));
  const special = (name: string) => ({ SpecialToken: { id: name, type_id: 0 } });
  return {
    version: "1.0",
    truncation: null,
    padding: null,
    added_tokens: added,
    normalizer: {
      type: "BertNormalizer",
      clean_text: true,
      handle_chinese_chars: true,
      strip_accents: null,
      lowercase: true,
    },
    pre_tokenizer: { type: "BertPreTokenizer" },
    post_processor: {
      type: "TemplateProcessing",
      single: [special("[CLS]"), { Sequence: { id: "A", type_id: 0 } }, special("[SEP]")],
      pair: [
        special("[CLS]"),
        { Sequence: { id: "A", type_id: 0 } },
        special("[SEP]"),
        { Sequence: { id: "B", type_id: 1 } },
        { SpecialToken: { id: "[SEP]", type_id: 1 } },
      ],
      special_tokens: {
        "[CLS]": { id: "[CLS]", ids: [2], tokens: ["[CLS]"] },
        "[SEP]": { id: "[SEP]", ids: [3], tokens: ["[SEP]"] },
      },
    },
    decoder: { type: "WordPiece", prefix: "##", cleanup: true },
    model: {
      type: "WordPiece",
      unk_token: "[UNK]",
      continuing_subword_prefix: "##",
      max_input_chars_per_word: 100,
      vocab: vocabulary,
    },
  };
}

/** A deterministic pseudo-random number in [-1, 1) per (token, dimension). */
function noise(seed: number): number {
  let x = (seed ^ 0x9e3779b9) >>> 0;
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b) >>> 0;
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35) >>> 0;
  x = (x ^ (x >>> 16)) >>> 0;
  return x / 2 ** 31 - 1;
}

export interface TinyModel {
  /** The folder holding config.json, tokenizer files and onnx/<file>. */
  directory: string;
  words: string[];
  dimensions: number;
}

/**
 * Writes the tiny model under `root/<modelId>/` in the layout transformers.js reads: config.json,
 * tokenizer.json, tokenizer_config.json and `onnx/<onnxFile>`.
 */
export async function writeTinyModel(
  root: string,
  modelId: string,
  options: { words?: string[]; dimensions?: number; onnxFile?: string } = {},
): Promise<TinyModel> {
  const words = options.words ?? [
    "the",
    "capital",
    "of",
    "freedonia",
    "is",
    "fredville",
    "river",
    "cheese",
    "bread",
    "bake",
    "sourdough",
    "how",
    "what",
    "country",
    "small",
    "blue",
  ];
  const dimensions = options.dimensions ?? 16;
  const vocabulary: Record<string, number> = {};
  [...SPECIAL, ...words].forEach((word, index) => vocabulary[word] = index);
  const vocabSize = SPECIAL.length + words.length;
  const table = new Float32Array(vocabSize * dimensions);
  for (let token = 0; token < vocabSize; token++) {
    for (let dim = 0; dim < dimensions; dim++) {
      // Special tokens sit near the origin so they barely move the mean.
      const scale = token < SPECIAL.length ? 0.01 : 1;
      table[token * dimensions + dim] = scale * noise(token * 7919 + dim);
    }
  }
  const directory = join(root, ...modelId.split("/"));
  await Deno.mkdir(join(directory, "onnx"), { recursive: true });
  await Deno.writeTextFile(
    join(directory, "config.json"),
    JSON.stringify({
      model_type: "bert",
      architectures: ["BertModel"],
      hidden_size: dimensions,
      vocab_size: vocabSize,
      max_position_embeddings: 512,
      num_attention_heads: 1,
      num_hidden_layers: 1,
    }),
  );
  await Deno.writeTextFile(join(directory, "tokenizer.json"), JSON.stringify(tokenizerJson(vocabulary)));
  await Deno.writeTextFile(
    join(directory, "tokenizer_config.json"),
    JSON.stringify({
      tokenizer_class: "BertTokenizer",
      do_lower_case: true,
      model_max_length: 512,
      cls_token: "[CLS]",
      sep_token: "[SEP]",
      pad_token: "[PAD]",
      unk_token: "[UNK]",
      mask_token: "[MASK]",
    }),
  );
  await Deno.writeFile(
    join(directory, "onnx", options.onnxFile ?? "model_quantized.onnx"),
    tinyOnnxModel(table, vocabSize, dimensions),
  );
  return { directory, words, dimensions };
}
