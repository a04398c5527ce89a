import assert from "node:assert/strict";
import { DEFAULT_THREAD_NAME, FORKED_THREAD_NAME, THREAD_NAME_CHARS, threadNameFrom } from "./threads.ts";

Deno.test("threadNameFrom() keeps a short message whole, with its white space folded", () => {
  assert.equal(threadNameFrom("  What is\n\tLectern? "), "What is Lectern?");
  assert.equal(threadNameFrom("x".repeat(THREAD_NAME_CHARS)), "x".repeat(THREAD_NAME_CHARS));
});

Deno.test("threadNameFrom() cuts a long message to 22 characters and an ellipsis", () => {
  assert.equal(threadNameFrom("What is the capital of France, and why?"), "What is the capital of…");
  assert.equal(threadNameFrom("x".repeat(THREAD_NAME_CHARS + 1)), `${"x".repeat(THREAD_NAME_CHARS)}…`);
});

Deno.test("threadNameFrom() gives the default name, or the one asked for, when there is no text", () => {
  assert.equal(threadNameFrom(""), DEFAULT_THREAD_NAME);
  assert.equal(threadNameFrom(" \n "), "Thread");
  assert.equal(threadNameFrom("", FORKED_THREAD_NAME), "Forked Thread");
});
