import assert from "node:assert/strict";
import {
  buildSoftTable,
  DIMENSIONS,
  type Glove,
  neighboursOf,
  readVectorTable,
  withNeighbours,
} from "./build_soft_words.ts";
import { parseSoftWords, softWordsBytes } from "../server/providers/vectors/soft_words.ts";
import { stemOf } from "../server/providers/vectors/words.ts";

/** A GloVe-like vocabulary the test writes: frequency order, 100 dimensions, one axis per meaning. */
function fakeGlove(): Glove {
  const axis = (at: number, tilt = 0) =>
    Array.from({ length: DIMENSIONS }, (_, index) => index === at ? 1 : index === at + 1 ? tilt : 0);
  const vectors: Record<string, number[]> = {
    the: axis(0),
    money: axis(2),
    ",": axis(4),
    budget: axis(2, 0.5),
    budgets: axis(2, 0.6),
    ship: axis(6),
    "x-ray": axis(8),
    boat: axis(6, 0.3),
    rare: axis(10),
  };
  return { words: Object.keys(vectors), vectors };
}

Deno.test("buildSoftTable: frequent words of letters only, no stop words, one centred int8 row per Porter stem", () => {
  const table = buildSoftTable(fakeGlove(), 5);
  assert.deepEqual(table.stems, ["money", "budget", "ship", "boat", "rare"].map(stemOf).slice(0, 4));
  assert.equal(table.vectors.length, 4 * DIMENSIONS);
  assert.ok(
    table.vectors.some((value) => value === 127 || value === -127),
    "each row scaled to the int8 range",
  );
  const kept = withNeighbours(table.stems, neighboursOf(table.vectors, DIMENSIONS, 0.5));
  const parsed = parseSoftWords(softWordsBytes(kept.stems, kept.neighbours, 0.5));
  const like = (a: string, b: string) => parsed.similarity(stemOf(a), stemOf(b));
  assert.ok(like("money", "budget") > 0.5, `money / budget ${like("money", "budget")}`);
  assert.ok(like("ship", "boat") > 0.5);
  assert.equal(like("money", "ship"), 0, "below the floor: not neighbours");
  assert.equal(parsed.has("the"), false);
  assert.equal(parsed.has("x-ray"), false);
  assert.equal(parsed.size, 4, "each kept stem has a neighbour");
});

Deno.test("neighboursOf: every pair at or above the floor, both ways, best first; lonely stems dropped", () => {
  // Rows of 2 dimensions: a and b at cosine 0.8, a and c at 0.6, b and c at 0.96, d alike to none.
  const vectors = Int8Array.from([100, 0, 80, 60, 60, 80, 0, -100]);
  const lists = neighboursOf(vectors, 2, 0.6);
  const near = (row: number) =>
    lists[row].map(({ row, likeness }) => [row, Math.round(likeness * 100) / 100]);
  assert.deepEqual(near(0), [[1, 0.8], [2, 0.6]]);
  assert.deepEqual(near(1), [[2, 0.96], [0, 0.8]]);
  assert.deepEqual(near(2), [[1, 0.96], [0, 0.6]]);
  assert.deepEqual(near(3), []);
  const kept = withNeighbours(["a", "b", "c", "d"], lists);
  assert.deepEqual(kept.stems, ["a", "b", "c"]);
  assert.deepEqual(kept.neighbours[0].map(({ row }) => row), [1, 2]);
});

Deno.test("readVectorTable: the fifth round's LSW1 file of int8 vectors", () => {
  const stems = new TextEncoder().encode("alpha beta");
  const bytes = new Uint8Array(12 + stems.length + 4);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, 0x3157534c, true);
  view.setUint32(4, 2, true);
  view.setUint32(8, stems.length, true);
  bytes.set(stems, 12);
  bytes.set([1, 255, 3, 4], 12 + stems.length);
  const table = readVectorTable(bytes);
  assert.deepEqual(table.stems, ["alpha", "beta"]);
  assert.deepEqual([...table.vectors], [1, -1, 3, 4]);
  assert.equal(table.dimensions, 2);
  assert.throws(() => readVectorTable(bytes.subarray(0, bytes.length - 1)), /does not match/);
});
