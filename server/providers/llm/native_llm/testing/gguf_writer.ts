/**
 * Writes a tiny but complete GGUF v3 model (llama architecture, SentencePiece-style vocabulary) for tests and
 * benchmarks: llama.cpp loads it and generates with it. Its weights are seeded pseudo-random numbers, so what it
 * says is noise, but always the same noise. The output layer gives every control and byte token a logit of
 * exactly 0 and the word tokens random ones, so a greedy run picks words (never the end-of-text token) and the
 * answer is valid text.
 */

// GGUF metadata value types.
const UINT32 = 4;
const INT32 = 5;
const FLOAT32 = 6;
const BOOL = 7;
const STRING = 8;
const ARRAY = 9;
// ggml tensor type.
const GGML_F32 = 0;
const ALIGNMENT = 32;

// llama.cpp token types.
const TOKEN_NORMAL = 1;
const TOKEN_UNKNOWN = 2;
const TOKEN_CONTROL = 3;
const TOKEN_BYTE = 6;

/** The words the tiny model says (SentencePiece marks a leading space with ▁). */
export const TINY_WORDS = [
  "alpha",
  "bravo",
  "charlie",
  "delta",
  "echo",
  "foxtrot",
  "golf",
  "hotel",
  "india",
  "juliet",
  "kilo",
  "lima",
  "mike",
  "november",
  "oscar",
  "papa",
  "quebec",
  "romeo",
  "sierra",
  "tango",
  "uniform",
  "victor",
  "whiskey",
  "xray",
  "yankee",
  "zulu",
] as const;

export interface TinyModelOptions {
  /** Seed of the weights; the same seed gives the same file. */
  seed?: number;
  layers?: number;
  embedding?: number;
  heads?: number;
  feedForward?: number;
  contextLength?: number;
  name?: string;
  /** A Jinja chat template (tokenizer.chat_template), as real models carry; `CHATML_TEMPLATE` adds its tokens. */
  chatTemplate?: string;
}

/** The ChatML template many models carry; with it the vocabulary gains <|im_start|> and <|im_end|>. */
export const CHATML_TEMPLATE = "{% for message in messages %}{{'<|im_start|>' + message['role'] + '\\n' + " +
  "message['content'] + '<|im_end|>' + '\\n'}}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}" +
  "{% endif %}";

interface Tensor {
  name: string;
  /** ggml order: the first dimension is the row length. */
  dims: number[];
  data: Float32Array;
}

type Value =
  | { type: "u32"; value: number }
  | { type: "i32"; value: number }
  | { type: "f32"; value: number }
  | { type: "bool"; value: boolean }
  | { type: "string"; value: string }
  | { type: "strings"; value: string[] }
  | { type: "f32s"; value: number[] }
  | { type: "i32s"; value: number[] };

class ByteWriter {
  private chunks: Uint8Array[] = [];
  length = 0;
  private readonly encoder = new TextEncoder();

  bytes(bytes: Uint8Array) {
    this.chunks.push(bytes);
    this.length += bytes.length;
  }
  private view(size: number, write: (view: DataView) => void) {
    const buffer = new Uint8Array(size);
    write(new DataView(buffer.buffer));
    this.bytes(buffer);
  }
  u32(value: number) {
    this.view(4, (view) => view.setUint32(0, value, true));
  }
  i32(value: number) {
    this.view(4, (view) => view.setInt32(0, value, true));
  }
  u64(value: number) {
    this.view(8, (view) => view.setBigUint64(0, BigInt(value), true));
  }
  f32(value: number) {
    this.view(4, (view) => view.setFloat32(0, value, true));
  }
  string(value: string) {
    const encoded = this.encoder.encode(value);
    this.u64(encoded.length);
    this.bytes(encoded);
  }
  padTo(alignment: number) {
    const padding = (alignment - (this.length % alignment)) % alignment;
    if (padding > 0) this.bytes(new Uint8Array(padding));
  }
  result(): Uint8Array {
    const out = new Uint8Array(this.length);
    let offset = 0;
    for (const chunk of this.chunks) {
      out.set(chunk, offset);
      offset += chunk.length;
    }
    return out;
  }
}

