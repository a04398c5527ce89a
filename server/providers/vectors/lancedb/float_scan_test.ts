import assert from "node:assert/strict";
import { candidateRows, type ExactRows, exactSearch } from "./exact_cache.ts";
import { FloatRows } from "./float_scan.ts";
import { seededRandom as random } from "../../../testing/random.ts";

/** Rows as exact_cache.ts holds them, in WebAssembly memory (`simd`) or in a plain Float32Array. */
function rowsOf(list: number[][], dimensions: number, simd: boolean): ExactRows {
  const scan = simd ? FloatRows.create(list.length, dimensions) : null;
  if (simd) assert.ok(scan, "WebAssembly SIMD is there");
  const vectors = scan ? scan.vectors : new Float32Array(list.length * dimensions);
  list.forEach((vector, row) => vectors.set(vector, row * dimensions));
  const norms = new Float32Array(list.length);
  for (let row = 0; row < list.length; row++) {
    let sum = 0;
    for (let d = 0; d < dimensions; d++) sum += vectors[row * dimensions + d] ** 2;
    norms[row] = Math.sqrt(sum);
  }
  return {
    table: null as never,
    version: 1,
    rows: list.length,
    dimensions,
    vectors,
    scan,
    norms,
    int8: null,
    rowIds: BigInt64Array.from(list, (_, row) => BigInt(row * 3 + 1)),
    sortedIds: true,
    storedFloats: true,
    bytes: 0,
  };
}

/** The exact top by a sort of every row's cosine in double precision (ties: the earlier row). */
function sortedTop(list: number[][], query: number[], limit: number) {
  const q = Float32Array.from(query);
  const length = (values: Float32Array) => Math.sqrt(values.reduce((s, v) => s + v * v, 0));
  const queryNorm = length(q);
  return list.map((vector, row) => {
    const values = Float32Array.from(vector);
    const norm = Math.fround(length(values)) * queryNorm;
    return { row, score: norm === 0 ? 0 : values.reduce((s, v, d) => s + v * q[d], 0) / norm };
  }).sort((a, b) => b.score - a.score || a.row - b.row).slice(0, limit).map(({ row }) => BigInt(row * 3 + 1));
}

Deno.test("float scan: the SIMD pass gives the plain scan's hits, order and scores, ties and all", () => {
  const next = random(7);
  const dimensions = 384;
  const base = Array.from({ length: 40 }, () => Array.from({ length: dimensions }, () => next() - 0.5));
  // Many rows equal or nearly equal (a corpus of few words), rows of length 0, and plain random ones.
  const list = Array.from({ length: 3_000 }, (_, row) => {
    if (row % 97 === 0) return new Array(dimensions).fill(0);
    const vector = base[row % base.length].slice();
    if (row % 3 === 0) vector[row % dimensions] += 1e-6 * (next() - 0.5);
    if (row % 5 === 0) return vector.map(() => next() - 0.5);
    return vector;
  });
  const simd = rowsOf(list, dimensions, true);
  const plain = rowsOf(list, dimensions, false);
  const queries = [...base.slice(0, 6), ...Array.from({ length: 6 }, () => list[Math.floor(next() * 3_000)])];
  for (const query of queries) {
    const sorted = sortedTop(list, query, 120);
    // The SIMD pass decides (it is no fallback to the plain scan), with a few rows more than asked for ties.
    const q = Float32Array.from(query);
    const candidates = candidateRows(simd, q, Math.sqrt(q.reduce((s, v) => s + v * v, 0)), 40);
    assert.ok(candidates && candidates.length >= 40 && candidates.length < 300, `${candidates?.length}`);
    for (const limit of [1, 4, 40, 120]) {
      const fast = exactSearch(simd, query, limit);
      assert.deepEqual(fast, exactSearch(plain, query, limit));
      assert.equal(fast.length, limit);
      assert.deepEqual(fast.map((hit) => hit.rowId), sorted.slice(0, limit));
    }
  }
});

Deno.test("float scan: a query of length 0 and rows of other lengths take the plain scan, with the same answers", () => {
  const next = random(11);
  const list = Array.from({ length: 200 }, () => Array.from({ length: 64 }, () => next() - 0.5));
  const simd = rowsOf(list, 64, true);
  const zero = exactSearch(simd, new Array(64).fill(0), 5);
  assert.deepEqual(zero.map((hit) => hit.rowId), [1n, 4n, 7n, 10n, 13n], "all score 0: the first rows");
  assert.ok(zero.every((hit) => hit.score === 0));
  assert.equal(FloatRows.create(10, 50), null, "50 floats a row: not a multiple of 4");
  const odd = list.map((vector) => vector.slice(0, 50));
  assert.deepEqual(exactSearch(rowsOf(odd, 50, false), odd[3], 3).map((hit) => hit.rowId)[0], 10n);
});
