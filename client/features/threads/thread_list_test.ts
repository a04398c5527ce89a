import assert from "node:assert/strict";
import {
  markedDeletedIn,
  renamedIn,
  rowState,
  showsOneOf,
  type ThreadEvent,
  toggledMark,
  withoutThreads,
  withThreadEvent,
} from "./thread_list.ts";

const LIST = [{ id: 1, slug: "a", name: "Alpha" }, { id: 2, slug: "b", name: "Beta" }];

Deno.test("renamedIn() renames only the thread with that slug, and leaves a loading list alone", () => {
  assert.deepEqual(renamedIn(LIST, { slug: "b", name: "Budget" }), [LIST[0], {
    id: 2,
    slug: "b",
    name: "Budget",
  }]);
  assert.deepEqual(renamedIn(LIST, { slug: "zz", name: "x" }), LIST);
  assert.equal(renamedIn(null, { slug: "a", name: "x" }), null);
});

Deno.test("markedDeletedIn() keeps the thread, marked deleted, and withoutThreads() takes threads out", () => {
  assert.deepEqual(markedDeletedIn(LIST, "a"), [{ ...LIST[0], deleted: true }, LIST[1]]);
  assert.deepEqual(withoutThreads(LIST, ["a"]), [LIST[1]]);
  assert.deepEqual(withoutThreads(LIST, ["a", "b"]), []);
  assert.equal(markedDeletedIn(null, "a"), null);
  assert.equal(withoutThreads(null, ["a"]), null);
});

Deno.test("toggledMark() marks and unmarks without changing the set it was given", () => {
  const none: ReadonlySet<string> = new Set();
  const one = toggledMark(none, "a");
  assert.deepEqual([...one], ["a"]);
  assert.deepEqual([...none], [], "a new set");
  assert.deepEqual([...toggledMark(one, "b")], ["a", "b"]);
  assert.deepEqual([...toggledMark(one, "a")], []);
});

Deno.test("showsOneOf() is true only when the page shows one of the named threads", () => {
  assert.equal(showsOneOf("a", ["a", "b"]), true);
  assert.equal(showsOneOf("c", ["a", "b"]), false);
  assert.equal(showsOneOf(null, ["a"]), false, "the default thread");
  assert.equal(showsOneOf(undefined, ["a"]), false, "a page without a chat");
});

Deno.test("rowState() tells a marked, a deleted and the current thread apart", () => {
  const marked = new Set(["b"]);
  assert.deepEqual(rowState(LIST[0], marked, "a"), { isMarked: false, gone: false, active: true });
  assert.deepEqual(rowState(LIST[1], marked, "a"), { isMarked: true, gone: true, active: false });
  assert.deepEqual(rowState({ ...LIST[0], deleted: true }, new Set(), null), {
    isMarked: false,
    gone: true,
    active: false,
  });
});

Deno.test("withThreadEvent() applies a rename or a fork heard while the list loaded, to a list read before or after it", () => {
  const heard: ThreadEvent[] = [
    { kind: "renamed", slug: "b", name: "Budget" },
    { kind: "created", id: 3, slug: "c", name: "Copy" },
  ];
  const expected = [LIST[0], { ...LIST[1], name: "Budget" }, { id: 3, slug: "c", name: "Copy" }];
  // Read before the events: they are applied to it.
  assert.deepEqual(heard.reduce(withThreadEvent, LIST), expected);
  // Read after them: it has them already, and applying them again changes nothing.
  assert.deepEqual(heard.reduce(withThreadEvent, expected), expected);
  assert.equal(withThreadEvent(null, heard[0]), null);
});
