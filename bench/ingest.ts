// Ingest benchmark: every file of ../shared/corpus uploaded and embedded (built-in embedder) through the API of a
// real server process. Prints files/s, chunks/s, the server's peak RSS, and the files the server refused with
// their reasons (the corpus holds corrupt, encrypted and empty files on purpose). Then the same uploads in this
// process with an embedder that costs nothing (one constant vector): parse + split + store alone. Each goal of
// issue 21 is printed beside its figure. BENCH_PHASES=server or =store runs one of the two.
import { startServerProcess } from "../server/testing/process.ts";
import { asLecternTask } from "./server_command.ts";
import { createTestApp } from "../server/testing/test_app.ts";
import type { Embedder } from "../server/providers/embedders/types.ts";
import { closeParseWorkers, parseWorkerStats } from "../server/documents/parse_worker.ts";
import { CORPUS, corpusFiles, corpusOrSkip } from "./corpus.ts";
import { groupCommit } from "../db/group_commit.ts";
import { lanceAddStats } from "../server/providers/vectors/lancedb/store.ts";

const CONCURRENCY = Number(Deno.env.get("BENCH_CONCURRENCY") ?? 2);
const LIMIT = Number(Deno.env.get("BENCH_FILES") ?? Infinity);
/** Seconds to wait after the ingest before the server's memory is read again (what it keeps, not its peak). */
const SETTLE_SECONDS = Number(Deno.env.get("BENCH_SETTLE_SECONDS") ?? 10);
/** How often the server's memory is sampled during the ingest (milliseconds; 0: only the kernel's peak, VmHWM). */
const SAMPLE_MS = Number(Deno.env.get("BENCH_MEM_SAMPLE_MS") ?? 100);

corpusOrSkip("Ingest benchmark");

const files = corpusFiles().slice(0, LIMIT);
const PHASES = Deno.env.get("BENCH_PHASES") ?? "server,store";
const goals: string[] = [];
const goal = (metric: string, figure: string, target: string, met: boolean) =>
  goals.push(`${met ? "met " : "MISS"} ${metric}: ${figure} (goal ${target})`);

/** Files answered so far by the running `uploadAll` (the memory samples say when in the ingest they were taken). */
let answered = 0;

/** Uploads every file, CONCURRENCY at a time; the answers tell which were refused and why. */
async function uploadAll(upload: (form: FormData) => Promise<Response>) {
  let bytes = 0;
  let accepted = 0;
  const refused: string[] = [];
  let next = 0;
  answered = 0;
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < files.length) {
      const path = files[next++];
      const data = await Deno.readFile(path);
      bytes += data.length;
      const form = new FormData();
      form.append("file", new File([data], path.split("/").pop()!));
      const response = await upload(form);
      const body = await response.json().catch(() => ({}));
      answered++;
      if (response.ok && body.success) accepted++;
      else refused.push(`${path.slice(CORPUS.length)}: ${body.error ?? response.status}`);
    }
  }));
  return { bytes, accepted, refused };
}

