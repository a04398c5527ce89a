// Where the server's resident memory goes (issue 21: idle RSS): the server as `deno task lectern` starts it, on
// a storage folder it has started on before, read once idle, again after its first API call (which loads the
// API's routes) and again after one page view and one document embedded; beside it, in the same run, the floor (a bare `Deno.serve`). Each figure is the median of
// BENCH_RUNS starts. The shares come from /proc/<pid>/smaps (resident pages per mapping), the JavaScript heap from
// the server's MEM_TRACE line (server/memory.ts). Linux only.
//
//   deno run -A bench/memory_account.ts
import { fileURLToPath } from "node:url";
import { asLecternTask } from "./server_command.ts";

const RUNS = Number(Deno.env.get("BENCH_RUNS") ?? 5);
const IDLE_MS = Number(Deno.env.get("BENCH_IDLE_MS") ?? 3000);
const READY_TIMEOUT_MS = Number(Deno.env.get("BENCH_READY_TIMEOUT_MS") ?? 60_000);
const root = fileURLToPath(new URL("../", import.meta.url));
const BARE_SERVER =
  `Deno.serve({ hostname: "127.0.0.1", port: Number(Deno.env.get("PORT")), onListen() {} }, ` +
  `() => new Response("ok"));`;

/** The shares, in the order printed. */
const SHARES = [
  "Deno's executable (code and data pages)",
  "anonymous maps (V8 heap, stacks, thread arenas)",
  "C allocator's main heap ([heap])",
  "libSQL native library",
  "LanceDB native library",
  "other files (libc, Deno's caches, ...)",
] as const;
type Share = typeof SHARES[number];

interface Reading {
  rssMiB: number;
  shares: Record<Share, number>;
  /** From MEM_TRACE (MiB); NaN for the floor. */
  heapTotalMiB: number;
  heapUsedMiB: number;
}

function shareOf(path: string): Share {
  if (path === Deno.execPath()) return SHARES[0];
  if (path === "" || path === "[anon]" || path === "[stack]" || path.startsWith("[anon:")) return SHARES[1];
  if (path === "[heap]") return SHARES[2];
  if (/libsql/i.test(path)) return SHARES[3];
  if (/lancedb/i.test(path)) return SHARES[4];
  return SHARES[5];
}

function read(pid: number, trace: string | null): Reading {
  const shares = Object.fromEntries(SHARES.map((share) => [share, 0])) as Record<Share, number>;
  let share: Share = SHARES[5];
  for (const line of Deno.readTextFileSync(`/proc/${pid}/smaps`).split("\n")) {
    const head = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      share = shareOf(head[1]);
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) shares[share] += Number(rss[1]) / 1024;
  }
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  const rssMiB = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? NaN) / 1024;
  let heapTotalMiB = NaN;
  let heapUsedMiB = NaN;
  if (trace) {
    const last = Deno.readTextFileSync(trace).trim().split("\n").at(-1) ?? "";
    heapTotalMiB = Number(/heapTotal=(\d+)/.exec(last)?.[1] ?? NaN);
    heapUsedMiB = Number(/heapUsed=(\d+)/.exec(last)?.[1] ?? NaN);
  }
  return { rssMiB, shares, heapTotalMiB, heapUsedMiB };
}

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One page view and one document uploaded and embedded (as bench/startup.ts does). */
async function use(base: string) {
  await (await fetch(`${base}/`)).text();
  const created = await (await fetch(`${base}/api/workspace/new`, {
    method: "POST",
    body: JSON.stringify({ name: `account ${crypto.randomUUID()}` }),
  })).json();
  const form = new FormData();
  form.append(
    "file",
    new File(["Lectern memory account about herons and rivers. ".repeat(100)], "account.txt"),
  );
  const embedded = await fetch(`${base}/api/workspace/${created.workspace.slug}/upload-and-embed`, {
    method: "POST",
    body: form,
  });
  if (!(await embedded.json()).success) throw new Error("The account's upload failed.");
  await (await fetch(`${base}/workspace/${created.workspace.slug}`)).text();
}