function writeValue(out: ByteWriter, value: Value) {
  switch (value.type) {
    case "u32":
      out.u32(UINT32);
      out.u32(value.value);
      break;
    case "i32":
      out.u32(INT32);
      out.i32(value.value);
      break;
    case "f32":
      out.u32(FLOAT32);
      out.f32(value.value);
      break;
    case "bool":
      out.u32(BOOL);
      out.bytes(new Uint8Array([value.value ? 1 : 0]));
      break;
    case "string":
      out.u32(STRING);
      out.string(value.value);
      break;
    case "strings":
      out.u32(ARRAY);
      out.u32(STRING);
      out.u64(value.value.length);
      for (const item of value.value) out.string(item);
      break;
    case "f32s":
      out.u32(ARRAY);
      out.u32(FLOAT32);
      out.u64(value.value.length);
      for (const item of value.value) out.f32(item);
      break;
    case "i32s":
      out.u32(ARRAY);
      out.u32(INT32);
      out.u64(value.value.length);
      for (const item of value.value) out.i32(item);
      break;
  }
}

/** Mulberry32: a small seeded generator, so a seed always gives the same weights. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The vocabulary: <unk> <s> </s>, any other control tokens, the 256 byte tokens, ▁ and the letters, then the words. */
export function tinyVocabulary(
  controlTokens: string[] = [],
): { tokens: string[]; scores: number[]; types: number[]; firstWord: number } {
  const tokens = ["<unk>", "<s>", "</s>", ...controlTokens];
  const types = [TOKEN_UNKNOWN, TOKEN_CONTROL, TOKEN_CONTROL, ...controlTokens.map(() => TOKEN_CONTROL)];
  for (let byte = 0; byte < 256; byte++) {
    tokens.push(`<0x${byte.toString(16).toUpperCase().padStart(2, "0")}>`);
    types.push(TOKEN_BYTE);
  }
  for (const piece of ["▁", ..."abcdefghijklmnopqrstuvwxyz"]) {
    tokens.push(piece);
    types.push(TOKEN_NORMAL);
  }
  const firstWord = tokens.length;
  for (const word of TINY_WORDS) {
    tokens.push(`▁${word}`);
    types.push(TOKEN_NORMAL);
  }
  const scores = tokens.map((_, index) => -index);
  return { tokens, scores, types, firstWord };
}

