import assert from "node:assert/strict";
import { announceThreadCreated, announceThreadRenamed, THREAD_CREATED, THREAD_RENAMED } from "./events.ts";
import { ThreadCreatedDetail, ThreadRenamedDetail } from "./schemas.ts";

/** The details of the `name` events dispatched on the window while `run` runs. */
function heard(name: string, run: () => void): unknown[] {
  const details: unknown[] = [];
  const listener = (event: Event) => details.push((event as CustomEvent).detail);
  globalThis.addEventListener(name, listener);
  try {
    run();
  } finally {
    globalThis.removeEventListener(name, listener);
  }
  return details;
}

Deno.test("announceThreadRenamed() dispatches the rename on the window under its one event name", () => {
  const details = heard(THREAD_RENAMED, () => announceThreadRenamed({ slug: "t-1", name: "Budget" }));
  assert.deepEqual(details, [{ slug: "t-1", name: "Budget" }]);
  assert.deepEqual(ThreadRenamedDetail.parse(details[0]), { slug: "t-1", name: "Budget" });
  assert.equal(heard(THREAD_CREATED, () => announceThreadRenamed({ slug: "t-1", name: "x" })).length, 0);
});

Deno.test("announceThreadCreated() dispatches the new thread; a missing name reads as the default name", () => {
  const details = heard(THREAD_CREATED, () => announceThreadCreated({ thread: { slug: "t-2" } }));
  assert.deepEqual(details, [{ thread: { slug: "t-2" } }]);
  assert.deepEqual(ThreadCreatedDetail.parse(details[0]), { thread: { slug: "t-2", name: "Thread" } });
  assert.throws(() => ThreadCreatedDetail.parse({ thread: { name: "no slug" } }));
});
