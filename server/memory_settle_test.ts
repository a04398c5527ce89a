import assert from "node:assert/strict";
import { settleWhenQuiet } from "./memory_settle.ts";

const MIB = 1024 * 1024;

/** A server's state as the settle sees it, a heap that a collection shrinks, and a count of looks. */
function harness(options: { gapMs?: number; maxCollections?: number } = {}) {
  const state = {
    requests: 0,
    /** A request starts between every two looks. */
    traffic: false,
    busy: false,
    heapTotal: 20 * MIB,
    heapUsed: 12 * MIB,
    ticks: 0,
    looks: 0,
    clock: 0,
  };
  let collected = 0;
  const requests = () => {
    state.ticks++;
    return state.traffic ? ++state.requests : state.requests;
  };
  const settle = settleWhenQuiet(requests, () => state.busy, {
    checkMs: 2,
    gapMs: options.gapMs ?? 0,
    maxCollections: options.maxCollections ?? Infinity,
    collector: () =>
      Promise.resolve(() => {
        collected++;
        state.heapTotal = state.heapUsed + MIB;
      }),
    heap: () => {
      state.looks++;
      return { heapTotal: state.heapTotal, heapUsed: state.heapUsed };
    },
    now: () => state.clock,
  });
  // The settle's timer never keeps the process alive; this one does while a test waits.
  const alive = setInterval(() => {}, 5);
  const until = async (done: () => boolean) => {
    while (!done()) await new Promise((resolve) => setTimeout(resolve, 2));
  };
  /** Waits for `n` more looks at the heap (quiet ones only read it). */
  const looks = (n: number) => {
    const target = state.looks + n;
    return until(() => state.looks >= target);
  };
  /** Waits for `n` more turns of the settle's timer. */
  const ticks = (n: number) => {
    const target = state.ticks + n;
    return until(() => state.ticks >= target);
  };
  const close = () => {
    settle.stop();
    clearInterval(alive);
  };
  return { state, settle, collected: () => collected, until, looks, ticks, close };
}

Deno.test("memory settle: a quiet server with room in its heap collects once, and again only after growth", async () => {
  const h = harness();
  try {
    await h.until(() => h.collected() === 1);
    assert.equal(h.settle.collections, 1);
    assert.equal(h.state.heapTotal, 13 * MIB);
    // The heap did not grow since: quiet looks do not collect again.
    h.state.heapUsed = 8 * MIB; // more room, but no growth
    await h.looks(5);
    assert.equal(h.collected(), 1);
    // A request's work grew the heap: the next quiet look collects.
    h.state.requests++;
    h.state.heapTotal = 30 * MIB;
    h.state.heapUsed = 16 * MIB;
    await h.until(() => h.collected() === 2);
  } finally {
    h.close();
  }
});

Deno.test("memory settle: nothing while a request runs, nor with little room", async () => {
  const h = harness();
  try {
    h.state.busy = true;
    await h.ticks(5);
    assert.equal(h.collected(), 0);
    assert.equal(h.state.looks, 0, "a busy server's heap is not even read");
    h.state.busy = false;
    h.state.heapUsed = h.state.heapTotal - 3 * MIB; // less than 4 MiB of room
    await h.looks(5);
    assert.equal(h.collected(), 0);
    h.state.heapUsed = 12 * MIB;
    await h.until(() => h.collected() === 1);
  } finally {
    h.close();
  }
});

Deno.test("memory settle: requests started since the last look make it wait for the next", async () => {
  const h = harness();
  try {
    h.state.traffic = true;
    await h.ticks(5);
    assert.equal(h.collected(), 0);
    assert.equal(h.state.looks, 0, "never quiet: the heap is not even read");
    h.state.traffic = false;
    await h.until(() => h.collected() === 1);
  } finally {
    h.close();
  }
});

Deno.test("memory settle: at most one collection per gap", async () => {
  const h = harness({ gapMs: 1_000 });
  try {
    await h.until(() => h.collected() === 1);
    h.state.heapTotal = 30 * MIB;
    await h.ticks(5);
    assert.equal(h.collected(), 1, "within the gap");
    h.state.clock = 1_000;
    await h.until(() => h.collected() === 2);
  } finally {
    h.close();
  }
});

Deno.test("memory settle: V8's collection gives back the heap's room after a start's garbage", async () => {
  // A start's garbage: many small objects made and dropped, the heap grown for them.
  let garbage: unknown[] | null = [];
  for (let i = 0; i < 300_000; i++) garbage.push({ i, text: `module ${i}` });
  garbage = null;
  const before = Deno.memoryUsage().heapTotal;
  const settle = settleWhenQuiet(() => 0, () => false, { checkMs: 2, roomBytes: 0 });
  const alive = setInterval(() => {}, 5);
  try {
    while (settle.collections === 0) await new Promise((resolve) => setTimeout(resolve, 2));
  } finally {
    settle.stop();
    clearInterval(alive);
  }
  const after = Deno.memoryUsage().heapTotal;
  assert.ok(after < before, `heapTotal ${before} → ${after}`);
  assert.equal(garbage, null);
});

Deno.test("memory settle: it stops after its last allowed collection", async () => {
  const h = harness({ maxCollections: 2 });
  try {
    await h.until(() => h.collected() === 1);
    h.state.heapTotal = 30 * MIB;
    await h.until(() => h.collected() === 2);
    h.state.heapTotal = 30 * MIB;
    const ticks = h.state.ticks;
    for (let turn = 0; turn < 10; turn++) await new Promise((resolve) => setTimeout(resolve, 4));
    assert.equal(h.collected(), 2);
    assert.equal(h.state.ticks, ticks, "no more looks");
  } finally {
    h.close();
  }
});
