import assert from "node:assert/strict";
import {
  fullTextQuery,
  fuseHybrid,
  fusionDepth,
  reciprocalRankFusion,
  RRF_K,
  TEXT_WEIGHT,
} from "./fusion.ts";

Deno.test("reciprocalRankFusion: agreement between the lists wins; each list's first object is kept", () => {
  const byVector = [{ id: "a", from: "vector" }, { id: "b", from: "vector" }, { id: "c", from: "vector" }];
  const byText = [{ id: "c", from: "text" }, { id: "d", from: "text" }, { id: "a", from: "text" }];
  const fused = reciprocalRankFusion([byVector, byText], (item) => item.id);
  assert.deepEqual(fused.map(({ item }) => item.id), ["a", "c", "b", "d"]);
  assert.equal(fused[0].item.from, "vector");
  assert.equal(fused[1].item.from, "vector", "c keeps the vector side's object");
  assert.ok(Math.abs(fused[0].fused - (1 / (RRF_K + 1) + 1 / (RRF_K + 3))) < 1e-12);
  // b (vector rank 2) and d (text rank 2) tie: the first list's order decides.
  assert.equal(fused[2].fused, fused[3].fused);
  assert.deepEqual(reciprocalRankFusion([[], []], String), []);
});

Deno.test("fullTextQuery: words only, lower-cased, each once, at most 64", () => {
  assert.equal(
    fullTextQuery('What\'s "AND" (the) -capital: of Freedonia? OR capital'),
    "what s and the capital of freedonia or",
  );
  assert.equal(fullTextQuery(" -- ** :: "), "");
  assert.equal(fullTextQuery("Ｆｕｌｌｗｉｄｔｈ café"), "fullwidth café");
  const many = Array.from({ length: 100 }, (_, index) => `w${index}`).join(" ");
  assert.equal(fullTextQuery(many).split(" ").length, 64);
});

const hit = (id: string, score: number) => ({ id, score });

Deno.test("fuseHybrid: BM25 scores count 0.7 and cosines 0.3, each divided by its side's best", () => {
  // a: best by vector, no BM25 → 0.3. b: both → 0.7 · 4/8 + 0.3 · 0.4/0.5 = 0.59. c: best BM25 → 0.7 + 0.3 · 0.2/0.5 = 0.82.
  const byVector = [hit("a", 0.5), hit("b", 0.4)];
  const byText = [hit("c", 0.2), hit("b", 0.4)];
  const fused = fuseHybrid(byVector, byText, [8, 4], 10);
  assert.deepEqual(fused.map((item) => item.id), ["c", "b", "a"]);
  assert.equal(fused[0].score, 0.2, "the similarity the threshold judges is kept");
  assert.deepEqual(fuseHybrid(byVector, byText, [8, 4], 2).map((item) => item.id), ["c", "b"]);
  // The weight moves the balance: with the text side at 0.1, the vectors' best wins.
  assert.deepEqual(
    fuseHybrid(byVector, byText, [8, 4], 10, { textWeight: 0.1 }).map((item) => item.id),
    ["a", "b", "c"],
  );
  assert.equal(TEXT_WEIGHT, 0.7);
});

Deno.test("fuseHybrid: no text hits keeps the vector order; ties keep the vector side's order", () => {
  const byVector = [hit("a", 0.5), hit("b", 0.5), hit("c", 0.1)];
  assert.deepEqual(fuseHybrid(byVector, [], [], 10).map((item) => item.id), ["a", "b", "c"]);
  assert.deepEqual(fuseHybrid([], [], [], 10), []);
  // Zero scores everywhere do not divide by zero.
  assert.deepEqual(fuseHybrid([hit("a", 0)], [hit("b", 0)], [0], 10).map((item) => item.id), ["a", "b"]);
  assert.equal(fusionDepth(4), 40);
  assert.equal(fusionDepth(20), 80);
});
