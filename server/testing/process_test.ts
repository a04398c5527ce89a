// The server-process helper's cleanup: the worker processes of a server a test killed itself are waited for
// before the storage folder is removed (once the server is dead they are no longer its children).
import assert from "node:assert/strict";
import { commandLineOf, descendantPids, processRunning, startServerProcess } from "./process.ts";

/** Uploads an HTML file (parsed in a worker process) until a parse worker of the server is seen; gives its pid. */
async function parseWorkerOf(server: { url: string; pid: number }): Promise<number> {
  for (let attempt = 1;; attempt++) {
    const form = new FormData();
    form.append("file", new File([`<html><body><p>Herons, take ${attempt}.</p></body></html>`], "h.html"));
    const response = await fetch(`${server.url}/api/workspace/herons/upload`, { method: "POST", body: form });
    assert.equal(response.status, 200, await response.text());
    // An idle worker exits after a while: on a loaded machine it may be gone already, then another upload.
    const worker = descendantPids(server.pid).find((pid) => commandLineOf(pid).includes("parse-worker"));
    if (worker !== undefined) return worker;
    assert.ok(attempt < 20, "no parse worker was ever seen");
  }
}

Deno.test({
  name:
    "a server killed by the test: the dispose waits for the workers it had, and says so if one outlives it",
  ignore: Deno.build.os !== "linux",
  async fn() {
    const storage = await Deno.makeTempDir({ prefix: "lectern-process-" });
    let worker = 0;
    try {
      const server = await startServerProcess({ STORAGE_DIR: storage }, 30_000, { workersEndMs: 1_000 });
      try {
        const created = await fetch(`${server.url}/api/workspace/new`, {
          method: "POST",
          body: JSON.stringify({ name: "Herons" }),
        });
        assert.equal(created.status, 200, await created.text());
        worker = await parseWorkerOf(server);
        // Frozen, the worker cannot end with its server: it stands for one that goes on writing after it.
        Deno.kill(worker, "SIGSTOP");
        await server.kill("SIGKILL");
        assert.notEqual(await server.exited(), 0);
        assert.ok(processRunning(worker), "the worker outlived its server");
      } finally {
        await assert.rejects(
          server[Symbol.asyncDispose](),
          new RegExp(`Worker processes still ran 1 s after their server ended:\\n${worker}: .*parse-worker`),
        );
      }
      assert.ok(!processRunning(worker), "the dispose stopped the worker that outlived its server");
    } finally {
      if (worker && processRunning(worker)) Deno.kill(worker, "SIGKILL");
      await Deno.remove(storage, { recursive: true });
    }
  },
});
