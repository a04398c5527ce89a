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

Deno.test({
  name:
    "memory trim: a turn while the server is busy (answers streaming) is skipped; the next quiet one trims",
  ignore: !glibc,
  async fn() {
    let busy = true;
    const trimmer = startMemoryTrim(1, () => busy);
    try {
      while (trimmer.turns.skipped === 0) await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(trimmer.turns.trimmed, 0);
      busy = false;
      while (trimmer.turns.trimmed === 0) await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(trimmer.turns.trimmed, 1);
    } finally {
      trimmer.stop();
    }
  },
});
