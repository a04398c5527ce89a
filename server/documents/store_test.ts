import assert from "node:assert/strict";
import { wordCount } from "./store.ts";

Deno.test("wordCount counts the pieces between single spaces, as the reference's split does", () => {
  for (const text of ["", "one", "one two", "one  two", " one ", "one\ntwo three", "   ", "a b c d e f"]) {
    assert.equal(wordCount(text), text.split(" ").length, JSON.stringify(text));
  }
  assert.equal(wordCount("one two three"), 3);
});
