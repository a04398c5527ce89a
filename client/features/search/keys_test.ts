import assert from "node:assert/strict";
import { moveFocus } from "./keys.ts";

Deno.test("moveFocus() goes down from the field through the results and holds at the last", () => {
  assert.equal(moveFocus("ArrowDown", -1, 3), 0);
  assert.equal(moveFocus("ArrowDown", 1, 3), 2);
  assert.equal(moveFocus("ArrowDown", 2, 3), 2);
});

Deno.test("moveFocus() goes up through the results back to the field and holds there", () => {
  assert.equal(moveFocus("ArrowUp", 2, 3), 1);
  assert.equal(moveFocus("ArrowUp", 0, 3), -1);
  assert.equal(moveFocus("ArrowUp", -1, 3), -1);
});

Deno.test("moveFocus() takes Home and End within the results only, so the field keeps its caret keys", () => {
  assert.equal(moveFocus("Home", 2, 3), 0);
  assert.equal(moveFocus("End", 0, 3), 2);
  assert.equal(moveFocus("Home", -1, 3), null);
  assert.equal(moveFocus("End", -1, 3), null);
});

Deno.test("moveFocus() moves nothing without results or for other keys", () => {
  assert.equal(moveFocus("ArrowDown", -1, 0), null);
  assert.equal(moveFocus("ArrowUp", -1, 0), null);
  assert.equal(moveFocus("Enter", 0, 3), null);
  assert.equal(moveFocus("a", -1, 3), null);
});
