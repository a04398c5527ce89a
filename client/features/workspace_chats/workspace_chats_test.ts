import assert from "node:assert/strict";
import { exportFileName } from "../../../shared/api/workspace_chats.ts";
import { exportPath, offsetFrom, preview, responseText } from "./workspace_chats.ts";

Deno.test("preview: short one-line texts whole, longer ones cut to 40 characters with an ellipsis", () => {
  assert.deepEqual(preview("What is a heron?"), { text: "What is a heron?", cut: false });
  const long = "The reading room opens at nine and closes at six, every day but Sunday.";
  const cut = preview(long);
  assert.equal(cut.cut, true);
  assert.equal(cut.text.length, 40);
  assert.ok(cut.text.endsWith("…"));
  assert.ok(long.startsWith(cut.text.slice(0, -1)));
  assert.deepEqual(preview("two\nlines"), { text: "two lines", cut: true }, "line breaks: the whole differs");
  assert.deepEqual(preview(""), { text: "", cut: false });
});

Deno.test("responseText: the stored answer's text, empty when the JSON holds none", () => {
  assert.equal(responseText(JSON.stringify({ text: "A bird.", sources: [] })), "A bird.");
  assert.equal(responseText(JSON.stringify({ sources: [] })), "");
  assert.equal(responseText("not json"), "");
  assert.equal(responseText("null"), "");
});

Deno.test("offsetFrom: the page number in the query, 0 when missing or not a whole number", () => {
  assert.equal(offsetFrom("?offset=3"), 3);
  assert.equal(offsetFrom(""), 0);
  for (const bad of ["?offset=-1", "?offset=1.5", "?offset=abc"]) assert.equal(offsetFrom(bad), 0, bad);
});

Deno.test("the export's call and its file's name per type", () => {
  assert.equal(exportPath("jsonAlpaca"), "/system/export-chats?type=jsonAlpaca&chatType=workspace");
  const day = new Date(2026, 0, 5);
  assert.equal(exportFileName("csv", day), "lectern-chats-2026-01-05.csv");
  assert.equal(exportFileName("json", day), "lectern-chats-2026-01-05.json");
  assert.equal(exportFileName("jsonl", day), "lectern-chats-2026-01-05-lines.jsonl");
  assert.equal(exportFileName("jsonAlpaca", day), "lectern-chats-2026-01-05-alpaca.json");
});
