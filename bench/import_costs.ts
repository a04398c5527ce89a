// What each module costs the server at start: for each, a fresh `deno run` imports it alone and reports the
// time the import took and the process's resident memory after it, beside a process that imports nothing.
// `deno run -A bench/import_costs.ts [module ...]` (paths relative to the repository, or bare npm names).
import { fileURLToPath } from "node:url";

const probe = fileURLToPath(new URL("./import_probe.ts", import.meta.url));
const root = fileURLToPath(new URL("../", import.meta.url));
const RUNS = Number(Deno.env.get("BENCH_RUNS") ?? 3);

const modules = Deno.args.length > 0 ? Deno.args : [
  "",
  "hono",
  "zod",
  "drizzle-orm",
  "@libsql/client",
  "jose",
  "react",
  "react-dom/server",
  "hono-openapi",
  "pdfkit",
  "fast-xml-parser",
  "modern-tar",
  "markdown-it",
  "highlight.js/lib/common",
  "@lancedb/lancedb",
  "openai",
  "@node-rs/argon2",
  "./db/client.ts",
  "./server/config.ts",
  "./server/boot.ts",
  "./server/app.ts",
  "./server/serve.ts",
  // Loaded on first use (server/http/lazy_routes.ts, the MCP hub's SDK): what a start no longer pays.
  "./server/connectors/routes.ts",
  "./server/oidc/routes.ts",
  "./server/agents/mcp/routes.ts",
  "@modelcontextprotocol/sdk/client/index.js",
];

interface Cost {
  module: string;
  importMs: number;
  rssMiB: number;
}

async function once(module: string): Promise<Cost> {
  const output = await new Deno.Command(Deno.execPath(), {
    // As the server runs (`deno task lectern`): without a manual node_modules, a module imported with
    // `import()` pays an npm resolution pass per npm import, which would dwarf what the module itself costs.
    args: ["run", "-A", "--node-modules-dir=manual", probe, module],
    cwd: root,
    stdout: "piped",
    stderr: "inherit",
  }).output();
  const text = new TextDecoder().decode(output.stdout).trim().split("\n").pop() ?? "{}";
  return { module: module || "(nothing)", ...JSON.parse(text) };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
console.log(`Import costs (${RUNS} runs each, median; deno ${Deno.version.deno})`);
console.log("| module | import time | RSS after |");
console.log("| --- | --- | --- |");
const rows: Cost[] = [];
for (const module of modules) {
  const runs: Cost[] = [];
  for (let run = 0; run < RUNS; run++) runs.push(await once(module));
  const row = {
    module: runs[0].module,
    importMs: median(runs.map((run) => run.importMs)),
    rssMiB: median(runs.map((run) => run.rssMiB)),
  };
  rows.push(row);
  console.log(`| ${row.module} | ${row.importMs.toFixed(0)} ms | ${row.rssMiB.toFixed(1)} MiB |`);
}
console.log(JSON.stringify({ benchmark: "import_costs", rows }));