/** A process's processor seconds so far, every thread (utime + stime: clock ticks of 10 ms). */
function cpuSecondsOf(pid: number): number {
  const fields = Deno.readTextFileSync(`/proc/${pid}/stat`).split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * Samples a process's resident memory every SAMPLE_MS (/proc/PID/status: cheap counters) and, once a second, the
 * resident size of each of its mappings (/proc/PID/smaps, by file; anonymous ones together), keeping the sample
 * with the most resident memory: the peak's moment (files answered by then) and its owners. BENCH_MEM_TIMELINE=<file>
 * also writes every sample (seconds, files answered, RSS, anonymous, file-backed MiB) for a plot.
 */
function sampleMemory(pid: number) {
  const timelinePath = Deno.env.get("BENCH_MEM_TIMELINE");
  const timeline: string[] = [];
  const started = performance.now();
  const mib = (kb: number) => Math.round(kb / 1024);
  let peak = { seconds: 0, answered: 0, rss: 0, anonymous: 0, file: 0 };
  let peakMappings: { rss: number; byOwner: [string, number][] } = { rss: 0, byOwner: [] };
  const read = () => {
    const status = Deno.readTextFileSync(`/proc/${pid}/status`);
    const field = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
    const sample = {
      seconds: Number(((performance.now() - started) / 1000).toFixed(1)),
      answered,
      rss: field("VmRSS"),
      anonymous: field("RssAnon"),
      file: field("RssFile"),
    };
    if (sample.rss > peak.rss) peak = sample;
    if (timelinePath) {
      timeline.push(
        `${sample.seconds} ${sample.answered} ${mib(sample.rss)} ${mib(sample.anonymous)} ${
          mib(sample.file)
        }`,
      );
    }
  };
  const readMappings = () => {
    const byOwner = new Map<string, number>();
    let owner = "";
    let rss = 0;
    for (const line of Deno.readTextFileSync(`/proc/${pid}/smaps`).split("\n")) {
      const header = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \d+\s*(.*)$/.exec(line);
      if (header) {
        const path = header[1];
        owner = path === "" || path.startsWith("[anon")
          ? "anonymous"
          : path.replace(/^.*\/node_modules\//, "");
        continue;
      }
      if (line.startsWith("Rss:")) {
        const kb = Number(line.slice(4).trim().split(" ")[0]);
        rss += kb;
        byOwner.set(owner, (byOwner.get(owner) ?? 0) + kb);
      }
    }
    if (rss > peakMappings.rss) {
      peakMappings = { rss, byOwner: [...byOwner].sort((a, b) => b[1] - a[1]).slice(0, 8) };
    }
  };
  const safely = (take: () => void) => () => {
    try {
      take();
    } catch {
      // The process ended.
    }
  };
  const timers = SAMPLE_MS > 0
    ? [setInterval(safely(read), SAMPLE_MS), setInterval(safely(readMappings), 1000)]
    : [];
  return {
    stop() {
      for (const timer of timers) clearInterval(timer);
      if (timelinePath) Deno.writeTextFileSync(timelinePath, timeline.join("\n") + "\n");
      return {
        at: { ...peak, rss: mib(peak.rss), anonymous: mib(peak.anonymous), file: mib(peak.file) },
        mappings: {
          rss: mib(peakMappings.rss),
          byOwner: Object.fromEntries(peakMappings.byOwner.map(([owner, kb]) => [owner, mib(kb)])),
        },
      };
    },
  };
}

if (PHASES.includes("server")) await serverPhase();
if (PHASES.includes("store")) await storePhase();
console.log(`Goals of issue 21 (2 cores; timings are noisy on a shared machine):\n  ${goals.join("\n  ")}`);

async function serverPhase() {
  const storage = await Deno.makeTempDir({ prefix: "lectern-bench-ingest-" });
  // A loaded machine can take long over the first start.
  // MEM_TRACE=<file> passes on to the server: its memory, once a second (server/memory.ts).
  const trace = Deno.env.get("MEM_TRACE");
  const server = await startServerProcess(
    {
      STORAGE_DIR: storage,
      LOG_LEVEL: "warn",
      ...(trace ? { MEM_TRACE: trace } : {}),
      ...(Deno.env.get("MEM_TRACE_MS") ? { MEM_TRACE_MS: Deno.env.get("MEM_TRACE_MS")! } : {}),
    },
    180_000,
    { wrap: asLecternTask },
  );
  /** A figure of the server's /proc status in MiB: VmHWM (peak), VmRSS, RssAnon (heap), RssFile (mapped files). */
  const status = (field: string) =>
    Number(
      new RegExp(`${field}:\\s+(\\d+)`).exec(Deno.readTextFileSync(`/proc/${server.pid}/status`))?.[1] ?? 0,
    ) /
    1024;
  try {
    await fetch(`${server.url}/api/workspace/new`, {
      method: "POST",
      body: JSON.stringify({ name: "Corpus" }),
    })
      .then((r) => r.body?.cancel());
    const sampler = sampleMemory(server.pid);
    const cpuAtStart = cpuSecondsOf(server.pid);
    const started = performance.now();
    const { bytes, accepted, refused } = await uploadAll((form) =>
      fetch(`${server.url}/api/workspace/corpus/upload-and-embed`, { method: "POST", body: form })
    );
    const seconds = (performance.now() - started) / 1000;
    const sampled = sampler.stop();
    const serverCpu = cpuSecondsOf(server.pid) - cpuAtStart;
    const vectors = await (await fetch(`${server.url}/api/system/system-vectors?slug=corpus`)).json();
    const figures = {
      files: files.length,
      accepted,
      refused: refused.length,
      megabytes: Number((bytes / 1024 / 1024).toFixed(1)),
      seconds: Number(seconds.toFixed(1)),
      filesPerSecond: Number((files.length / seconds).toFixed(1)),
      chunks: vectors.vectorCount,
      chunksPerSecond: Number((vectors.vectorCount / seconds).toFixed(0)),
      /** The server's processor seconds through the ingest (all its threads; parse workers apart). */
      serverCpuSeconds: Number(serverCpu.toFixed(1)),
      peakRssMiB: Number(status("VmHWM").toFixed(0)),
      rssAfterMiB: Number(status("VmRSS").toFixed(0)),
      anonymousAfterMiB: Number(status("RssAnon").toFixed(0)),
      fileBackedAfterMiB: Number(status("RssFile").toFixed(0)),
      settledRssMiB: 0,
      settledAnonymousMiB: 0,
      /** The peak again after the settling time: maintenance and the reads that follow it come after the ingest. */
      settledPeakRssMiB: 0,
      maintenanceWarnings: 0,
      /** The sample with the most resident memory during the ingest (every BENCH_MEM_SAMPLE_MS): when, and of what. */
      peakSample: sampled.at,
      /** The largest of the once-a-second readings of the server's mappings: resident MiB by owner. */
      peakMappings: sampled.mappings,
    };
    await new Promise((resolve) => setTimeout(resolve, SETTLE_SECONDS * 1000));
    figures.settledRssMiB = Number(status("VmRSS").toFixed(0));
    figures.settledAnonymousMiB = Number(status("RssAnon").toFixed(0));
    figures.settledPeakRssMiB = Number(status("VmHWM").toFixed(0));
    const warnings = server.output().split("\n").filter((line) => / WARN .*[Vv]ector/.test(line));
    figures.maintenanceWarnings = warnings.length;
    console.log(
      `Ingested ${figures.accepted} of ${figures.files} files (${figures.megabytes} MB) in ${figures.seconds} s: ` +
        `${figures.filesPerSecond} files/s, ${figures.chunks} chunks (${figures.chunksPerSecond} chunks/s), ` +
        `peak RSS ${figures.peakRssMiB} MiB (${figures.rssAfterMiB} MiB after: ` +
        `${figures.anonymousAfterMiB} anonymous, ${figures.fileBackedAfterMiB} mapped files; ` +
        `${figures.settledRssMiB} MiB, ${figures.settledAnonymousMiB} anonymous, ${SETTLE_SECONDS} s later, ` +
        `peak ${figures.settledPeakRssMiB} MiB by then), ` +
        `${CONCURRENCY} uploads at a time`,
    );
    if (SAMPLE_MS > 0) {
      const { at, mappings } = sampled;
      console.log(
        `Largest sample (every ${SAMPLE_MS} ms): ${at.rss} MiB (${at.anonymous} anonymous, ${at.file} mapped files) ` +
          `at ${at.seconds} s, ${at.answered} of ${files.length} files answered; largest reading by mapping: ` +
          `${mappings.rss} MiB: ` +
          Object.entries(mappings.byOwner).map(([owner, size]) => `${owner} ${size}`).join(", "),
      );
    }
    if (warnings.length) {
      console.log(`Vector store warnings (${warnings.length}):\n  ${warnings.slice(0, 10).join("\n  ")}`);
    }
    if (refused.length) console.log(`Refused (${refused.length}):\n  ${refused.slice(0, 40).join("\n  ")}`);
    console.log(JSON.stringify({ benchmark: "ingest", ...figures }));
    goal(
      "shared corpus ingest, built-in embedder, through a real server",
      `${figures.seconds} s`,
      "≤ 60 s",
      figures.seconds <= 60,
    );
    goal(
      "server peak RSS during that ingest (parse workers apart)",
      `${figures.peakRssMiB} MiB`,
      "≤ 300 MiB",
      figures.peakRssMiB <= 300,
    );
  } finally {
    server.child.kill("SIGTERM");
    await server.exited();
    await Deno.remove(storage, { recursive: true });
  }
}

/** A vector for every text at no cost: what is left is parsing, splitting and storing. */
function constantEmbedder(): Embedder {
  const vector = Array.from({ length: 384 }, (_, index) => (index === 0 ? 1 : 0));
  return {
    fingerprint: "bench:constant:384",
    modelId: "constant",
    maxChunkLength: 1000,
    maxInputsPerCall: 1000,
    embed: (texts: string[]) => Promise.resolve(texts.map(() => vector)),
    embedQuery: () => Promise.resolve(vector),
  };
}

/**
 * Processor seconds of this process (every thread), of its main thread alone (the server's JavaScript, and SQLite,
 * whose local client runs there), and of its ended children (the parse workers, once closed).
 */
function cpuAccount() {
  const ticks = (path: string, fields: number[]) => {
    const parts = Deno.readTextFileSync(path).split(") ")[1].split(" ");
    return fields.reduce((sum, field) => sum + Number(parts[field]), 0) / 100;
  };
  return {
    process: ticks("/proc/self/stat", [11, 12]),
    mainThread: ticks(`/proc/self/task/${Deno.pid}/stat`, [11, 12]),
    workers: ticks("/proc/self/stat", [13, 14]),
  };
}

/** Processor seconds of this process's live threads, summed by thread name (a thread that ended is not counted). */
function threadSeconds(): Map<string, number> {
  const byName = new Map<string, number>();
  for (const entry of Deno.readDirSync("/proc/self/task")) {
    try {
      const stat = Deno.readTextFileSync(`/proc/self/task/${entry.name}/stat`);
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const parts = stat.slice(stat.lastIndexOf(") ") + 2).split(" ");
      byName.set(name, (byName.get(name) ?? 0) + (Number(parts[11]) + Number(parts[12])) / 100);
    } catch {
      // The thread ended meanwhile.
    }
  }
  return byName;
}

/**
 * Times the steps of each upload in the store phase (BENCH_TRACE=1) by wrapping what the upload calls: `parse`
 * (from the request to the document's preparation: the form, the access check and the parse), `documentWrite`
 * (its JSON file written and synced, beside the adds), `lanceAdd` (each add until its LanceDB commit is through),
 * `readyWait` (from an add's end to the next SQLite commit asked for: the document's file, the vector cache entry),
 * `sqliteCommit` (asked for to committed), `sqliteBatch` (the batch itself, without the group commit's wait),
 * `toAdd` (the document prepared to its first add asked for) and `afterCommit` (the last commit to the answer read).
 * Sums over the corpus, in seconds; with BENCH_CONCURRENCY=1 (as the UI sends) all but `documentWrite` and
 * `sqliteBatch` lie end to end on the critical path, and `request` less their sum is the rest of the handler.
 */
function traceUploads(deps: Awaited<ReturnType<typeof createTestApp>>["deps"]) {
  const sums = {
    request: 0,
    parse: 0,
    documentWrite: 0,
    lanceAdd: 0,
    sqliteCommit: 0,
    sqliteBatch: 0,
    readyWait: 0,
    toAdd: 0,
    afterCommit: 0,
  };
  let prepared = 0;
  let committed = 0;
  let requestStart = 0;
  let lastAddEnd = 0;
  const documents = deps.documents;
  const prepare = documents.prepare.bind(documents);
  documents.prepare = async (input) => {
    sums.parse += performance.now() - requestStart;
    const began = performance.now();
    prepared = began;
    const made = await prepare(input);
    made.written.then(() => (sums.documentWrite += performance.now() - began), () => {});
    return made;
  };
  const vectors = deps.vectors;
  const upsert = vectors.upsert.bind(vectors);
  vectors.upsert = async (namespace, records) => {
    const began = performance.now();
    if (prepared) sums.toAdd += began - prepared;
    prepared = 0;
    try {
      return await upsert(namespace, records);
    } finally {
      lastAddEnd = performance.now();
      sums.lanceAdd += lastAddEnd - began;
    }
  };
  // The batch alone, without the group commit's wait for its turn.
  const db = deps.db;
  const batch = db.batch.bind(db);
  db.batch = (async (queries: Parameters<typeof db.batch>[0]) => {
    const began = performance.now();
    try {
      return await batch(queries);
    } finally {
      sums.sqliteBatch += performance.now() - began;
    }
  }) as unknown as typeof db.batch;
  const group = groupCommit(deps.db);
  const commit = group.commit.bind(group);
  group.commit = async (queries) => {
    const began = performance.now();
    if (lastAddEnd) sums.readyWait += began - lastAddEnd;
    lastAddEnd = 0;
    try {
      return await commit(queries);
    } finally {
      committed = performance.now();
      sums.sqliteCommit += committed - began;
    }
  };
  return {
    async request(send: () => Promise<Response>): Promise<Response> {
      requestStart = performance.now();
      committed = 0;
      try {
        return await send();
      } finally {
        const now = performance.now();
        sums.request += now - requestStart;
        if (committed) sums.afterCommit += now - committed;
      }
    },
    report() {
      const seconds = Object.fromEntries(
        Object.entries(sums).map(([step, ms]) => [step, Number((ms / 1000).toFixed(2))]),
      );
      return `Upload steps, summed over the corpus (s; see traceUploads): ${JSON.stringify(seconds)}`;
    },
  };
}

async function storePhase() {
  const embedder = constantEmbedder();
  const app = await createTestApp({ providers: { embedder: () => embedder, targetEmbedder: () => null } });
  try {
    await app.json("/api/workspace/new", { json: { name: "Corpus" } });
    const cpuBefore = cpuAccount();
    const threadsBefore = threadSeconds();
    const workersBefore = parseWorkerStats().spawned;
    // The SQLite commits of the uploads (each a sync of the journal on the server's thread): those of the group
    // commit (db/group_commit.ts), which every upload's writes go through.
    const commitsBefore = groupCommit(app.deps.db).stats.batches;
    const lanceBefore = { ...lanceAddStats };
    // BENCH_CPU_PROFILE=<file>: the main thread's JavaScript profile of the uploads (a .cpuprofile).
    const profilePath = Deno.env.get("BENCH_CPU_PROFILE");
    const inspector = profilePath ? new (await import("node:inspector/promises")).Session() : null;
    if (inspector) {
      inspector.connect();
      await inspector.post("Profiler.enable");
      await inspector.post("Profiler.start");
    }
    // BENCH_TRACE=1: where an upload's time goes on the server (its steps' durations summed over the corpus).
    const trace = Deno.env.get("BENCH_TRACE") === "1" ? traceUploads(app.deps) : null;
    const started = performance.now();
    const { accepted, refused } = await uploadAll((form) =>
      trace
        ? trace.request(() =>
          app.request("/api/workspace/corpus/upload-and-embed", { method: "POST", body: form })
        )
        : app.request("/api/workspace/corpus/upload-and-embed", { method: "POST", body: form })
    );
    if (trace) console.log(trace.report());
    const seconds = (performance.now() - started) / 1000;
    const sqliteCommits = groupCommit(app.deps.db).stats.batches - commitsBefore;
    const lanceAdds = lanceAddStats.adds - lanceBefore.adds;
    const lanceCommits = lanceAddStats.commits - lanceBefore.commits;
    if (inspector && profilePath) {
      const { profile } = await inspector.post("Profiler.stop");
      Deno.writeTextFileSync(profilePath, JSON.stringify(profile));
      inspector.disconnect();
    }
    const vectors = (await app.json<{ vectorCount: number }>("/api/system/system-vectors?slug=corpus")).body;
    const chunksPerSecond = Math.round(vectors.vectorCount / seconds);
    // The workers' processor time counts once they have ended.
    const workersStarted = parseWorkerStats().spawned - workersBefore;
    await closeParseWorkers();
    const cpuAfter = cpuAccount();
    const threads = Object.fromEntries(
      [...threadSeconds()].map((
        [name, seconds],
      ) => [name, Number((seconds - (threadsBefore.get(name) ?? 0)).toFixed(1))])
        .filter(([, seconds]) => (seconds as number) >= 0.1).sort((a, b) =>
          (b[1] as number) - (a[1] as number)
        ),
    );
    const cpu = {
      mainThreadSeconds: Number((cpuAfter.mainThread - cpuBefore.mainThread).toFixed(1)),
      otherThreadsSeconds: Number(
        (cpuAfter.process - cpuBefore.process - (cpuAfter.mainThread - cpuBefore.mainThread)).toFixed(1),
      ),
      workersSeconds: Number((cpuAfter.workers - cpuBefore.workers).toFixed(1)),
    };
    console.log(
      `Parse + split + store (no embedder, in process): ${accepted} of ${files.length} files, ` +
        `${vectors.vectorCount} chunks in ${seconds.toFixed(1)} s (${chunksPerSecond} chunks/s), ` +
        `${refused.length} refused; processor time: main thread ${cpu.mainThreadSeconds} s, ` +
        `other threads ${cpu.otherThreadsSeconds} s, parse workers ${cpu.workersSeconds} s ` +
        `(${workersStarted} started), ${sqliteCommits} SQLite commits, ${lanceAdds} LanceDB adds in ` +
        `${lanceCommits} commits; by thread: ` +
        Object.entries(threads).map(([name, seconds]) => `${name} ${seconds} s`).join(", "),
    );
    if (refused.length) console.log(`Refused (${refused.length}):\n  ${refused.slice(0, 40).join("\n  ")}`);
    console.log(
      JSON.stringify({
        benchmark: "ingest-store",
        seconds: Number(seconds.toFixed(1)),
        chunksPerSecond,
        ...cpu,
        workersStarted,
        sqliteCommits,
        lanceAdds,
        lanceCommits,
        threads,
      }),
    );
    goal(
      "parse + split + store, embedder excluded",
      `${chunksPerSecond} chunks/s`,
      "≥ 5,000 chunks/s",
      chunksPerSecond >= 5000,
    );
  } finally {
    await app.close();
    await closeParseWorkers();
  }
}
