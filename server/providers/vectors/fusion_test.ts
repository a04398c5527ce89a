import assert from "node:assert/strict";
import { fullTextQuery, reciprocalRankFusion, RRF_K } from "./fusion.ts";

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
