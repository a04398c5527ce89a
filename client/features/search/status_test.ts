import assert from "node:assert/strict";
import type { SearchAnswer } from "../../../shared/api/search.ts";
import { searchView } from "./status.ts";

const ANSWER: SearchAnswer = {
  workspaces: [{ slug: "notes", name: "Notes" }],
  threads: [{ slug: "t", name: "Notes on trip", workspace: { slug: "notes", name: "Notes" } }],
};
const NONE: SearchAnswer = { workspaces: [], threads: [] };

Deno.test("searchView() waits for three characters before it searches", () => {
  const view = searchView("no", { term: "no", answer: ANSWER });
  assert.equal(view.active, false);
  assert.deepEqual(view.status, { kind: "tooShort" });
  assert.equal(searchView("not", null).active, true);
});

Deno.test("searchView() counts the workspaces and threads found for the term as typed", () => {
  const view = searchView("notes", { term: "notes", answer: ANSWER });
  assert.deepEqual(view.status, { kind: "found", count: 2 });
  assert.equal(view.count, 2);
  assert.equal(view.shown, ANSWER);
  assert.deepEqual(searchView("zzz", { term: "zzz", answer: NONE }).status, { kind: "noResults" });
});

Deno.test("searchView() keeps the last results shown while the next term's answer is on its way", () => {
  const view = searchView("notes2", { term: "notes", answer: ANSWER });
  assert.deepEqual(view.status, { kind: "searching" });
  assert.equal(view.current, null, "no answer of the term as typed: Enter follows nothing");
  assert.equal(view.shown, ANSWER);
  assert.deepEqual(searchView("notes", null).status, { kind: "searching" });
});

Deno.test("searchView() reports a failed search of the term as typed, and shows no results then", () => {
  const view = searchView("notes", { term: "notes", error: "Cannot reach the server." });
  assert.deepEqual(view.status, { kind: "failed", error: "Cannot reach the server." });
  assert.equal(view.shown, null);
  assert.equal(view.count, 0);
  assert.deepEqual(searchView("other", { term: "notes", error: "x" }).status, { kind: "searching" });
});
