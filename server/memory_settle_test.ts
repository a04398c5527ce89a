import assert from "node:assert/strict";
import { settleAfterStart } from "./memory_settle.ts";

/** Waits for a settle's outcome; its timers never keep the process alive, so this interval does meanwhile. */
async function outcome(settle: { settled: Promise<boolean> }): Promise<boolean> {
  const alive = setInterval(() => {}, 5);
  try {
    return await settle.settled;
  } finally {
    clearInterval(alive);
  }
}

/** A collector that counts its calls. */
function counting() {
  const calls = { loaded: 0, collected: 0 };
  const collector = () => {
    calls.loaded++;
    return Promise.resolve(() => {
      calls.collected++;
    });
  };
  return { calls, collector };
}

Deno.test("memory settle: one full collection once the delay has passed, on a quiet server", async () => {
  const { calls, collector } = counting();
  const settle = settleAfterStart(() => false, { delayMs: 10, collector });
  assert.equal(calls.collected, 0, "nothing runs before the delay");
  assert.equal(await outcome(settle), true);
  assert.equal(calls.collected, 1);
  // Never again: later turns do not exist.
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.equal(calls.collected, 1);
  settle.stop();
});

Deno.test("memory settle: waits while the server is busy, and collects at the first quiet try", async () => {
  const { calls, collector } = counting();
  let asked = 0;
  const settle = settleAfterStart(() => ++asked < 4, { delayMs: 5, tries: 10, collector });
  assert.equal(await outcome(settle), true);
  assert.equal(calls.collected, 1);
  assert.equal(asked, 5, "three busy tries, then the quiet one (asked again after the collector loaded)");
});

Deno.test("memory settle: gives up after its tries when the server is never quiet", async () => {
  const { calls, collector } = counting();
  let asked = 0;
  const settle = settleAfterStart(() => (asked++, true), { delayMs: 5, tries: 3, collector });
  assert.equal(await outcome(settle), false);
  assert.equal(asked, 3);
  assert.equal(calls.loaded, 0);
  assert.equal(calls.collected, 0);
});

Deno.test("memory settle: a stop before the delay cancels it; without a collector nothing runs", async () => {
  const { calls, collector } = counting();
  const stopped = settleAfterStart(() => false, { delayMs: 20, collector });
  stopped.stop();
  assert.equal(await outcome(stopped), false);
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.equal(calls.loaded, 0);
  assert.equal(calls.collected, 0);
  const none = settleAfterStart(() => false, { delayMs: 5, collector: () => Promise.resolve(null) });
  assert.equal(await outcome(none), false);
});

Deno.test("memory settle: V8's collection gives back the heap's room after a start's garbage", async () => {
  // A start's garbage: many small objects made and dropped, the heap grown for them.
  let garbage: unknown[] | null = [];
  for (let i = 0; i < 300_000; i++) garbage.push({ i, text: `module ${i}` });
  garbage = null;
  const before = Deno.memoryUsage().heapTotal;
  const settle = settleAfterStart(() => false, { delayMs: 1 });
  assert.equal(await outcome(settle), true);
  const after = Deno.memoryUsage().heapTotal;
  assert.ok(after < before, `heapTotal ${before} → ${after}`);
  assert.equal(garbage, null);
});
