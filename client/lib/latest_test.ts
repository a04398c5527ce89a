import assert from "node:assert/strict";
import { latest } from "./latest.ts";

/** A load whose answer arrives when the test says so. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => resolve = done);
  return { promise, resolve };
}

Deno.test("latest: an answer that arrives after a newer load started is dropped", async () => {
  const order = latest();
  const shown: string[] = [];
  async function load(answer: Promise<string>) {
    const current = order.start();
    const value = await answer;
    if (current()) shown.push(value);
  }
  const first = deferred<string>();
  const second = deferred<string>();
  const a = load(first.promise);
  const b = load(second.promise);
  second.resolve("new");
  await b;
  first.resolve("old");
  await a;
  assert.deepEqual(shown, ["new"]);
});

Deno.test("latest: answers in order are all shown; supersede drops the one under way", () => {
  const order = latest();
  const first = order.start();
  assert.equal(first(), true);
  const second = order.start();
  assert.equal(first(), false);
  assert.equal(second(), true);
  order.supersede();
  assert.equal(second(), false);
  const third = order.start();
  assert.equal(third(), true);
});
