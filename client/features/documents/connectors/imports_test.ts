import assert from "node:assert/strict";
import type { ConnectorImport } from "../../../../shared/api/connectors.ts";
import { mergeImports } from "./imports.ts";

function entry(id: string, status: ConnectorImport["status"], startedAt: string, done = 0): ConnectorImport {
  return {
    id,
    source: "github",
    label: `owner/${id}`,
    folder: id,
    status,
    found: 10,
    done,
    skipped: 0,
    added: 0,
    updated: 0,
    unchanged: 0,
    removed: 0,
    reason: null,
    startedAt,
    finishedAt: status === "running" ? null : startedAt,
  };
}

Deno.test("mergeImports: fresh entries replace shown ones by id, newest first", () => {
  const shown = [entry("a", "running", "2026-01-01T00:00:00Z", 1)];
  const merged = mergeImports(shown, [
    entry("a", "running", "2026-01-01T00:00:00Z", 5),
    entry("b", "running", "2026-01-02T00:00:00Z"),
  ]);
  assert.deepEqual(merged.map((item) => [item.id, item.done]), [["b", 0], ["a", 5]]);
});

Deno.test("mergeImports: a late 'running' answer does not bring back an import that has ended", () => {
  const ended = [entry("a", "done", "2026-01-01T00:00:00Z", 10)];
  const merged = mergeImports(ended, [entry("a", "running", "2026-01-01T00:00:00Z", 3)]);
  assert.deepEqual(merged.map((item) => [item.id, item.status, item.done]), [["a", "done", 10]]);
  // An end still replaces a running entry.
  const finished = mergeImports([entry("a", "running", "2026-01-01T00:00:00Z")], [
    entry("a", "failed", "2026-01-01T00:00:00Z"),
  ]);
  assert.equal(finished[0].status, "failed");
});
