import assert from "node:assert/strict";
import { createLimiter } from "./limiter.ts";

Deno.test("createLimiter() runs at most max tasks at once, in order, and frees a place when a task fails", async () => {
  const limiter = createLimiter(() => 2);
  let peak = 0;
  const order: number[] = [];
  const task = (index: number) =>
    limiter.run(async () => {
      peak = Math.max(peak, limiter.running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      order.push(index);
      if (index === 1) throw new Error("task 1 failed");
      return index;
    });
  const results = await Promise.allSettled([0, 1, 2, 3, 4].map(task));
  assert.equal(peak, 2);
  assert.deepEqual(order, [0, 1, 2, 3, 4]);
  assert.equal(results[1].status, "rejected");
  assert.deepEqual(results.filter((result) => result.status === "fulfilled").map((result) => result.value), [
    0,
    2,
    3,
    4,
  ]);
  assert.equal(limiter.running, 0);
});
