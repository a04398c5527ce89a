// Word vectors for soft matching (issue 20, fifth round): the passage that answers "How much money did it take to
// make Spectre?" says "budget", and the one for "Whom did she marry?" says "wedding". Neither BM25 nor the
// built-in embedder joins such words; the hybrid search's re-scoring counts a question word missing from a
// chunk by its best likeness to the chunk's own words (fusion.ts, `softScores`).
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

/** The table from its module's strings: the stems space-separated, the rows as base64 int8. */
export function parseSoftWords(stems: string, base64: string, dimensions: number): SoftWordTable {
  const binary = atob(base64);
  const vectors = new Int8Array(binary.length);
  for (let at = 0; at < binary.length; at++) vectors[at] = binary.charCodeAt(at) << 24 >> 24;
  return new SoftWordTable(stems ? stems.split(" ") : [], vectors, dimensions);
}

let loading: Promise<SoftWordTable> | undefined;

/**
 * The shipped table (soft_words_table.ts, from GloVe by scripts/build_soft_words.ts), read on the first hybrid
 * search that counts it: nothing is loaded at start.
 */
export function softWords(): Promise<SoftWordTable> {
  return loading ??= import("./soft_words_table.ts").then(({ STEMS, VECTORS, DIMENSIONS }) =>
    parseSoftWords(STEMS, VECTORS, DIMENSIONS)
  );
}

/** The fusion options of a hybrid search with the word vectors added when the weights count them. */
export async function withSoftWords(options: FusionOptions): Promise<FusionOptions> {
  const counted = (options.softWeight ?? SOFT_WEIGHT) > 0 ||
    (options.softSentenceShare ?? SOFT_SENTENCE_SHARE) > 0;
  if (!counted || options.softWords) return options;
  return { ...options, softWords: await softWords() };
}
