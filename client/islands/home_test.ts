import assert from "node:assert/strict";
import { recentFirst } from "./Home.tsx";

Deno.test("home lists the most recently updated workspaces first", () => {
  const workspaces = [
    { id: 1, name: "Alpha", lastUpdatedAt: "2026-01-01T10:00:00.000Z" },
    { id: 2, name: "Beta", lastUpdatedAt: "2026-03-01T10:00:00.000Z" },
    { id: 3, name: "Gamma", lastUpdatedAt: "2026-02-01T10:00:00.000Z" },
    { id: 4, name: "Delta", lastUpdatedAt: "2026-03-01T10:00:00.000Z" },
  ];
  assert.deepEqual(recentFirst(workspaces).map((workspace) => workspace.name), [
    "Delta",
    "Beta",
    "Gamma",
    "Alpha",
  ]);
  assert.equal(workspaces[0].name, "Alpha", "the list given is left as it was");
});