/** The bytes of a tiny llama-architecture GGUF v3 model. */
export function tinyLlamaGguf(options: TinyModelOptions = {}): Uint8Array {
  const layers = options.layers ?? 2;
  const embedding = options.embedding ?? 64;
  const heads = options.heads ?? 4;
  const feedForward = options.feedForward ?? 128;
  const contextLength = options.contextLength ?? 512;
  const next = random(options.seed ?? 1);
  const vocabulary = tinyVocabulary(
    options.chatTemplate?.includes("<|im_start|>") ? ["<|im_start|>", "<|im_end|>"] : [],
  );
  const vocabSize = vocabulary.tokens.length;

  const randomTensor = (name: string, dims: number[], scale: number): Tensor => {
    const data = new Float32Array(dims.reduce((a, b) => a * b, 1));
    for (let index = 0; index < data.length; index++) data[index] = (next() * 2 - 1) * scale;
    return { name, dims, data };
  };
  const ones = (name: string, size: number): Tensor => ({
    name,
    dims: [size],
    data: new Float32Array(size).fill(1),
  });

  const tensors: Tensor[] = [randomTensor("token_embd.weight", [embedding, vocabSize], 0.5)];
  const attentionScale = 1 / Math.sqrt(embedding);
  for (let layer = 0; layer < layers; layer++) {
    const prefix = `blk.${layer}`;
    tensors.push(
      ones(`${prefix}.attn_norm.weight`, embedding),
      randomTensor(`${prefix}.attn_q.weight`, [embedding, embedding], attentionScale),
      randomTensor(`${prefix}.attn_k.weight`, [embedding, embedding], attentionScale),
      randomTensor(`${prefix}.attn_v.weight`, [embedding, embedding], attentionScale),
      randomTensor(`${prefix}.attn_output.weight`, [embedding, embedding], attentionScale),
      ones(`${prefix}.ffn_norm.weight`, embedding),
      randomTensor(`${prefix}.ffn_gate.weight`, [embedding, feedForward], attentionScale),
      randomTensor(`${prefix}.ffn_up.weight`, [embedding, feedForward], attentionScale),
      randomTensor(`${prefix}.ffn_down.weight`, [feedForward, embedding], 1 / Math.sqrt(feedForward)),
    );
  }
  tensors.push(ones("output_norm.weight", embedding));
  const output = randomTensor("output.weight", [embedding, vocabSize], 1);
  // Rows of control and byte tokens are zero: their logit is 0, below the best of the words'.
  output.data.fill(0, 0, vocabulary.firstWord * embedding);
  tensors.push(output);

  const metadata: [string, Value][] = [
    ["general.architecture", { type: "string", value: "llama" }],
    ["general.name", { type: "string", value: options.name ?? "Lectern tiny test model" }],
    ["general.alignment", { type: "u32", value: ALIGNMENT }],
    ["general.file_type", { type: "u32", value: 0 }],
    ["llama.context_length", { type: "u32", value: contextLength }],
    ["llama.embedding_length", { type: "u32", value: embedding }],
    ["llama.block_count", { type: "u32", value: layers }],
    ["llama.feed_forward_length", { type: "u32", value: feedForward }],
    ["llama.attention.head_count", { type: "u32", value: heads }],
    ["llama.attention.head_count_kv", { type: "u32", value: heads }],
    ["llama.rope.dimension_count", { type: "u32", value: embedding / heads }],
    ["llama.attention.layer_norm_rms_epsilon", { type: "f32", value: 1e-5 }],
    ["llama.vocab_size", { type: "u32", value: vocabSize }],
    ["tokenizer.ggml.model", { type: "string", value: "llama" }],
    ["tokenizer.ggml.tokens", { type: "strings", value: vocabulary.tokens }],
    ["tokenizer.ggml.scores", { type: "f32s", value: vocabulary.scores }],
    ["tokenizer.ggml.token_type", { type: "i32s", value: vocabulary.types }],
    ["tokenizer.ggml.unknown_token_id", { type: "u32", value: 0 }],
    ["tokenizer.ggml.bos_token_id", { type: "u32", value: 1 }],
    ["tokenizer.ggml.eos_token_id", { type: "u32", value: 2 }],
    ["tokenizer.ggml.add_bos_token", { type: "bool", value: true }],
    ["tokenizer.ggml.add_eos_token", { type: "bool", value: false }],
    ...(options.chatTemplate
      ? [["tokenizer.chat_template", { type: "string", value: options.chatTemplate }] as [string, Value]]
      : []),
  ];

  const out = new ByteWriter();
  out.bytes(new TextEncoder().encode("GGUF"));
  out.u32(3);
  out.u64(tensors.length);
  out.u64(metadata.length);
  for (const [key, value] of metadata) {
    out.string(key);
    writeValue(out, value);
  }
  let offset = 0;
  for (const tensor of tensors) {
    out.string(tensor.name);
    out.u32(tensor.dims.length);
    for (const dim of tensor.dims) out.u64(dim);
    out.u32(GGML_F32);
    out.u64(offset);
    const size = tensor.data.byteLength;
    offset += size + ((ALIGNMENT - (size % ALIGNMENT)) % ALIGNMENT);
  }
  out.padTo(ALIGNMENT);
  for (const tensor of tensors) {
    out.bytes(new Uint8Array(tensor.data.buffer, tensor.data.byteOffset, tensor.data.byteLength));
    out.padTo(ALIGNMENT);
  }
  return out.result();
}

/** Writes the tiny model to `path` and returns the path. */
export async function writeTinyLlamaGguf(path: string, options: TinyModelOptions = {}): Promise<string> {
  await Deno.writeFile(path, tinyLlamaGguf(options));
  return path;
}
