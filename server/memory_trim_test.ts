import assert from "node:assert/strict";
import { startMemoryTrim } from "./memory_trim.ts";

const glibc = (() => {
  try {
    Deno.dlopen("libc.so.6", { malloc_trim: { parameters: ["usize"], result: "i32" } }).close();
    return true;
  } catch {
    return false;
  }
})();

Deno.test({
  name: "memory trim: glibc's malloc_trim is found and called; a stopped trimmer does nothing",
  ignore: !glibc,
  fn() {
    const trimmer = startMemoryTrim(3600);
    try {
      assert.equal(trimmer.available, true);
      assert.equal(typeof trimmer.trim(), "boolean");
    } finally {
      trimmer.stop();
    }
    assert.equal(trimmer.trim(), false, "a stopped trimmer no longer calls into the closed library");
  },
});

Deno.test("memory trim: an interval of 0 turns it off", () => {
  const trimmer = startMemoryTrim(0);
  assert.equal(trimmer.available, false);
  assert.equal(trimmer.trim(), false);
  trimmer.stop();
});
