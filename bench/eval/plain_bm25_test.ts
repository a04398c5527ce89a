import assert from "node:assert/strict";
import { plainBm25Rankings } from "./plain_bm25.ts";
import type { EvalSet } from "./sets.ts";

const set = (passages: [string, string][], questions: string[]): EvalSet => ({
  name: "t",
  description: "",
  license: "",
  source: "",
  passages: passages.map(([id, text]) => ({ id, title: "", text })),
  questions: questions.map((text) => ({ text, relevant: [] })),
});

Deno.test("plain BM25 scores as k1 0.9, b 0.4 with ln(1 + (N - df + 0.5) / (df + 0.5)) and no stemming", () => {
  const rankings = plainBm25Rankings(
    set([
      ["a", "herons eat fish"],
      ["b", "heron eats fish and frogs in the marsh"],
      ["c", "owls hunt mice at night"],
    ], ["What do herons eat?", "Frogs in the marsh", "night"]),
    3,
  );
  // "herons" is only in a (no stemming: b's "heron" does not count); "fish" is in both.
  assert.deepEqual(rankings[0], ["a", "b", "c"]);
  assert.deepEqual(rankings[1], ["b", "a", "c"]);
  // Ties keep the passages' order.
  assert.deepEqual(rankings[2], ["c", "a", "b"]);
});

Deno.test("plain BM25 weighs a rare word over a common one and shorter passages over longer ones", () => {
  const rankings = plainBm25Rankings(
    set([
      ["long", "river river " + "word ".repeat(40)],
      ["short", "river"],
      ["rare", "delta"],
      ["x", "river"],
      ["y", "river"],
    ], ["river delta", "river"]),
    5,
  );
  assert.equal(rankings[0][0], "rare");
  // k1 0.9 saturates the long passage's second "river" less than b 0.4 penalises its 42 words.
  assert.equal(rankings[1][0], "short");
  assert.equal(rankings[1].at(-1), "rare");
  const n = 5, df = 4, avg = (42 + 1 + 1 + 1 + 1) / 5;
  const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
  const short = idf * 1.9 / (1 + 0.9 * (0.6 + 0.4 * 1 / avg));
  const long = idf * 2 * 1.9 / (2 + 0.9 * (0.6 + 0.4 * 42 / avg));
  assert.ok(short > long, "the hand-computed scores agree with the order");
});
