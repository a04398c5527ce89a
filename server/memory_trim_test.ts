import assert from "node:assert/strict";
import { fullCollector, startMemoryTrim } from "./memory_trim.ts";

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
  async fn() {
    const trimmer = startMemoryTrim(3600);
    try {
      assert.equal(trimmer.available, true);
      assert.equal(typeof await trimmer.trim(), "boolean");
      // A trim under way when the trimmer stops still ends (the library is closed after it).
      const late = trimmer.trim();
      trimmer.stop();
      assert.equal(typeof await late, "boolean");
    } finally {
      trimmer.stop();
    }
    assert.equal(await trimmer.trim(), false, "a stopped trimmer no longer calls into the closed library");
  },
});

Deno.test("memory trim: an interval of 0 turns it off", async () => {
  const trimmer = startMemoryTrim(0);
  assert.equal(trimmer.available, false);
  assert.equal(await trimmer.trim(), false);
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

Deno.test({
  name:
    "memory trim: resident memory grown by the threshold above its low point trims at once, not while busy",
  ignore: !glibc,
  async fn() {
    let rss = 1000;
    let busy = false;
    let reads = 0;
    const trimmer = startMemoryTrim(3600, () => busy, {
      growthBytes: 100,
      checkMs: 10,
      rss: () => (reads++, rss),
      collector: () => Promise.resolve(null),
    });
    /** Waits until the memory has been read twice more (a whole check has seen the figure set before). */
    const turn = async () => {
      const until = reads + 2;
      while (reads < until) await new Promise((resolve) => setTimeout(resolve, 10));
    };
    try {
      rss = 1099;
      await turn();
      assert.equal(trimmer.turns.grown, 0, "99 bytes above the low point: no trim");
      rss = 900; // a new low point
      await turn();
      rss = 1050;
      await turn();
      assert.equal(trimmer.turns.grown, 1, "150 bytes above the low point of 900: one trim");
      // After the trim the low point is the memory read then (1050): the same figure trims no more. (A trim
      // of a loaded machine may take long; the figures below must not change before it has read its own.)
      while (trimmer.turns.settled < 1) await turn();
      await turn();
      assert.equal(trimmer.turns.grown, 1);
      busy = true;
      rss = 2000;
      await turn();
      assert.equal(trimmer.turns.grown, 1, "no trim while answers stream");
      busy = false;
      while (trimmer.turns.grown === 1) await turn();
      assert.equal(trimmer.turns.grown, 2);
      assert.equal(trimmer.turns.trimmed, 0, "the hourly timer has not turned");
    } finally {
      trimmer.stop();
    }
  },
});

Deno.test({
  name: "memory trim: a growth of 0 turns the early trim off",
  ignore: !glibc,
  async fn() {
    let rss = 1000;
    const trimmer = startMemoryTrim(3600, () => false, { growthBytes: 0, checkMs: 10, rss: () => rss });
    try {
      rss = 10_000_000;
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(trimmer.turns.grown, 0);
    } finally {
      trimmer.stop();
    }
  },
});

Deno.test({
  name: "memory trim: a growth turn runs a full garbage collection first, never while busy",
  ignore: !glibc,
  async fn() {
    let rss = 1000;
    let busy = false;
    let reads = 0;
    const collected: number[] = [];
    const trimmer = startMemoryTrim(3600, () => busy, {
      growthBytes: 100,
      checkMs: 10,
      rss: () => (reads++, rss),
      // The collection frees the garbage: the memory is back to 950 when the trim reads it.
      collector: () => Promise.resolve(() => void collected.push(rss, rss = 950)),
    });
    const turn = async () => {
      const until = reads + 3;
      while (reads < until) await new Promise((resolve) => setTimeout(resolve, 10));
    };
    try {
      rss = 1200;
      while (trimmer.turns.grown === 0) await turn();
      await turn();
      assert.deepEqual(collected, [1200, 950], "one collection, at 1,200 bytes");
      await turn();
      assert.equal(trimmer.turns.grown, 1, "the low point is what the collection and trim left (950)");
      busy = true;
      rss = 5000;
      await turn();
      assert.equal(collected.length, 2, "no collection while answers stream");
    } finally {
      trimmer.stop();
    }
  },
});

Deno.test("memory trim: V8's full collection frees ArrayBuffers no longer referenced; gc stays out of sight", async () => {
  const collect = await fullCollector();
  assert.ok(collect, "V8's full collection could not be had");
  const external = () => Deno.memoryUsage().external;
  collect();
  const before = external();
  let held: Uint8Array[] | null = Array.from(
    { length: 8 },
    (_, index) => new Uint8Array(4 << 20).fill(index),
  );
  assert.ok(external() - before >= 30 * 1024 * 1024 && held.length === 8);
  held = null;
  collect();
  assert.ok(external() - before < 2 * 1024 * 1024, `${external() - before} bytes still held after it`);
  assert.equal("gc" in globalThis, false);
});
