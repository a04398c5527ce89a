import assert from "node:assert/strict";
import { ADMIN_FORMS, asksViewer, readOnlyFor } from "./read_only.ts";

Deno.test("asksViewer() asks who the viewer is only on an admin-only form in multi-user mode", () => {
  assert.deepEqual(ADMIN_FORMS, ["llm-preference", "embedding-preference", "vector-database"]);
  for (const page of ADMIN_FORMS) {
    assert.equal(asksViewer(page, true), true, page);
    assert.equal(asksViewer(page, false), false, page);
    assert.equal(asksViewer(page, undefined), false, `${page} before setup loaded`);
  }
  assert.equal(asksViewer("privacy", true), false);
  assert.equal(asksViewer("text-splitter-preference", true), false);
});

Deno.test("readOnlyFor() makes the page read-only for a known viewer who may not manage settings", () => {
  assert.equal(readOnlyFor(null), false, "no viewer asked: editable");
  assert.equal(readOnlyFor({ role: "admin" }), false);
  assert.equal(readOnlyFor({ role: "manager" }), true);
  assert.equal(readOnlyFor({ role: "default" }), true);
});
