import assert from "node:assert/strict";
import { latest, readAfterChanges } from "./latest.ts";

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

Deno.test("readAfterChanges: a read overtaken by an action's answer is made again; one overtaken by a newer read gives way", async () => {
  const reads = latest();
  let changes = 0;
  const answers = [deferred<string>(), deferred<string>(), deferred<string>()];
  let made = 0;
  const read = () => answers[made++].promise;

  // An action's answer lands while the first read is on its way: that read may predate it, so it is made again.
  const first = readAfterChanges(reads, () => changes, read);
  changes++;
  answers[0].resolve("before the action");
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.equal(made, 2);
  // A newer read starts while the second is on its way: the second gives way to it, and is not made again.
  const newer = readAfterChanges(reads, () => changes, read);
  answers[1].resolve("overtaken");
  assert.equal(await first, null);
  answers[2].resolve("after the action");
  assert.equal(await newer, "after the action");
  assert.equal(made, 3);
});
