// Chat export benchmark: 100,000 workspace chats (inserted in batches into a temporary instance, spread over 10
// workspaces, each with a realistic stored answer: text, two sources, metrics), then
// `GET /api/system/export-chats?type=jsonl` through a real server process, read as it streams. Prints the time
// to the first byte and to the end, the size, and the server's resident memory: before the export, its highest
// sample during it (every 20 ms) and the process's lifetime peak (VmHWM).
import { workspaceChats, workspaces } from "../db/schema.ts";
import { startServerProcess } from "../server/testing/process.ts";
import { createTestApp } from "../server/testing/test_app.ts";

const CHATS = Number(Deno.env.get("BENCH_CHATS") ?? 100_000);
const WORKSPACES = Number(Deno.env.get("BENCH_WORKSPACES") ?? 10);
const TYPE = Deno.env.get("BENCH_EXPORT_TYPE") ?? "jsonl";
const BATCH = 500;

const TOPICS = ["harbour", "orchard", "lantern", "granite", "violin", "meadow", "copper", "signal", "heron"];
const SOURCE = "The reading room opens at nine and closes at six; atlases and tide tables stay in the room. ";

/** A stored chat as the chat route leaves it: the prompt, and the answer's JSON with its sources and metrics. */
function chat(index: number, workspaceIds: number[]) {
  const topic = TOPICS[index % TOPICS.length];
  return {
    workspaceId: workspaceIds[index % workspaceIds.length],
    prompt: `Question ${index}: what does the ${topic} report say about opening hours and the lending rules?`,
    response: JSON.stringify({
      text: `The ${topic} report (number ${index}) says: ${SOURCE.repeat(4)}`,
      sources: [
        { title: `${topic}.txt`, text: SOURCE.repeat(3), score: 0.82 },
        { title: `rules-${index % 50}.txt`, text: SOURCE.repeat(3), score: 0.77 },
      ],
      type: "chat",
      attachments: [],
      metrics: { prompt_tokens: 420, completion_tokens: 96, total_tokens: 516, duration: 1.9 },
    }),
  };
}

/** A figure of the server's /proc status in MiB. */
const status = (pid: number, field: string) =>
  Number(new RegExp(`${field}:\\s+(\\d+)`).exec(Deno.readTextFileSync(`/proc/${pid}/status`))?.[1] ?? 0) /
  1024;

const storage = await Deno.makeTempDir({ prefix: "lectern-bench-export-" });
try {
  const seedStarted = performance.now();
  {
    await using app = await createTestApp({ storageDir: storage });
    const rows = await app.deps.db.insert(workspaces).values(
      Array.from({ length: WORKSPACES }, (_, index) => ({ name: `Bench ${index}`, slug: `bench-${index}` })),
    ).returning({ id: workspaces.id });
    const ids = rows.map((row) => row.id);
    for (let start = 0; start < CHATS; start += BATCH) {
      const count = Math.min(BATCH, CHATS - start);
      await app.deps.db.insert(workspaceChats).values(
        Array.from({ length: count }, (_, offset) => chat(start + offset, ids)),
      );
    }
  }
  const seedSeconds = (performance.now() - seedStarted) / 1000;
  const databaseMiB = (await Deno.stat(`${storage}/lectern.db`).catch(() => ({ size: 0 }))).size / 2 ** 20;

  await using server = await startServerProcess({ STORAGE_DIR: storage, LOG_LEVEL: "warn" });
  const before = status(server.pid, "VmRSS");
  let sampledPeak = before;
  const sampler = setInterval(() => {
    sampledPeak = Math.max(sampledPeak, status(server.pid, "VmRSS"));
  }, 20);
  const started = performance.now();
  const response = await fetch(`${server.url}/api/system/export-chats?type=${TYPE}&chatType=workspace`);
  if (!response.ok || !response.body) throw new Error(`The export answered ${response.status}.`);
  let firstByte = 0;
  let bytes = 0;
  let lines = 0;
  for await (const chunk of response.body) {
    if (bytes === 0) firstByte = performance.now() - started;
    bytes += chunk.length;
    for (const byte of chunk) if (byte === 10) lines++;
  }
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  sampledPeak = Math.max(sampledPeak, status(server.pid, "VmRSS"));
  const figures = {
    chats: CHATS,
    workspaces: WORKSPACES,
    type: TYPE,
    seedSeconds: Number(seedSeconds.toFixed(1)),
    databaseMiB: Number(databaseMiB.toFixed(0)),
    exportSeconds: Number(seconds.toFixed(2)),
    firstByteMs: Number(firstByte.toFixed(0)),
    exportMiB: Number((bytes / 2 ** 20).toFixed(1)),
    lines: bytes > 0 ? lines + 1 : 0,
    rssBeforeMiB: Number(before.toFixed(0)),
    peakRssDuringMiB: Number(sampledPeak.toFixed(0)),
    peakRssLifetimeMiB: Number(status(server.pid, "VmHWM").toFixed(0)),
  };
  console.log(
    `\nChat export benchmark: ${CHATS} chats in ${WORKSPACES} workspaces (database ${figures.databaseMiB} MiB, ` +
      `seeded in ${figures.seedSeconds} s), GET /api/system/export-chats?type=${TYPE} from a server process`,
  );
  console.log(
    "| export | time | first byte | size | server RSS before | peak during | lifetime peak (VmHWM) |",
  );
  console.log("| --- | --- | --- | --- | --- | --- | --- |");
  console.log(
    `| ${TYPE}, ${figures.lines} lines | ${figures.exportSeconds} s | ${figures.firstByteMs} ms | ` +
      `${figures.exportMiB} MiB | ${figures.rssBeforeMiB} MiB | ${figures.peakRssDuringMiB} MiB | ` +
      `${figures.peakRssLifetimeMiB} MiB |`,
  );
  console.log(JSON.stringify({ benchmark: "export", ...figures }));
} finally {
  await Deno.remove(storage, { recursive: true });
}
