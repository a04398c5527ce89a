import assert from "node:assert/strict";
import { estimateTokens, tokenCounter, truncateMiddle } from "./tokens.ts";

Deno.test("tokenCounter() counts cl100k tokens", async () => {
  const count = await tokenCounter();
  assert.equal(count("hello world"), 2);
  assert.equal(count("The quick brown fox jumps over the lazy dog."), 10);
  assert.equal(count(""), 0);
});

Deno.test("tokenCounter() stays fast on one long run of the same character", async () => {
  const count = await tokenCounter();
  const started = performance.now();
  const tokens = count("=".repeat(200_000));
  const elapsed = performance.now() - started;
  assert.ok(tokens > 0);
  // A hang guard, not a speed target (bench/ measures speed): a quadratic merge on 200,000 characters takes
  // many minutes; in pieces it is a fraction of a second, so a minute is never reached by the right code.
  assert.ok(elapsed < 60_000, `took ${elapsed} ms`);
});

Deno.test("truncateMiddle() keeps the start and the end within the limit", async () => {
  const count = await tokenCounter();
  const text = Array.from({ length: 2000 }, (_, index) => `word${index}`).join(" ");
  const cut = await truncateMiddle(text, 200);
  assert.ok(count(cut) <= 200);
  assert.ok(cut.startsWith("word0 word1"));
  assert.ok(cut.endsWith("word1999"));
  assert.match(cut, /\n\[…\]\n/);
  assert.equal(await truncateMiddle("short", 200), "short");
});

Deno.test("estimateTokens() counts short texts and estimates long ones as length / 8", async () => {
  assert.equal(await estimateTokens("hello world"), 2);
  assert.equal(await estimateTokens("a".repeat(8000)), 1000);
});
