// Word vectors' neighbours for soft matching (issue 20, fifth and sixth rounds): the passage that answers "How
// much money did it take to make Spectre?" says "budget", and the one for "Whom did she marry?" says "wedding".
// Neither BM25 nor the built-in embedder joins such words; the hybrid search's re-scoring counts a question word
// missing from a chunk by its best likeness to the chunk's own words (fusion.ts, `softScores`). The likeness of
// two stems is the cosine of their GloVe vectors; only the pairs alike enough to count (at least the table's
// floor) are shipped, as each stem's list of neighbours, so a search looks its question's stems up instead of
// comparing vectors.
import { fromRoot } from "../../app_root.ts";
import { type FusionOptions, SOFT_SENTENCE_SHARE, SOFT_WEIGHT, type SoftWords } from "./fusion.ts";

export type { SoftWords };

/**
 * For each stem, the stems whose vectors' cosine with its own is at least `floor`, with that cosine quantised
 * to a byte over [floor, 1]. Rows are read on demand: loading decodes the stems only.
 */
export class SoftNeighbourTable implements SoftWords {
  private readonly rows = new Map<string, number>();
  private readonly read = new Map<number, ReadonlyMap<string, number>>();

  constructor(
    private readonly stems: readonly string[],
    /** Where each stem's neighbours start in `neighbours` (one more entry than stems: the end). */
    private readonly starts: Uint32Array,
    /** The neighbours' rows, each stem's list in the order of their likeness, best first. */
    private readonly neighbourRows: Uint16Array,
    /** Each neighbour's likeness: floor + byte / 255 · (1 − floor). */
    private readonly likeness: Uint8Array,
    /** The least likeness the table holds. */
    readonly floor: number,
  ) {
    if (
      starts.length !== stems.length + 1 || starts[stems.length] !== neighbourRows.length ||
      likeness.length !== neighbourRows.length || stems.length > 65_536
    ) {
      throw new Error("The word neighbour table's size does not match its stems.");
    }
    stems.forEach((stem, row) => this.rows.set(stem, row));
  }

  get size(): number {
    return this.rows.size;
  }

  has(stem: string): boolean {
    return this.rows.has(stem);
  }

  neighbours(stem: string): ReadonlyMap<string, number> {
    const row = this.rows.get(stem);
    if (row === undefined) return EMPTY;
    let found = this.read.get(row);
    if (found === undefined) {
      const list = new Map<string, number>();
      const scale = (1 - this.floor) / 255;
      for (let at = this.starts[row]; at < this.starts[row + 1]; at++) {
        list.set(this.stems[this.neighbourRows[at]], this.floor + this.likeness[at] * scale);
      }
      found = list;
      // A question's stems come back across searches; a long-running server reads a few thousand at most.
      if (this.read.size >= 4096) this.read.clear();
      this.read.set(row, found);
    }
    return found;
  }

  similarity(a: string, b: string): number {
    if (!this.rows.has(a) || !this.rows.has(b)) return 0;
    return a === b ? 1 : this.neighbours(a).get(b) ?? 0;
  }
}

const EMPTY: ReadonlyMap<string, number> = new Map();

/** The first bytes of a table file: "LSN1" (Lectern soft neighbours, format 1). */
export const SOFT_NEIGHBOURS_MAGIC = 0x314e534c;

/**
 * A table as scripts/build_soft_words.ts writes it, all little-endian: "LSN1"; the floor (float32); the number
 * of stems, the stems' byte length and the number of neighbour entries (uint32); the stems (UTF-8,
 * space-separated), padded with spaces to a multiple of 4 bytes; each stem's start in the entries (uint32, one
 * more than the stems); the entries' rows (uint16), padded to 4 bytes; their likeness (uint8). Read as bytes
 * rather than as a module: a module's source stays in memory for as long as the process runs.
 */
export function parseSoftWords(bytes: Uint8Array): SoftNeighbourTable {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.byteLength < 20 || view.getUint32(0, true) !== SOFT_NEIGHBOURS_MAGIC) {
    throw new Error("The word neighbour table is not a table of soft words.");
  }
  const floor = view.getFloat32(4, true);
  const count = view.getUint32(8, true);
  const stemsLength = view.getUint32(12, true);
  const entries = view.getUint32(16, true);
  const startsAt = 20 + padded(stemsLength);
  const rowsAt = startsAt + 4 * (count + 1);
  const likenessAt = rowsAt + padded(2 * entries);
  if (likenessAt + entries !== bytes.byteLength || !(floor > 0 && floor < 1)) {
    throw new Error("The word neighbour table's size does not match its stems.");
  }
  const stems = new TextDecoder().decode(bytes.subarray(20, 20 + stemsLength));
  // Copies, so that the arrays are aligned wherever the bytes sit (they are small: a megabyte in all).
  const copy = (from: number, length: number) => bytes.slice(from, from + length).buffer;
  return new SoftNeighbourTable(
    stems ? stems.split(" ") : [],
    new Uint32Array(copy(startsAt, 4 * (count + 1))),
    new Uint16Array(copy(rowsAt, 2 * entries)),
    bytes.slice(likenessAt, likenessAt + entries),
    floor,
  );
}

const padded = (length: number) => Math.ceil(length / 4) * 4;

/**
 * The table's bytes in the format parseSoftWords reads, from each stem's neighbours (rows into `stems`, with
 * their likeness, at least `floor`).
 */
export function softWordsBytes(
  stems: readonly string[],
  neighbours: readonly (readonly { row: number; likeness: number }[])[],
  floor: number,
): Uint8Array {
  const text = new TextEncoder().encode(stems.join(" "));
  const entries = neighbours.reduce((sum, list) => sum + list.length, 0);
  const startsAt = 20 + padded(text.length);
  const rowsAt = startsAt + 4 * (stems.length + 1);
  const likenessAt = rowsAt + padded(2 * entries);
  const bytes = new Uint8Array(likenessAt + entries);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, SOFT_NEIGHBOURS_MAGIC, true);
  view.setFloat32(4, floor, true);
  view.setUint32(8, stems.length, true);
  view.setUint32(12, text.length, true);
  view.setUint32(16, entries, true);
  bytes.fill(0x20, 20, startsAt);
  bytes.set(text, 20);
  let at = 0;
  neighbours.forEach((list, row) => {
    view.setUint32(startsAt + 4 * row, at, true);
    for (const { row: other, likeness } of list) {
      view.setUint16(rowsAt + 2 * at, other, true);
      bytes[likenessAt + at] = Math.max(0, Math.min(255, Math.round(255 * (likeness - floor) / (1 - floor))));
      at++;
    }
  });
  view.setUint32(startsAt + 4 * stems.length, at, true);
  return bytes;
}

let loading: Promise<SoftNeighbourTable> | undefined;

/**
 * The shipped table (soft_words.bin, from GloVe by scripts/build_soft_words.ts; its notices in
 * soft_words.NOTICE.md), read on the first hybrid search that counts it: nothing is loaded at start.
 */
export function softWords(): Promise<SoftNeighbourTable> {
  return loading ??= Deno.readFile(
    // Beside this module in the source tree; the executable carries it (scripts/compile.ts's INCLUDES).
    fromRoot("server/providers/vectors/soft_words.bin"),
  ).then(parseSoftWords).catch((error) => {
    loading = undefined;
    throw error;
  });
}

/** The fusion options of a hybrid search with the word neighbours added when the weights count them. */
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
