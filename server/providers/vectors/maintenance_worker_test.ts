import assert from "node:assert/strict";
import { lanceThreads, runMaintenance } from "./maintenance_worker.ts";
import { openLanceStore } from "./lancedb.ts";

function unit(index: number): number[] {
  const vector = Array.from({ length: 8 }, (_, position) => (position === index % 8 ? 1 : 0.1));
  const norm = Math.hypot(...vector);
  return vector.map((value) => value / norm);
}

Deno.test("a maintenance process compacts a table and gives its rows; a missing table and a stall are clear errors", async () => {
  const directory = await Deno.makeTempDir({ prefix: "lectern-maintenance-" });
  // Maintenance never starts on its own here: the tasks below run it by hand.
  const store = await openLanceStore(directory, { maintenanceDelayMs: 3_600_000 });
  try {
    for (let batch = 0; batch < 3; batch++) {
      await store.upsert(
        "ws1_abc",
        Array.from({ length: 5 }, (_, index) => ({
          id: `${batch}-${index}`,
          docId: `doc-${batch}`,
          vector: unit(index),
          text: `chunk ${index} of batch ${batch} about herons`,
          metadata: { title: `doc-${batch}.txt` },
        })),
      );
    }
    // Old versions are kept for a while: the server's handle reads its own until it moves to the latest.
    const base = { directory, namespace: "ws1_abc", keepVersionsMs: 600_000, fullText: false };
    assert.deepEqual(await runMaintenance({ kind: "maintain", ...base }).result, { ok: true, rows: 15 });
    // The server's handle still answers after another process rewrote the table.
    assert.equal(await store.count("ws1_abc"), 15);
    const hits = await store.search("ws1_abc", unit(2), { topK: 3, text: "herons" });
    assert.equal(hits.length, 3);

    const missing = await runMaintenance({ kind: "maintain", ...base, namespace: "ws9_none" }).result;
    assert.equal(missing.ok, false);

    const stalled = await runMaintenance({ kind: "maintain", ...base }, 1).result;
    assert.deepEqual(stalled, {
      ok: false,
      error: "The vector maintenance process took longer than 0.001 s.",
    });
  } finally {
    await store.close();
    await Deno.remove(directory, { recursive: true });
  }
});

Deno.test("Lance's CPU pool gets more threads than a small machine's cores, unless the operator sets them", () => {
  const saved = Deno.env.get("LANCE_CPU_THREADS");
  try {
    Deno.env.delete("LANCE_CPU_THREADS");
    assert.ok(Number(lanceThreads()) >= 8);
    Deno.env.set("LANCE_CPU_THREADS", "3");
    assert.equal(lanceThreads(), "3");
  } finally {
    if (saved === undefined) Deno.env.delete("LANCE_CPU_THREADS");
    else Deno.env.set("LANCE_CPU_THREADS", saved);
  }
});
