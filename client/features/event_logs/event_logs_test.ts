import assert from "node:assert/strict";
import { eventTone, exportFileName, metadataOf, pageRange } from "./event_logs.ts";

Deno.test("metadataOf: an object with fields to show, else null", () => {
  assert.deepEqual(metadataOf('{"workspaceName":"Harbour"}'), { workspaceName: "Harbour" });
  assert.equal(metadataOf("{}"), null);
  assert.equal(metadataOf(null), null);
  assert.equal(metadataOf(""), null);
  assert.equal(metadataOf("null"), null);
  assert.deepEqual(metadataOf("not json"), { value: "not json" });
  assert.deepEqual(metadataOf("[1,2]"), { value: [1, 2] });
  assert.deepEqual(metadataOf("42"), { value: 42 });
});

Deno.test("eventTone: failures and removals, logins, updates, the rest", () => {
  assert.equal(eventTone("failed_login_invalid_password"), "danger");
  assert.equal(eventTone("workspace_deleted"), "danger");
  assert.equal(eventTone("documents_removed"), "danger");
  assert.equal(eventTone("event_logs_cleared"), "danger");
  assert.equal(eventTone("login_event"), "login");
  assert.equal(eventTone("update_llm_provider"), "update");
  assert.equal(eventTone("settings_updated"), "update");
  assert.equal(eventTone("workspace_created"), "info");
});

Deno.test("exportFileName and pageRange", () => {
  assert.equal(exportFileName("csv", new Date("2026-03-04T10:00:00Z")), "event-logs-2026-03-04.csv");
  assert.equal(exportFileName("json", new Date("2026-03-04T10:00:00Z")), "event-logs-2026-03-04.json");
  assert.deepEqual(pageRange(0, 10, 10, 23), { first: 1, last: 10, total: 23 });
  assert.deepEqual(pageRange(2, 10, 3, 23), { first: 21, last: 23, total: 23 });
  assert.equal(pageRange(3, 10, 0, 23), null);
});
