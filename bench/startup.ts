// Startup benchmark: time from spawning the server (the command of `deno task lectern`) to the first 200 from /api/ping, and the
// server's resident memory (VmRSS) once idle, then again after one page view and one document embedded. Each run starts on a fresh storage folder (first start: keys,
// migrations) and again on the same folder (restart). Prints a table and a JSON line.
// Beside them, in the same run: the same start through `deno task start` (its client staleness check included),
// and the floor, a bare `Deno.serve` answering /api/ping; and the goals of issue 21 (300 ms, 500 ms through
// the task, 60 MiB idle).
import { fileURLToPath } from "node:url";
import { asLecternTask } from "./server_command.ts";

const RUNS = Number(Deno.env.get("BENCH_RUNS") ?? 5);
const IDLE_MS = Number(Deno.env.get("BENCH_IDLE_MS") ?? 3000);
/** How long a start may take before the run fails (a machine shared with other work may need more). */
const READY_TIMEOUT_MS = Number(Deno.env.get("BENCH_READY_TIMEOUT_MS") ?? 30_000);
/**
 * V8 shrinks its heap once a process has been idle for about 30 s: the restart and the floor are read again this
 * long after their first ping, in the first BENCH_SETTLED_RUNS runs (0 skips it), as "idle RSS, settled".
 */
const SETTLED_MS = Number(Deno.env.get("BENCH_SETTLED_MS") ?? 35_000);
const SETTLED_RUNS = Number(Deno.env.get("BENCH_SETTLED_RUNS") ?? 2);
const root = fileURLToPath(new URL("../", import.meta.url));
/** The floor: a bare Deno HTTP server on the same machine. */
const BARE_SERVER =
  `Deno.serve({ hostname: "127.0.0.1", port: Number(Deno.env.get("PORT")), onListen() {} }, ` +
  `() => new Response("ok"));`;

type Start = "server" | "task" | "bare";

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
  /** Idle, read SETTLED_MS after the first ping (NaN when not read). */
  settledRssMiB?: number;
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

async function once(storage: string, start: Start = "server", settle = false): Promise<Run> {
  const port = freePort();
  const started = performance.now();
  const args = start === "server"
    ? asLecternTask([Deno.execPath()]).slice(1)
    : start === "task"
    ? ["task", "--quiet", "start"]
    : ["eval", BARE_SERVER];
  const child = new Deno.Command(Deno.execPath(), {
    args,
    cwd: root,
    env: { STORAGE_DIR: storage, PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "warn" },
    stdout: "null",
    stderr: "inherit",
  }).spawn();
  let readyMs = NaN;
  while (performance.now() - started < READY_TIMEOUT_MS) {
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
  if (Number.isNaN(readyMs)) {
    throw new Error(`The ${start} did not answer /api/ping within ${READY_TIMEOUT_MS} ms.`);
  }
  await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
  // `deno task` runs the server as its child: the server's memory is that of the task's newest descendant.
  const pid = start === "task" ? serverPid(child.pid) : child.pid;
  const idleRssMiB = rssKiB(pid) / 1024;
  let settledRssMiB = NaN;
  if (settle) {
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, SETTLED_MS - IDLE_MS)));
    settledRssMiB = rssKiB(pid) / 1024;
  }
  if (start !== "server") {
    // The task's server is stopped by its id too: a task need not pass the signal on.
    if (pid !== child.pid) {
      try {
        Deno.kill(pid, "SIGTERM");
      } catch {
        // already gone
      }
    }
    child.kill("SIGTERM");
    await child.status;
    return { readyMs, idleRssMiB, usedRssMiB: NaN, settledRssMiB };
  }
  await use(`http://127.0.0.1:${port}`);
  await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
  const usedRssMiB = rssKiB(child.pid) / 1024;
  child.kill("SIGTERM");
  await child.status;
  return { readyMs, idleRssMiB, usedRssMiB, settledRssMiB };
}

/** The deepest descendant of `pid` (the process `deno task` started), or `pid` itself. */
function serverPid(pid: number): number {
  let current = pid;
  for (let depth = 0; depth < 4; depth++) {
    let children: string[] = [];
    try {
      children = Deno.readTextFileSync(`/proc/${current}/task/${current}/children`).trim().split(/\s+/)
        .filter(Boolean);
    } catch {
      break;
    }
    if (children.length === 0) break;
    current = Number(children[0]);
  }
  return current;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

const fresh: Run[] = [];
const restart: Run[] = [];
const task: Run[] = [];
const bare: Run[] = [];
for (let run = 0; run < RUNS; run++) {
  const storage = await Deno.makeTempDir({ prefix: "lectern-bench-" });
  try {
    const settle = run < SETTLED_RUNS;
    bare.push(await once(storage, "bare", settle));
    fresh.push(await once(storage));
    restart.push(await once(storage, "server", settle));
    task.push(await once(storage, "task"));
  } finally {
    await Deno.remove(storage, { recursive: true });
  }
}

const row = (label: string, runs: Run[], goal: string) => {
  const used = median(runs.map((run) => run.usedRssMiB));
  const settledRuns = runs.map((run) => run.settledRssMiB ?? NaN).filter((rss) => !Number.isNaN(rss));
  const settled = settledRuns.length > 0 ? `${median(settledRuns).toFixed(1)} MiB` : "-";
  return `| ${label} | ${median(runs.map((run) => run.readyMs)).toFixed(0)} ms | ${
    Math.max(...runs.map((run) => run.readyMs)).toFixed(0)
  } ms | ${median(runs.map((run) => run.idleRssMiB)).toFixed(1)} MiB | ${settled} | ${
    Number.isNaN(used) ? "-" : `${used.toFixed(1)} MiB`
  } | ${goal} |`;
};
console.log(
  `Startup (${RUNS} runs each, deno ${Deno.version.deno}, idle RSS read after ${IDLE_MS} ms, settled after ${SETTLED_MS} ms in ${
    Math.min(SETTLED_RUNS, RUNS)
  } runs)`,
);
console.log(
  "| start | time to first /api/ping (median) | (max) | idle RSS (median) | idle RSS, settled | RSS after a page and an embed | goal |",
);
console.log("| --- | --- | --- | --- | --- | --- | --- |");
console.log(row("first start, empty storage", fresh, "≤ 300 ms, ≤ 60 MiB idle"));
console.log(row("restart, existing storage", restart, "≤ 300 ms, ≤ 60 MiB idle"));
console.log(row("restart through `deno task start`", task, "≤ 500 ms"));
console.log(row("floor: a bare Deno.serve", bare, "-"));
console.log(JSON.stringify({ benchmark: "startup", runs: RUNS, fresh, restart, task, bare }));
