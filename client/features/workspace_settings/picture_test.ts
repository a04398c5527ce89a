import assert from "node:assert/strict";
import { initials, pictureProblem } from "./picture.ts";

Deno.test("initials() takes the workspace name's first two letters in capitals, else AI", () => {
  assert.equal(initials("notes"), "NO");
  assert.equal(initials("  x"), "X");
  assert.equal(initials("   "), "AI");
});

Deno.test("pictureProblem() takes PNG, JPEG, WebP and GIF up to 5 MB", () => {
  for (const type of ["image/png", "image/jpeg", "image/webp", "image/gif"]) {
    assert.equal(pictureProblem({ type, size: 5 * 1024 * 1024 }), null, type);
  }
  assert.equal(pictureProblem({ type: "image/svg+xml", size: 10 }), "wrongType");
  assert.equal(pictureProblem({ type: "", size: 10 }), "wrongType");
  assert.equal(pictureProblem({ type: "image/png", size: 5 * 1024 * 1024 + 1 }), "tooLarge");
  assert.equal(pictureProblem({ type: "text/plain", size: 10 * 1024 * 1024 }), "wrongType", "type first");
});
