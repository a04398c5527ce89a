import assert from "node:assert/strict";
import { workerCommand } from "./worker_command.ts";

Deno.test("a worker under deno run loads the installed node_modules as they are, with the project's config", () => {
  const { command, args } = workerCommand(
    new URL("./documents/parse_worker.ts", import.meta.url).href,
    "parse-worker",
    {
      memoryMb: 64,
    },
    ["--max-old-space-size=64"],
  );
  assert.equal(command, Deno.execPath());
  // The tests run from a checkout with node_modules installed (deno install): no lock taken at each start.
  assert.ok(args.includes("--node-modules-dir=manual"), args.join(" "));
  assert.ok(args.includes("--v8-flags=--max-old-space-size=64"));
  assert.equal(args[args.indexOf("--config") + 1], new URL("../deno.json", import.meta.url).pathname);
  assert.deepEqual(args.slice(-2), ["parse-worker", JSON.stringify({ memoryMb: 64 })]);
});
