import assert from "node:assert/strict";
import { documentsModeOf, roleOfAnswer, tabsFor } from "./use_workspace_role.ts";

Deno.test("roleOfAnswer() takes only a known workspace role", () => {
  assert.equal(roleOfAnswer({ role: "editor" }), "editor");
  assert.equal(roleOfAnswer({ role: "admin" }), null);
  assert.equal(roleOfAnswer(null), null);
  assert.equal(roleOfAnswer("owner"), null);
});

Deno.test("tabsFor(): a viewer sees no settings, an editor all but the members, an owner all", () => {
  const tabs = ["general", "members", "chat"] as const;
  assert.deepEqual(tabsFor(tabs, "viewer", "members"), []);
  assert.deepEqual(tabsFor(tabs, null, "members"), []);
  assert.deepEqual(tabsFor(tabs, "editor", "members"), ["general", "chat"]);
  assert.deepEqual(tabsFor(tabs, "owner", "members"), ["general", "members", "chat"]);
});

Deno.test("documentsModeOf(): the library's managers, then the workspace role, decide the documents panel", () => {
  assert.equal(documentsModeOf(true, null), "manager");
  assert.equal(documentsModeOf(false, "owner"), "editor");
  assert.equal(documentsModeOf(false, "editor"), "editor");
  assert.equal(documentsModeOf(false, "viewer"), "reader");
  assert.equal(documentsModeOf(false, null), null, "not known yet");
  assert.equal(documentsModeOf(null, "editor"), null, "not known yet");
});
