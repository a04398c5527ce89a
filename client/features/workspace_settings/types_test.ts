import assert from "node:assert/strict";
import { orNull } from "./types.ts";

Deno.test("orNull() sends a blank text as null and any other text as it is", () => {
  assert.equal(orNull(""), null);
  assert.equal(orNull("  \n"), null);
  assert.equal(orNull(" kept "), " kept ");
});
