// Startup benchmark: time from spawning `deno run server/main.ts` to the first 200 from /api/ping, and the
// server's resident memory (VmRSS) once idle, then again after one page view and one document embedded. Each run starts on a fresh storage folder (first start: keys,
// migrations) and again on the same folder (restart). Prints a table and a JSON line.
import { fileURLToPath } from "node:url";

const RUNS = Number(Deno.env.get("BENCH_RUNS") ?? 5);
const IDLE_MS = Number(Deno.env.get("BENCH_IDLE_MS") ?? 3000);
const main = fileURLToPath(new URL("../server/main.ts", import.meta.url));

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

function rssKiB(pid: number): number {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? NaN);
}

interface Run {
  readyMs: number;
  idleRssMiB: number;
  /** After one page view and one document uploaded and embedded (pages, LanceDB, splitter, tokenizer loaded). */
  usedRssMiB: number;
}

async function use(base: string) {
  await (await fetch(`${base}/`)).text();
  const created = await (await fetch(`${base}/api/workspace/new`, {
    method: "POST",
    body: JSON.stringify({ name: `bench ${crypto.randomUUID()}` }),
  })).json();
  const form = new FormData();
  form.append(
    "file",
    new File(["Lectern benchmark document about herons and rivers. ".repeat(100)], "bench.txt"),
  );
  const embedded = await fetch(`${base}/api/workspace/${created.workspace.slug}/upload-and-embed`, {
    method: "POST",
    body: form,
  });
  if (!(await embedded.json()).success) throw new Error("The benchmark upload failed");
  await (await fetch(`${base}/workspace/${created.workspace.slug}`)).text();
}

async function once(storage: string): Promise<Run> {
  const port = freePort();
  const started = performance.now();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", main],
    env: { STORAGE_DIR: storage, PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "warn" },
    stdout: "null",
    stderr: "inherit",
  }).spawn();
  let readyMs = NaN;
  while (performance.now() - started < 30_000) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/ping`);
      await response.body?.cancel();
      if (response.ok) {
        readyMs = performance.now() - started;
        break;
      }
    } catch {
      // not yet listening
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
  const idleRssMiB = rssKiB(child.pid) / 1024;
  await use(`http://127.0.0.1:${port}`);
  await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
  const usedRssMiB = rssKiB(child.pid) / 1024;
  child.kill("SIGTERM");
  await child.status;
  return { readyMs, idleRssMiB, usedRssMiB };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

const fresh: Run[] = [];
const restart: Run[] = [];
for (let run = 0; run < RUNS; run++) {
  const storage = await Deno.makeTempDir({ prefix: "lectern-bench-" });
  try {
    fresh.push(await once(storage));
    restart.push(await once(storage));
  } finally {
    await Deno.remove(storage, { recursive: true });
  }
}

const row = (label: string, runs: Run[]) =>
  `| ${label} | ${median(runs.map((run) => run.readyMs)).toFixed(0)} ms | ${
    Math.max(...runs.map((run) => run.readyMs)).toFixed(0)
  } ms | ${median(runs.map((run) => run.idleRssMiB)).toFixed(1)} MiB | ${
    median(runs.map((run) => run.usedRssMiB)).toFixed(1)
  } MiB |`;
console.log(`Startup (${RUNS} runs each, deno ${Deno.version.deno}, idle RSS read after ${IDLE_MS} ms)`);
console.log(
  "| start | time to first /api/ping (median) | (max) | idle RSS (median) | RSS after a page and an embed |",
);
console.log("| --- | --- | --- | --- | --- |");
console.log(row("first start, empty storage", fresh));
console.log(row("restart, existing storage", restart));
console.log(JSON.stringify({ benchmark: "startup", runs: RUNS, fresh, restart }));
