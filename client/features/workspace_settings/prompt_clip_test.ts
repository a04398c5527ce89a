import assert from "node:assert/strict";
import { CLIP_CHARS, CLIP_LINES, clipPrompt } from "./prompt_clip.ts";

Deno.test("clipPrompt() keeps a short prompt whole", () => {
  assert.deepEqual(clipPrompt("Answer briefly.\nCite sources."), {
    text: "Answer briefly.\nCite sources.",
    clipped: false,
  });
  const exact = "x".repeat(CLIP_CHARS);
  assert.deepEqual(clipPrompt(exact), { text: exact, clipped: false });
});

Deno.test("clipPrompt() cuts a long prompt at the character limit with an ellipsis", () => {
  const { text, clipped } = clipPrompt(`${"a".repeat(CLIP_CHARS - 1)} tail beyond the limit`);
  assert.equal(clipped, true);
  assert.equal(text, `${"a".repeat(CLIP_CHARS - 1)}…`, "the space before the cut goes too");
});

Deno.test("clipPrompt() cuts a prompt of many short lines after the line limit", () => {
  const lines = Array.from({ length: CLIP_LINES + 2 }, (_, index) => `Rule ${index + 1}.`);
  const { text, clipped } = clipPrompt(lines.join("\n"));
  assert.equal(clipped, true);
  assert.equal(text, `${lines.slice(0, CLIP_LINES).join("\n")}\n…`, "the ellipsis on a line of its own");
});

Deno.test("clipPrompt() cuts long lines within the line limit at the character limit", () => {
  const lines = ["x".repeat(CLIP_CHARS), "second line"];
  assert.deepEqual(clipPrompt(lines.join("\n")), { text: `${"x".repeat(CLIP_CHARS)}…`, clipped: true });
});
