import assert from "node:assert/strict";
import { fileOf, formatCount, formatPublished, workspaceDocumentInfo } from "./format.ts";

Deno.test("formatCount() groups thousands the English way", () => {
  assert.equal(formatCount(0), "0");
  assert.equal(formatCount(1234567), "1,234,567");
});

Deno.test("formatPublished() shows a date the app's way, keeps text that is not a date, and nothing for none", () => {
  assert.equal(formatPublished(undefined), "");
  assert.equal(formatPublished(""), "");
  assert.equal(formatPublished("not a date"), "not a date");
  assert.match(formatPublished("2026-01-05T15:04:00"), /^Jan 5, 2026, 3:04\sPM$/);
});

Deno.test("fileOf() is the part of a location after its folder", () => {
  assert.equal(fileOf("custom-documents/notes.md-1.json"), "notes.md-1.json");
  assert.equal(fileOf("notes.json"), "notes.json");
});

Deno.test("workspaceDocumentInfo() reads title and figures from the metadata, and falls back on damage", () => {
  const metadata = JSON.stringify({
    title: "Notes",
    chunkSource: "link://https://example.org",
    published: "1/2/2026",
    wordCount: 120,
    token_count_estimate: 160,
  });
  assert.deepEqual(workspaceDocumentInfo(metadata, "notes.json"), {
    title: "Notes",
    chunkSource: "link://https://example.org",
    published: "1/2/2026",
    words: 120,
    tokens: 160,
  });
  const empty = { title: "notes.json", chunkSource: "", published: "", words: null, tokens: null };
  assert.deepEqual(workspaceDocumentInfo(null, "notes.json"), empty);
  assert.deepEqual(workspaceDocumentInfo("{broken", "notes.json"), empty);
  assert.deepEqual(workspaceDocumentInfo('"text"', "notes.json"), empty);
  assert.deepEqual(
    workspaceDocumentInfo(JSON.stringify({ title: 5, wordCount: "120" }), "notes.json"),
    empty,
    "fields of the wrong type are ignored",
  );
});
