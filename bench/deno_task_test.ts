import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { parseDenoTask } from "./deno_task.ts";

Deno.test("a task's environment words are read apart from deno's arguments", () => {
  assert.deepEqual(parseDenoTask("A_B=1 C= deno run -A --v8-flags=--x=2 scripts/lectern.ts"), {
    env: { A_B: "1", C: "" },
    args: ["run", "-A", "--v8-flags=--x=2", "scripts/lectern.ts"],
  });
  assert.deepEqual(parseDenoTask("deno run main.ts"), { env: {}, args: ["run", "main.ts"] });
  assert.throws(() => parseDenoTask("A=1 node main.js"), /does not run deno/);
  assert.throws(() => parseDenoTask("A=1"), /does not run deno/);
});

Deno.test("the start and lectern tasks skip Deno's update check, the lockfile and the code cache", () => {
  // Deno's update check resolves dl.deno.land at every `deno run` (a DNS query off this host, and about
  // 1 MiB of the server's idle memory); in manual node_modules mode the lockfile is read for nothing (issue 21).
  const root = fileURLToPath(new URL("../", import.meta.url));
  const tasks = JSON.parse(Deno.readTextFileSync(`${root}deno.json`)).tasks as Record<string, string>;
  for (const name of ["start", "lectern"]) {
    const { env, args } = parseDenoTask(tasks[name]);
    assert.equal(env.DENO_NO_UPDATE_CHECK, "1", name);
    assert.ok(args.includes("--no-lock"), name);
    assert.ok(args.includes("--node-modules-dir=manual"), name);
    // No V8 code cache: 1.1-2.1 MiB less of an idle server (Deno's SQLite database of it and the heap it is read
    // into), for 20-30 ms more CPU to start and the same CPU per chat (issue 21).
    assert.ok(args.includes("--no-code-cache"), name);
  }
});
