import assert from "node:assert/strict";
import { threadFromPath, truncateThreadName } from "./names.ts";

Deno.test("thread names longer than 25 characters are cut with an ellipsis", () => {
  assert.equal(truncateThreadName("Short name"), "Short name");
  assert.equal(truncateThreadName("x".repeat(25)), "x".repeat(25));
  assert.equal(truncateThreadName("A very long thread name that goes on"), "A very long thread name t…");
  assert.equal(truncateThreadName("😀".repeat(30)), `${"😀".repeat(25)}…`, "code points are not split");
});

Deno.test("the current thread is read from the page's address", () => {
  assert.equal(threadFromPath("/workspace/atlas", "atlas"), null);
  assert.equal(threadFromPath("/workspace/atlas/", "atlas"), null);
  assert.equal(threadFromPath("/workspace/atlas/t/abc-1", "atlas"), "abc-1");
  assert.equal(threadFromPath("/workspace/caf%C3%A9/t/x", "café"), "x");
  assert.equal(threadFromPath("/workspace/atlas/settings/members", "atlas"), undefined);
  assert.equal(threadFromPath("/workspace/other/t/abc", "atlas"), undefined);
  assert.equal(threadFromPath("/", "atlas"), undefined);
});
