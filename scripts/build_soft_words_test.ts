import assert from "node:assert/strict";
import { buildSoftTable, DIMENSIONS, type Glove } from "./build_soft_words.ts";
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
  const parsed = parseSoftWords(softWordsBytes(table.stems, table.vectors, DIMENSIONS));
  const like = (a: string, b: string) => parsed.similarity(stemOf(a), stemOf(b));
  assert.ok(like("money", "budget") > 0.5, `money / budget ${like("money", "budget")}`);
  assert.ok(like("ship", "boat") > 0.5);
  assert.ok(like("money", "ship") < 0.1, `money / ship ${like("money", "ship")}`);
  assert.equal(parsed.has("the"), false);
  assert.equal(parsed.has("x-ray"), false);
});