/** Starts the server (or the floor), reads it idle (and, for the server, after use), stops it. */
async function once(storage: string, bare: boolean, measure: boolean): Promise<Reading[]> {
  const port = freePort();
  const trace = bare ? null : await Deno.makeTempFile({ prefix: "lectern-memtrace-" });
  const child = new Deno.Command(Deno.execPath(), {
    args: bare ? ["eval", BARE_SERVER] : asLecternTask([Deno.execPath()]).slice(1),
    cwd: root,
    env: {
      STORAGE_DIR: storage,
      PORT: String(port),
      HOST: "127.0.0.1",
      LOG_LEVEL: "warn",
      ...(trace ? { MEM_TRACE: trace } : {}),
    },
    stdout: "null",
    stderr: "inherit",
  }).spawn();
  try {
    const started = performance.now();
    for (;;) {
      try {
        const response = await fetch(`http://127.0.0.1:${port}/api/ping`);
        await response.body?.cancel();
        if (response.ok) break;
      } catch {
        // not yet listening
      }
      if (performance.now() - started > READY_TIMEOUT_MS) throw new Error("The server did not start.");
      await pause(10);
    }
    if (!measure) return [];
    await pause(IDLE_MS);
    const readings = [read(child.pid, trace)];
    if (!bare) {
      // The first call a browser's page makes: it loads the API's routes (server/api_routes.ts).
      const first = await fetch(`http://127.0.0.1:${port}/api/setup-complete`);
      if (!first.ok) throw new Error(`The first API call answered ${first.status}.`);
      await first.body?.cancel();
      await pause(IDLE_MS);
      readings.push(read(child.pid, trace));
      await use(`http://127.0.0.1:${port}`);
      await pause(IDLE_MS);
      readings.push(read(child.pid, trace));
    }
    return readings;
  } finally {
    child.kill("SIGTERM");
    await child.status;
    if (trace) await Deno.remove(trace).catch(() => {});
  }
}

const median = (values: number[]) => {
  const sorted = values.filter((value) => !Number.isNaN(value)).sort((a, b) => a - b);
  return sorted.length === 0 ? NaN : sorted[Math.floor(sorted.length / 2)];
};

const floor: Reading[] = [];
const idle: Reading[] = [];
const api: Reading[] = [];
const used: Reading[] = [];
for (let run = 0; run < RUNS; run++) {
  const storage = await Deno.makeTempDir({ prefix: "lectern-account-" });
  try {
    // The first start creates the storage (keys, migrations); the account is of a restart.
    await once(storage, false, false);
    floor.push(...await once(storage, true, true));
    const [atIdle, afterApi, afterUse] = await once(storage, false, true);
    idle.push(atIdle);
    api.push(afterApi);
    used.push(afterUse);
  } finally {
    await Deno.remove(storage, { recursive: true });
  }
}

const cell = (value: number) => Number.isNaN(value) ? "-" : `${value.toFixed(1)} MiB`;
const column = (readings: Reading[], pick: (reading: Reading) => number) => cell(median(readings.map(pick)));
console.log(
  `Memory account (${RUNS} runs, medians, deno ${Deno.version.deno}, read ${IDLE_MS} ms after the first ping)`,
);
console.log(
  "| share | floor: a bare Deno.serve | server idle (restart) | after its first API call | " +
    "after a page and an embed |",
);
console.log("| --- | --- | --- | --- | --- |");
const line = (label: string, pick: (reading: Reading) => number) =>
  console.log(
    `| ${label} | ${column(floor, pick)} | ${column(idle, pick)} | ${column(api, pick)} | ${
      column(used, pick)
    } |`,
  );
for (const share of SHARES) line(share, (reading) => reading.shares[share]);
const rows: [string, (reading: Reading) => number][] = [
  ["VmRSS (goal: 60 MiB idle)", (reading) => reading.rssMiB],
  ["V8 heap, total (MEM_TRACE)", (reading) => reading.heapTotalMiB],
  ["V8 heap, used (MEM_TRACE)", (reading) => reading.heapUsedMiB],
];
for (const [label, pick] of rows) line(label, pick);
console.log(JSON.stringify({ benchmark: "memory_account", runs: RUNS, floor, idle, api, used }));
