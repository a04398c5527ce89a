import assert from "node:assert/strict";
import { Int8Rows, rerankDepth } from "./int8_scan.ts";
import { seededRandom as random } from "../../../testing/random.ts";

function table(count: number, dimensions: number, seed: number): Float32Array {
  const next = random(seed);
  return Float32Array.from({ length: count * dimensions }, () => next() - 0.5);
}

function exactTop(values: Float32Array, dimensions: number, query: Float32Array, k: number): number[] {
  const rows = values.length / dimensions;
  const scored = Array.from({ length: rows }, (_, row) => {
    let dot = 0;
    let sum = 0;
    let wanted = 0;
    for (let d = 0; d < dimensions; d++) {
      const value = values[row * dimensions + d];
      dot += value * query[d];
      sum += value * value;
      wanted += query[d] * query[d];
    }
    return { row, score: sum === 0 ? 0 : dot / Math.sqrt(sum * wanted) };
  });
  return scored.sort((a, b) => b.score - a.score || a.row - b.row).slice(0, k).map(({ row }) => row);
}

Deno.test("int8 scan: the candidates hold the exact top 10 by cosine, whatever the rows' lengths and dimensions", () => {
  for (const dimensions of [64, 50, 384]) {
    const rows = 3_000;
    const values = table(rows, dimensions, dimensions);
    // Lengths from 0.01 to 100: the cosine ignores them, and so must the quantisation.
    for (let row = 0; row < rows; row++) {
      const length = 10 ** ((row % 5) - 2);
      for (let d = 0; d < dimensions; d++) values[row * dimensions + d] *= length;
    }
    const scan = Int8Rows.create(rows, dimensions);
    assert.ok(scan, "WebAssembly SIMD is available");
    // Appended in two parts, as batches arrive from LanceDB.
    scan.append(values, 0, 1_000);
    scan.append(values, 1_000 * dimensions, rows - 1_000);
    assert.equal(scan.filled, rows);
    assert.ok(scan.bytes() >= rows * dimensions);
    const queries = table(20, dimensions, 1_000 + dimensions);
    for (let index = 0; index < 20; index++) {
      const query = queries.subarray(index * dimensions, (index + 1) * dimensions);
      const exact = exactTop(values, dimensions, query, 10);
      const candidates: number[] = scan.candidates(query, rerankDepth(10));
      assert.equal(candidates.length, rerankDepth(10));
      for (const row of exact) {
        assert.ok(candidates.includes(row), `row ${row} of the exact top 10 (d=${dimensions})`);
      }
      // The scan's own best is the exact best here (no near ties in random vectors).
      assert.equal(candidates[0], exact[0]);
    }
  }
});

Deno.test("int8 scan: a row of length 0 scores 0, and a table can be asked for more candidates than it has", () => {
  const dimensions = 20;
  const values = new Float32Array(3 * dimensions);
  values.fill(0.5, 0, dimensions); // row 0: along (1, 1, …)
  values.fill(-0.5, 2 * dimensions); // row 2: against it; row 1 is all zeros
  const scan = Int8Rows.create(3, dimensions)!;
  scan.append(values, 0, 3);
  const query = new Float32Array(dimensions).fill(1);
  assert.deepEqual(scan.candidates(query, 10), [0, 1, 2]);
  assert.deepEqual(scan.candidates(query.map((value) => -value), 2), [2, 1]);
  // A query of length 0 ties every row: the earlier rows first.
  assert.deepEqual(scan.candidates(new Float32Array(dimensions), 2), [0, 1]);
  assert.throws(() => scan.append(values, 0, 1), RangeError);
});
