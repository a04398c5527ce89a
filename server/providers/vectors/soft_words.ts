// Word vectors for soft matching (issue 20, fifth round): the passage that answers "How much money did it take to
// make Spectre?" says "budget", and the one for "Whom did she marry?" says "wedding". Neither BM25 nor the
// built-in embedder joins such words; the hybrid search's re-scoring counts a question word missing from a
// chunk by its best likeness to the chunk's own words (fusion.ts, `softScores`).
import { fromRoot } from "../../app_root.ts";
import { type FusionOptions, SOFT_SENTENCE_SHARE, SOFT_WEIGHT, type SoftWords } from "./fusion.ts";

export type { SoftWords };

/** A table of int8 word vectors, one row of `dimensions` per stem, compared by cosine. */
export class SoftWordTable implements SoftWords {
  private readonly rows = new Map<string, number>();
  private readonly inverseNorms: Float32Array;

  constructor(
    stems: readonly string[],
    private readonly vectors: Int8Array,
    private readonly dimensions: number,
  ) {
    if (vectors.length !== stems.length * dimensions) {
      throw new Error("The word vector table's size does not match its stems.");
    }
    this.inverseNorms = new Float32Array(stems.length);
    stems.forEach((stem, row) => {
      this.rows.set(stem, row);
      let norm = 0;
      for (let at = row * dimensions; at < (row + 1) * dimensions; at++) norm += vectors[at] * vectors[at];
      this.inverseNorms[row] = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    });
  }

  get size(): number {
    return this.rows.size;
  }

  has(stem: string): boolean {
    return this.rows.has(stem);
  }

  against(stems: readonly string[]): (stem: string) => Float32Array | undefined {
    const rows = Int32Array.from(stems, (stem) => this.rows.get(stem) ?? -1);
    const vectors = this.vectors;
    const dimensions = this.dimensions;
    const norms = this.inverseNorms;
    return (stem) => {
      const row = this.rows.get(stem);
      if (row === undefined) return undefined;
      const likeness = new Float32Array(rows.length);
      const y = row * dimensions;
      for (let index = 0; index < rows.length; index++) {
        const other = rows[index];
        if (other < 0) continue;
        if (other === row) {
          likeness[index] = 1;
          continue;
        }
        likeness[index] = dotOf(vectors, other * dimensions, y, dimensions) * norms[other] * norms[row];
      }
      return likeness;
    };
  }

  similarity(a: string, b: string): number {
    const first = this.rows.get(a);
    const second = this.rows.get(b);
    if (first === undefined || second === undefined) return 0;
    if (first === second) return 1;
    const vectors = this.vectors;
    const dimensions = this.dimensions;
    let dot = 0;
    for (let at = 0, x = first * dimensions, y = second * dimensions; at < dimensions; at++) {
      dot += vectors[x + at] * vectors[y + at];
    }
    return dot * this.inverseNorms[first] * this.inverseNorms[second];
  }
}

/** The dot product of two int8 rows, four values a step (the search's comparisons spend their time here). */
function dotOf(vectors: Int8Array, x: number, y: number, dimensions: number): number {
  let a = 0;
  let b = 0;
  let c = 0;
  let d = 0;
  let at = 0;
  for (; at + 4 <= dimensions; at += 4) {
    a += vectors[x + at] * vectors[y + at];
    b += vectors[x + at + 1] * vectors[y + at + 1];
    c += vectors[x + at + 2] * vectors[y + at + 2];
    d += vectors[x + at + 3] * vectors[y + at + 3];
  }
  for (; at < dimensions; at++) a += vectors[x + at] * vectors[y + at];
  return a + b + c + d;
}

/** The first bytes of a table file: "LSW1" (Lectern soft words, format 1). */
export const SOFT_WORDS_MAGIC = 0x3157534c;

/**
 * A table as scripts/build_soft_words.ts writes it: "LSW1", the dimensions and the stems' byte length (uint32,
 * little-endian), the stems (UTF-8, space-separated), then the int8 rows. Read as bytes rather than as a module
 * of base64 strings: a module's source stays in memory for as long as the process runs (3.7 MB), and decoding
 * base64 cost 0.3-0.5 s against 75 ms for the file.
 */
export function parseSoftWords(bytes: Uint8Array): SoftWordTable {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.byteLength < 12 || view.getUint32(0, true) !== SOFT_WORDS_MAGIC) {
    throw new Error("The word vector table is not a table of soft words.");
  }
  const dimensions = view.getUint32(4, true);
  const stemsLength = view.getUint32(8, true);
  if (dimensions === 0 || 12 + stemsLength > bytes.byteLength) {
    throw new Error("The word vector table's size does not match its stems.");
  }
  const stems = new TextDecoder().decode(bytes.subarray(12, 12 + stemsLength));
  const vectors = new Int8Array(
    bytes.buffer,
    bytes.byteOffset + 12 + stemsLength,
    bytes.byteLength - 12 - stemsLength,
  );
  return new SoftWordTable(stems ? stems.split(" ") : [], vectors, dimensions);
}

/** The table's bytes in the format parseSoftWords reads. */
export function softWordsBytes(stems: readonly string[], vectors: Int8Array, dimensions: number): Uint8Array {
  const text = new TextEncoder().encode(stems.join(" "));
  const bytes = new Uint8Array(12 + text.length + vectors.length);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, SOFT_WORDS_MAGIC, true);
  view.setUint32(4, dimensions, true);
  view.setUint32(8, text.length, true);
  bytes.set(text, 12);
  bytes.set(new Uint8Array(vectors.buffer, vectors.byteOffset, vectors.byteLength), 12 + text.length);
  return bytes;
}

let loading: Promise<SoftWordTable> | undefined;

/**
 * The shipped table (soft_words.bin, from GloVe by scripts/build_soft_words.ts; its notices in
 * soft_words.NOTICE.md), read on the first hybrid search that counts it: nothing is loaded at start.
 */
export function softWords(): Promise<SoftWordTable> {
  return loading ??= Deno.readFile(
    // Beside this module in the source tree; the executable carries it (scripts/compile.ts's INCLUDES).
    fromRoot("server/providers/vectors/soft_words.bin"),
  ).then(parseSoftWords).catch((error) => {
    loading = undefined;
    throw error;
  });
}

/** The fusion options of a hybrid search with the word vectors added when the weights count them. */
export async function withSoftWords(options: FusionOptions): Promise<FusionOptions> {
  const counted = (options.softWeight ?? SOFT_WEIGHT) > 0 ||
    (options.softSentenceShare ?? SOFT_SENTENCE_SHARE) > 0;
  if (!counted || options.softWords) return options;
  try {
    return { ...options, softWords: await softWords() };
  } catch (error) {
    // A table missing from an install is a packaging fault: the search goes on without it (tried again next time).
    if (!warned) console.warn(`The hybrid search runs without its word vectors: ${(error as Error).message}`);
    warned = true;
    return options;
  }
}

let warned = false;
