// One module imported in a fresh process (bench/import_costs.ts): prints the import's time and the RSS after.
import { pathToFileURL } from "node:url";
import { resolve } from "node:path";

const module = Deno.args[0] ?? "";
const started = performance.now();
if (module) await import(module.startsWith(".") ? pathToFileURL(resolve(module)).href : module);
const importMs = performance.now() - started;
// Let lazily started threads settle before reading the memory.
await new Promise((resolve) => setTimeout(resolve, 300));
const status = Deno.readTextFileSync("/proc/self/status");
const rssMiB = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? NaN) / 1024;
const { heapUsed, heapTotal } = Deno.memoryUsage();
console.log(
  JSON.stringify({ importMs, rssMiB, heapMiB: heapUsed / 1048576, heapTotalMiB: heapTotal / 1048576 }),
);
