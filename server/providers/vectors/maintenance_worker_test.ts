import assert from "node:assert/strict";
import { lanceThreads, runMaintenance } from "./maintenance_worker.ts";
import { openLanceStore } from "./lancedb.ts";
import { nodeModulesFlag } from "../../worker_command.ts";
import { descendantPids, processesEnded } from "../../testing/process.ts";

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

Deno.test({
  name:
    "a maintenance process ends with the server that started it, even when that one is killed with SIGKILL",
  ignore: Deno.build.os !== "linux",
  async fn() {
    const directory = await Deno.makeTempDir({ prefix: "lectern-maintenance-orphan-" });
    const store = await openLanceStore(directory, { maintenanceDelayMs: 3_600_000 });
    const versions = () => [...Deno.readDirSync(`${directory}/ws1_abc.lance/_versions`)].length;
    try {
      for (let batch = 0; batch < 3; batch++) {
        await store.upsert("ws1_abc", [{
          id: `${batch}`,
          docId: `doc-${batch}`,
          vector: unit(batch),
          text: `chunk of batch ${batch} about herons`,
          metadata: { title: `doc-${batch}.txt` },
        }]);
      }
      await store.close();
      const before = versions();
      // A stand-in for the server: it starts a compaction of the table, then waits.
      const script = `${directory}/parent.ts`;
      await Deno.writeTextFile(
        script,
        `import { runMaintenance } from ${
          JSON.stringify(new URL("./maintenance_worker.ts", import.meta.url).href)
        };
runMaintenance(${
          JSON.stringify({
            kind: "maintain",
            directory,
            namespace: "ws1_abc",
            keepVersionsMs: 0,
            fullText: false,
          })
        });
setInterval(() => {}, 1000);
`,
      );
      const parent = new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", ...nodeModulesFlag(), script],
        stdout: "null",
        stderr: "null",
      }).spawn();
      let worker: number | undefined;
      for (let waited = 0; worker === undefined && waited < 30_000; waited += 10) {
        worker = descendantPids(parent.pid)[0];
        if (worker === undefined) await new Promise((resolve) => setTimeout(resolve, 10));
      }
      assert.ok(worker, "The stand-in never started a maintenance process.");
      // The worker is still starting (loading LanceDB) when its parent dies.
      parent.kill("SIGKILL");
      await parent.status;
      assert.deepEqual(
        await processesEnded([worker]),
        [],
        "The maintenance process outlived the process that started it.",
      );
      // It ended without compacting: no version was written after its parent died (an ended process writes no
      // more, so there is nothing to wait for).
      assert.equal(versions(), before);
    } finally {
      await store.close();
      await Deno.remove(directory, { recursive: true });
    }
  },
});
