import assert from "node:assert/strict";
import { DEFAULT_FOLDER } from "../../../shared/api/library.ts";
import { ALL_FOLDERS } from "./api.ts";
import {
  addBatches,
  countLabel,
  isRemovableFolder,
  moveChoice,
  movesInto,
  toggledLocation,
} from "./library.ts";

Deno.test("toggledLocation() selects and unselects a document without changing the set it was given", () => {
  const none: ReadonlySet<string> = new Set();
  const one = toggledLocation(none, "f/a.json");
  assert.deepEqual([...one], ["f/a.json"]);
  assert.deepEqual([...none], []);
  assert.deepEqual([...toggledLocation(one, "f/a.json")], []);
});

Deno.test("addBatches() leaves out what the workspace holds and cuts the rest into batches", () => {
  const selected = ["f/1.json", "f/2.json", "f/3.json", "f/4.json", "f/5.json"];
  assert.deepEqual(addBatches(selected, new Set(["f/2.json"]), 2), [["f/1.json", "f/3.json"], [
    "f/4.json",
    "f/5.json",
  ]]);
  assert.deepEqual(addBatches(selected, new Set(selected)), []);
  const many = Array.from({ length: 2001 }, (_, index) => `f/${index}.json`);
  assert.deepEqual(addBatches(many, new Set()).map((batch) => batch.length), [1000, 1000, 1]);
});

Deno.test("movesInto() keeps each document's file name in the folder it moves to", () => {
  assert.deepEqual(movesInto(["custom-documents/a.md-1.json", "old/b.json"], "notes"), [
    { from: "custom-documents/a.md-1.json", to: "notes/a.md-1.json" },
    { from: "old/b.json", to: "notes/b.json" },
  ]);
});

Deno.test("moveChoice() offers every other folder and forgets a choice no longer offered", () => {
  const folders = [DEFAULT_FOLDER, "notes", "old"].map((name) => ({
    name,
    type: "folder" as const,
    fileCount: 1,
    items: [],
  }));
  const shown = moveChoice(folders, "notes", "old");
  assert.deepEqual(shown.targets.map((shell) => shell.name), [DEFAULT_FOLDER, "old"]);
  assert.equal(shown.chosen, "old");
  assert.equal(moveChoice(folders, "notes", "notes").chosen, "", "the folder shown is no target");
  assert.equal(moveChoice(folders, "notes", "gone").chosen, "");
});

Deno.test("isRemovableFolder() refuses the default folder and the listing of every folder", () => {
  assert.equal(isRemovableFolder("notes"), true);
  assert.equal(isRemovableFolder(DEFAULT_FOLDER), false);
  assert.equal(isRemovableFolder(ALL_FOLDERS), false);
});

Deno.test("countLabel() says loading, the matches of a search, or the folder's count", () => {
  assert.deepEqual(countLabel(null, ""), { key: "documents.library.loading" });
  assert.deepEqual(countLabel(3, "budget"), { key: "documents.library.matches", count: 3 });
  assert.deepEqual(countLabel(0, ""), { key: "documents.library.count", count: 0 });
});
