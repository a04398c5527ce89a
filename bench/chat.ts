// Chat benchmark against a real server process and a fake OpenAI-compatible LLM on loopback:
// 1. the server's share of time to first token in a workspace of 10,000 chunks (request sent → first chunk
//    received, minus the fake LLM's own time from receiving the request to sending its first token);
// 2. 500 concurrent streaming chats: errors and the gaps between chunks as the clients see them.
// Each line shows its goal (issue 21) and a floor measured in the same run: a plain JS scan of 10k × 384 float32
// vectors for the first, the LLM's own gap between tokens for the second.
// A follow-up's search-query rewrite (server/chat/rewrite.ts) is answered at once with the message, as the
// fake's default does: its round trip counts as the server's. Rightly so: the model's own time is nil here, so
// what is left is the server's work for that call (the SDK building the request, fetch, reading the stream: 2-3
// ms of CPU per call under load) and the loopback's, which a user waits for as for any other step.
import { echoReply, startFakeOpenAi } from "../server/testing/fake_openai.ts";
import { startServerProcess } from "../server/testing/process.ts";
import { asLecternTask } from "./server_command.ts";
import { cpuSeconds, cpuSecondsByThread, LatenessSampler, percentile, threadCpuSince } from "./load.ts";

const CHUNKS = Number(Deno.env.get("BENCH_CHUNKS") ?? 10_000);
const TTFT_RUNS = Number(Deno.env.get("BENCH_TTFT_RUNS") ?? 40);
const CONCURRENT = Number(Deno.env.get("BENCH_CONCURRENT") ?? 500);
// BENCH_TOKENS: tokens per answer (40); more makes the streaming, rather than the chats' starts, most of the burst.
const TOKENS = Number(Deno.env.get("BENCH_TOKENS") ?? 40);
// BENCH_TOKEN_GAP_MS: the fake LLM's gap between tokens (25); a smaller one sends faster than the server streams.
const TOKEN_GAP_MS = Number(Deno.env.get("BENCH_TOKEN_GAP_MS") ?? 25);
// BENCH_PARTS=2 runs the concurrent streams alone (no 10k-chunk workspace first).
const PARTS = (Deno.env.get("BENCH_PARTS") ?? "1,2").split(",").map(Number);
// The concurrent streams' fake LLM runs in a process of its own (bench/fake_llm_process.ts): in this process its
// timers waited behind the 500 clients' reading, and the gaps it sent grew with the bench's own load.
// BENCH_FAKE_IN_PROCESS=1 keeps it here (as before), BENCH_CLIENT_STREAMS=1 reads as the clients did before
// (through a TextDecoderStream, frames split per read): for comparing figures with earlier runs.
const FAKE_IN_PROCESS = Deno.env.get("BENCH_FAKE_IN_PROCESS") === "1";
const CLIENT_STREAMS = Deno.env.get("BENCH_CLIENT_STREAMS") === "1";
// The concurrent streams' clients speak HTTP/1.1 on a socket each (rawStreamChat): the 500 clients share the
// server's 2 cores, and read through fetch they took more CPU per chunk than the server itself (a fetch body's
// byte stream per read), which made the server's gaps wait behind them; a client elsewhere costs the server
// nothing. BENCH_CLIENT_FETCH=1 reads through fetch as before (BENCH_CLIENT_STREAMS=1 too), for comparing.
const CLIENT_FETCH = CLIENT_STREAMS || Deno.env.get("BENCH_CLIENT_FETCH") === "1";

const STREAMING = { stream: true };

/**
 * A POST of `body` (JSON) to `url` over a socket of its own, its answer's body (HTTP/1.1, chunked or of a given
 * length) given to `onText` as it comes, decoded; the answer's status. The bytes are read straight from the
 * socket into one buffer, with nothing between (no stream, no HTTP client).
 */
async function rawStreamChat(url: URL, body: string, onText: (text: string) => void): Promise<number> {
  const conn = await Deno.connect({ hostname: url.hostname, port: Number(url.port) });
  try {
    const bodyBytes = new TextEncoder().encode(body);
    const head = `POST ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${bodyBytes.length}\r\nConnection: close\r\n\r\n`;
    const request = new Uint8Array(head.length + bodyBytes.length);
    new TextEncoder().encodeInto(head, request);
    request.set(bodyBytes, head.length);
    for (let written = 0; written < request.length;) written += await conn.write(request.subarray(written));
    const buffer = new Uint8Array(16 * 1024);
    const decoder = new TextDecoder();
    let status = 0;
    let headers = "";
    // The body: chunked (a hex size line, the data, CRLF; a size of 0 ends it) or `length` bytes, or to the end.
    let chunked = false;
    let length = -1;
    let left = 0;
    let crlf = 0;
    let sizeLine = "";
    while (true) {
      const read = await conn.read(buffer);
      if (read === null) break;
      let at = 0;
      if (!status) {
        headers += new TextDecoder("latin1").decode(buffer.subarray(0, read));
        const end = headers.indexOf("\r\n\r\n");
        if (end < 0) continue;
        status = Number(headers.slice(9, 12));
        const lower = headers.slice(0, end).toLowerCase();
        chunked = lower.includes("\r\ntransfer-encoding: chunked");
        const declared = /\r\ncontent-length: *(\d+)/.exec(lower);
        length = declared ? Number(declared[1]) : -1;
        // The headers were read as one byte a character: where they end in the text is where they end in this read.
        at = read - (headers.length - end - 4);
        if (!chunked && length === 0) break;
      }
      if (!chunked) {
        onText(decoder.decode(buffer.subarray(at, read), STREAMING));
        if (length >= 0 && (length -= read - at) <= 0) break;
        continue;
      }
      let ended = false;
      while (at < read) {
        if (left > 0) {
          const take = Math.min(left, read - at);
          onText(decoder.decode(buffer.subarray(at, at + take), STREAMING));
          at += take;
          left -= take;
          if (left === 0) crlf = 2;
        } else if (crlf > 0) {
          at++;
          crlf--;
        } else {
          const byte = buffer[at++];
          if (byte === 10) {
            left = parseInt(sizeLine, 16);
            sizeLine = "";
            if (!(left > 0)) {
              ended = true;
              break;
            }
          } else if (byte !== 13) sizeLine += String.fromCharCode(byte);
        }
      }
      if (ended) break;
    }
    return status;
  } finally {
    conn.close();
  }
}

async function post(url: string, body: unknown) {
  const response = await fetch(url, { method: "POST", body: JSON.stringify(body) });
  return await response.json();
}

/** A text of about `chunks` × 1000 characters: varied words so chunks differ. */
function corpus(chunks: number): string {
  const words = [
    "river",
    "heron",
    "lantern",
    "granite",
    "orchard",
    "violin",
    "harbour",
    "meadow",
    "copper",
    "signal",
  ];
  const paragraphs: string[] = [];
  for (let index = 0; index < chunks; index++) {
    const sentence = Array.from({ length: 130 }, (_, word) => words[(index * 7 + word * 3) % words.length])
      .join(" ");
    paragraphs.push(`Section ${index}. ${sentence}.`);
  }
  return paragraphs.join("\n\n");
}

/** The command lines of a process's children. */
function childCommands(pid: number): string[] {
  const commands: string[] = [];
  try {
    for (const task of Deno.readDirSync(`/proc/${pid}/task`)) {
      for (
        const child of Deno.readTextFileSync(`/proc/${pid}/task/${task.name}/children`).trim().split(/\s+/)
      ) {
        if (!child) continue;
        try {
          commands.push(Deno.readTextFileSync(`/proc/${child}/cmdline`).replaceAll("\0", " "));
        } catch {
          // ended meanwhile
        }
      }
    }
  } catch {
    // no /proc: nothing known
  }
  return commands;
}

/**
 * Waits for the server's vector maintenance process (server/providers/vectors/maintenance_worker.ts), started a
 * quiet moment after the upload's last write, to start and end (60 s at the most); the milliseconds waited.
 */
async function untilMaintenanceEnded(pid: number): Promise<number> {
  const started = performance.now();
  const running = () => childCommands(pid).some((command) => command.includes("vector-worker"));
  let seen = false;
  while (performance.now() - started < 60_000) {
    const now = running();
    if (seen && !now) break;
    seen ||= now;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  // The handle moves to the maintained version and the vectors are read again in memory.
  await new Promise((resolve) => setTimeout(resolve, 500));
  return performance.now() - started;
}

/** The server's "Chat timing" lines of a workspace (the measured chats are the last ones), summarised. */
function printTimings(output: string, shares: number[], workspace = "big") {
  const lines = output.split("\n").filter((line) =>
    line.includes("Chat timing") && line.includes(`workspace=${workspace}`)
  )
    .slice(-shares.length);
  const deltas = new Map<string, number[]>();
  const parsed = lines.map((line) => {
    const steps = [...line.split("Chat timing")[1].matchAll(/ ([a-z][a-z0-9 ]*)=([\d.]+)/g)].map((
      match,
    ) => [match[1], Number(match[2])] as const);
    let before = 0;
    for (const [step, ms] of steps) {
      const list = deltas.get(step) ?? [];
      list.push(ms - before);
      deltas.set(step, list);
      before = ms;
    }
    return steps;
  });
  for (const [step, list] of deltas) {
    console.log(
      `  step ${step.padEnd(18)} p50 ${percentile(list, 50).toFixed(2)} p95 ${
        percentile(list, 95).toFixed(2)
      } ` +
        `max ${Math.max(...list).toFixed(2)} ms`,
    );
  }
  const slowest = shares.map((share, index) => ({ share, index })).sort((a, b) => b.share - a.share).slice(
    0,
    3,
  );
  for (const { share, index } of slowest) {
    const steps = parsed[index] ?? [];
    console.log(
      `  slow chat ${index}: share ${share.toFixed(1)} ms; ${
        steps.map(([s, ms]) => `${s} ${ms}`).join(", ")
      }`,
    );
  }
}

const storage = await Deno.makeTempDir({ prefix: "lectern-bench-chat-" });
const llm = startFakeOpenAi();
const requestReceived: number[] = [];
const isRewrite = (request: { messages: { content: unknown }[] }) =>
  String(request.messages.at(-1)?.content ?? "").endsWith("Standalone search query:");
llm.setReply((request) => {
  if (isRewrite(request)) return echoReply(request);
  requestReceived.push(performance.now());
  return { chunks: Array.from({ length: TOKENS }, (_, index) => `t${index} `), delayMs: TOKEN_GAP_MS };
});
// With LECTERN_CHAT_TIMING=1 the server logs each chat's steps (server/http/timing.ts); the bench then prints,
// per step, the time since the step before (p50 / p95 / max over the measured chats), and the slowest chats whole.
const TIMING = Deno.env.get("LECTERN_CHAT_TIMING") === "1";
const server = await startServerProcess(
  { STORAGE_DIR: storage, LOG_LEVEL: TIMING ? "info" : "warn" },
  undefined,
  { wrap: asLecternTask },
);
/** The fake LLM of the concurrent streams in its own process: its URL, and its lateness and CPU on request. */
async function fakeLlmProcess() {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      new URL("./fake_llm_process.ts", import.meta.url).pathname,
      String(TOKENS),
      String(TOKEN_GAP_MS),
    ],
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let pending = "";
  const nextLine = async (): Promise<Record<string, unknown>> => {
    while (!pending.includes("\n")) {
      const { value, done } = await lines.read();
      if (done) throw new Error("The fake LLM process ended.");
      pending += value;
    }
    const at = pending.indexOf("\n");
    const line = pending.slice(0, at);
    pending = pending.slice(at + 1);
    return JSON.parse(line);
  };
  const stdin = child.stdin.getWriter();
  const say = (command: string) => stdin.write(new TextEncoder().encode(`${command}\n`));
  const { baseURL } = await nextLine() as { baseURL: string };
  return {
    baseURL,
    start: () => say("start"),
    async stop() {
      await say("stop");
      return await nextLine() as { lateMs: { p50: number; p99: number; max: number }; cpuSeconds: number };
    },
    async close() {
      await stdin.close();
      await child.status;
      await lines.cancel().catch(() => {});
    },
  };
}

const llmSettings = (baseURL: string) => ({
  LLMProvider: "generic-openai",
  GenericOpenAiBasePath: baseURL,
  GenericOpenAiModelPref: "fake-model",
  GenericOpenAiTokenLimit: "8192",
  GenericOpenAiMaxTokens: "256",
  EmbeddingEngine: "native",
  VectorDB: "lancedb",
});

try {
  await post(`${server.url}/api/system/update-env`, llmSettings(llm.baseURL));

  const serverShare: number[] = [];
  let ingestSeconds = NaN;
  let firstChatMs = NaN;
  let settleMs = NaN;
  let cpuMsPerChat = NaN;
  // The server's CPU per chat by thread (the JS thread's, LanceDB's, V8's): where the chats' CPU goes.
  let cpuMsPerChatByThread: Record<string, number> = {};
  let vectors = { vectorCount: 0 };
  if (PARTS.includes(1)) {
    // 1. A workspace of CHUNKS chunks.
    await post(`${server.url}/api/workspace/new`, { name: "Big" });
    const form = new FormData();
    form.append("file", new File([corpus(CHUNKS)], "big.txt"));
    const ingestStarted = performance.now();
    const upload =
      await (await fetch(`${server.url}/api/workspace/big/upload-and-embed`, { method: "POST", body: form }))
        .json();
    if (!upload.success) throw new Error(`The upload failed: ${upload.error}`);
    ingestSeconds = (performance.now() - ingestStarted) / 1000;
    vectors = await (await fetch(`${server.url}/api/system/system-vectors?slug=big`)).json();

    // One chat right after the upload: it loads the vector store, the tokenizer and the SDK, while the upload's
    // maintenance (compaction, full-text indexing of the new rows, in a process of its own) is about to run.
    const firstSent = performance.now();
    const firstReceived = requestReceived.length;
    const firstText = await (await fetch(`${server.url}/api/workspace/big/stream-chat`, {
      method: "POST",
      body: '{"message":"warm up"}',
    }))
      .text();
    firstChatMs = requestReceived.length > firstReceived && firstText.includes('"textResponseChunk"')
      ? requestReceived[firstReceived] - firstSent
      : NaN;
    // The figures are for a settled server: the upload's maintenance has ended (until then a search reads the
    // rows not yet in the full-text index one by one, and the maintenance process holds a core).
    settleMs = await untilMaintenanceEnded(server.pid);
    await (await fetch(`${server.url}/api/workspace/big/stream-chat`, {
      method: "POST",
      body: '{"message":"warm up again"}',
    })).text();
    // The server's CPU time over the measured chats (whole chats: their starts, streaming and saving), per chat:
    // under load, a steadier figure than the times.
    const chatsCpuBefore = cpuSeconds(server.pid);
    const chatsThreadsBefore = cpuSecondsByThread(server.pid);
    for (let run = 0; run < TTFT_RUNS; run++) {
      const sent = performance.now();
      const received = requestReceived.length;
      const response = await fetch(`${server.url}/api/workspace/big/stream-chat`, {
        method: "POST",
        body: JSON.stringify({ message: `Where does the heron meet the river in section ${run * 37}?` }),
      });
      const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
      let text = "";
      let first = 0;
      while (true) {
        const { value, done } = await reader.read();
        if (done) break;
        text += value;
        if (!first && text.includes('"textResponseChunk"')) first = performance.now();
      }
      // The fake waits TOKEN_GAP_MS before its first token: that wait is the LLM's, not the server's.
      const llmOwn = TOKEN_GAP_MS;
      const fakeGotRequest = requestReceived[received];
      serverShare.push((fakeGotRequest - sent) + (first - fakeGotRequest - llmOwn));
    }

    cpuMsPerChat = ((cpuSeconds(server.pid) - chatsCpuBefore) * 1000) / TTFT_RUNS;
    cpuMsPerChatByThread = Object.fromEntries(
      Object.entries(threadCpuSince(chatsThreadsBefore, cpuSecondsByThread(server.pid)))
        .map(([name, seconds]) => [name, Number((seconds * 1000 / TTFT_RUNS).toFixed(1))]),
    );
    if (TIMING) printTimings(server.output(), serverShare);
  }

  // 2. CONCURRENT streams at once, in a small workspace.
  await post(`${server.url}/api/workspace/new`, { name: "Small" });
  const small = new FormData();
  small.append("file", new File(["Herons wait by the river for fish."], "small.txt"));
  await fetch(`${server.url}/api/workspace/small/upload-and-embed`, { method: "POST", body: small });
  const burstLlm = FAKE_IN_PROCESS ? null : await fakeLlmProcess();
  if (burstLlm) await post(`${server.url}/api/system/update-env`, llmSettings(burstLlm.baseURL));
  // Every stream gets its tokens t0 … t39 in order: one missing or out of place is an error.
  let disorders = 0;
  const gaps: number[] = [];
  // Each stream's time from sending to its first chunk (chats wait their turn to start: server/chat/admission.ts).
  const burstTtft: number[] = [];
  // Once every stream has had its first chunk the starts are over: the server's CPU from then on, per chunk the
  // clients got meanwhile, is the streaming path's alone (the model's response → the frames' bytes on the socket).
  let chunksSeen = 0;
  // The gaps while some streams were still starting (their starts share the server's thread), and after.
  const gapsWhileStarting: number[] = [];
  const gapsAfterStarts: number[] = [];
  let allStarted = null as { cpu: number; chunks: number } | null;
  let errors = 0;
  let complete = 0;
  const concurrencyStarted = performance.now();
  const cpuBefore = { server: cpuSeconds(server.pid), bench: cpuSeconds("self") };
  // A thread's CPU is not all the JS thread's: LanceDB's, libSQL's and V8's own threads count in the process's.
  const threadsBefore = cpuSecondsByThread(server.pid);
  // How late this process's event loop (the clients' reading) and the fake LLM's ran during the burst.
  const benchLateness = new LatenessSampler();
  await burstLlm?.start();
  // The server's resident memory before the burst and at its highest during it (sampled every 100 ms).
  const rssMiB = () =>
    Number(/VmRSS:\s+(\d+) kB/.exec(Deno.readTextFileSync(`/proc/${server.pid}/status`))?.[1] ?? NaN) / 1024;
  const rssBefore = rssMiB();
  let rssPeak = rssBefore;
  const rssSampler = setInterval(() => (rssPeak = Math.max(rssPeak, rssMiB())), 100);
  // How late the server answers meanwhile: a ping every 50 ms (one at a time), its round trip. A ping waits behind
  // whatever the server's JS thread is doing: this is its event loop's lateness, seen from outside.
  const pings: number[] = [];
  let pinging = false;
  const pinger = setInterval(async () => {
    if (pinging) return;
    pinging = true;
    const sent = performance.now();
    try {
      await (await fetch(`${server.url}/api/ping`)).arrayBuffer();
      pings.push(performance.now() - sent);
    } finally {
      pinging = false;
    }
  }, 50);
  await Promise.all(Array.from({ length: CONCURRENT }, async (_, index) => {
    try {
      const sent = performance.now();
      let last = 0;
      let chunks = 0;
      let tokens = 0;
      /** A frame as it arrives: its time, and its token in order. */
      const seen = (frame: string) => {
        if (!frame.includes('"textResponseChunk"')) return;
        const now = performance.now();
        if (last) {
          gaps.push(now - last);
          (allStarted === null ? gapsWhileStarting : gapsAfterStarts).push(now - last);
        } else if (burstTtft.push(now - sent) === CONCURRENT) {
          allStarted = { cpu: cpuSeconds(server.pid), chunks: chunksSeen };
        }
        last = now;
        chunks++;
        chunksSeen++;
        if (!frame.includes('"textResponse":""')) {
          if (!frame.includes(`"textResponse":"t${tokens} "`)) disorders++;
          tokens++;
        }
      };
      const url = `${server.url}/api/workspace/small/stream-chat`;
      const body = JSON.stringify({ message: `question ${index}` });
      let buffer = "";
      /** The frames the text so far completes. */
      const frames = (text: string) => {
        buffer += text;
        let from = 0;
        for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n", from)) {
          seen(buffer.slice(from, end));
          from = end + 2;
        }
        if (from) buffer = buffer.slice(from);
      };
      if (!CLIENT_FETCH) {
        const status = await rawStreamChat(new URL(url), body, frames);
        if (status !== 200) throw new Error(`status ${status}`);
      } else {
        const response = await fetch(url, { method: "POST", body });
        if (!response.ok) throw new Error(`status ${response.status}`);
        if (CLIENT_STREAMS) {
          const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
          let text = "";
          while (true) {
            const { value, done } = await reader.read();
            if (done) break;
            text += value;
            const split = text.split("\n\n");
            text = split.pop() ?? "";
            for (const frame of split) seen(frame);
          }
        } else {
          // One decoder and the bytes as they come: no stream stage between the socket and the frames.
          const reader = response.body!.getReader();
          const decoder = new TextDecoder();
          while (true) {
            const { value, done } = await reader.read();
            if (done) break;
            frames(decoder.decode(value, STREAMING));
          }
        }
      }
      if (tokens !== TOKENS) throw new Error(`${tokens} tokens`);
      if (chunks < TOKENS) throw new Error(`only ${chunks} chunks`);
      complete++;
    } catch {
      errors++;
    }
  }));
  const concurrencySeconds = (performance.now() - concurrencyStarted) / 1000;
  const streamingCpuUsPerChunk = allStarted === null
    ? NaN
    : ((cpuSeconds(server.pid) - allStarted.cpu) * 1e6) /
      (chunksSeen - allStarted.chunks);
  clearInterval(rssSampler);
  clearInterval(pinger);
  const serverLate = { p50: percentile(pings, 50), p99: percentile(pings, 99), max: Math.max(...pings) };
  const lateness = { benchMs: benchLateness.stop(), fakeLlm: await burstLlm?.stop() };
  await burstLlm?.close();
  if (TIMING) {
    console.log("Steps of the concurrent chats (time since the step before):");
    printTimings(server.output(), burstTtft, "small");
  }
  // Where the CPU went meanwhile: the server, and this process (the 500 clients and the fake LLM).
  const cpu = {
    serverSeconds: Number((cpuSeconds(server.pid) - cpuBefore.server).toFixed(1)),
    benchSeconds: Number((cpuSeconds("self") - cpuBefore.bench).toFixed(1)),
    fakeLlmSeconds: lateness.fakeLlm ? Number(lateness.fakeLlm.cpuSeconds.toFixed(1)) : null,
    serverThreads: threadCpuSince(threadsBefore, cpuSecondsByThread(server.pid)),
  };

  // The floor: a plain scan of as many 384-d float32 vectors for the 10 best, in this process.
  const floorVectors = new Float32Array(CHUNKS * 384).map(() => Math.random() - 0.5);
  const floorQuery = new Float32Array(384).map(() => Math.random() - 0.5);
  const scanTimes: number[] = [];
  for (let run = 0; run < 20; run++) {
    const started = performance.now();
    const best: number[] = [];
    for (let row = 0; row < CHUNKS; row++) {
      let dot = 0;
      for (let d = 0, offset = row * 384; d < 384; d++) dot += floorVectors[offset + d] * floorQuery[d];
      if (best.length < 10 || dot > best[best.length - 1]) {
        best.push(dot);
        best.sort((a, b) => b - a);
        if (best.length > 10) best.pop();
      }
    }
    scanTimes.push(performance.now() - started);
  }
  const floorScanMs = Number(percentile(scanTimes, 50).toFixed(1));

  const figures = {
    floorScanMs,
    chunks: vectors.vectorCount,
    ingestSeconds: Number(ingestSeconds.toFixed(1)),
    firstChatAfterUploadMs: Number(firstChatMs.toFixed(1)),
    settleSeconds: Number((settleMs / 1000).toFixed(1)),
    serverShareOfTtftMs: {
      p50: Number(percentile(serverShare, 50)?.toFixed(1)),
      p95: Number(percentile(serverShare, 95)?.toFixed(1)),
      max: Number(Math.max(...serverShare).toFixed(1)),
    },
    serverCpuMsPerChat: Number(cpuMsPerChat.toFixed(1)),
    serverCpuMsPerChatByThread: cpuMsPerChatByThread,
    concurrent: {
      streams: CONCURRENT,
      complete,
      errors,
      outOfOrder: disorders,
      fakeLlmInBench: FAKE_IN_PROCESS,
      clientStreams: CLIENT_STREAMS,
      clientFetch: CLIENT_FETCH,
      eventLoopLateMs: { bench: lateness.benchMs, fakeLlm: lateness.fakeLlm?.lateMs ?? null },
      seconds: Number(concurrencySeconds.toFixed(1)),
      cpu,
      chunkGapMs: {
        llmGap: TOKEN_GAP_MS,
        p50: Number(percentile(gaps, 50).toFixed(1)),
        p99: Number(percentile(gaps, 99).toFixed(1)),
        whileStarting: {
          count: gapsWhileStarting.length,
          p99: Number(percentile(gapsWhileStarting, 99)?.toFixed(1)),
        },
        afterStarts: {
          count: gapsAfterStarts.length,
          p99: Number(percentile(gapsAfterStarts, 99)?.toFixed(1)),
        },
      },
      serverRssMiB: { before: Math.round(rssBefore), peak: Math.round(rssPeak) },
      tokens: TOKENS,
      streamingCpuUsPerChunk: Number(streamingCpuUsPerChunk.toFixed(1)),
      serverPingMs: {
        p50: Number(serverLate.p50?.toFixed(1)),
        p99: Number(serverLate.p99?.toFixed(1)),
        max: Number(serverLate.max.toFixed(1)),
      },
      firstChunkMs: {
        p50: Number(percentile(burstTtft, 50).toFixed(1)),
        p99: Number(percentile(burstTtft, 99).toFixed(1)),
        max: Number(Math.max(...burstTtft).toFixed(1)),
      },
    },
  };
  if (PARTS.includes(1)) {
    console.log(
      `Workspace of ${figures.chunks} chunks (ingested in ${figures.ingestSeconds} s with the built-in embedder)`,
    );
    console.log(
      `First chat right after the upload: ${figures.firstChatAfterUploadMs} ms from sending to the LLM's request ` +
        `(cold: loads the SDK, the tokenizer and the vectors); the upload's maintenance then ran for ` +
        `${figures.settleSeconds} s before the chats measured below`,
    );
    console.log(
      `Server's share of time to first token over ${TTFT_RUNS} chats: p50 ${figures.serverShareOfTtftMs.p50} ms, p95 ${figures.serverShareOfTtftMs.p95} ms ` +
        `(goal ≤ 15 / 30 ms; floor: a plain JS scan of ${CHUNKS} × 384 float32 vectors, ${floorScanMs} ms); ` +
        `the server's CPU per chat ${figures.serverCpuMsPerChat} ms (by thread: ${
          Object.entries(cpuMsPerChatByThread).map(([name, ms]) => `${name} ${ms}`).join(", ")
        })`,
    );
  }
  console.log(
    `${CONCURRENT} concurrent streams: ${complete} complete, ${errors} errors (${disorders} tokens out of order) in ${figures.concurrent.seconds} s; ` +
      `gap between chunks p50 ${figures.concurrent.chunkGapMs.p50} ms, p99 ${figures.concurrent.chunkGapMs.p99} ms ` +
      `(goal: 0 errors, p99 ≤ 100 ms; floor: the LLM sends one every ${TOKEN_GAP_MS} ms); first chunk after ` +
      `p50 ${figures.concurrent.firstChunkMs.p50} ms, p99 ${figures.concurrent.firstChunkMs.p99} ms; CPU meanwhile: ` +
      `server ${cpu.serverSeconds} s, ` +
      (FAKE_IN_PROCESS
        ? `this process (clients and fake LLM) ${cpu.benchSeconds} s`
        : `this process (clients) ${cpu.benchSeconds} s, the fake LLM's ${cpu.fakeLlmSeconds} s`) +
      `; event loop late p99 ${lateness.benchMs.p99} ms in this process` +
      (lateness.fakeLlm ? `, ${lateness.fakeLlm.lateMs.p99} ms in the fake LLM's` : "") +
      `; gap p99 while streams were starting ${figures.concurrent.chunkGapMs.whileStarting.p99} ms, after ` +
      `${figures.concurrent.chunkGapMs.afterStarts.p99} ms; once all had started, the server's CPU per chunk ${figures.concurrent.streamingCpuUsPerChunk} µs; ` +
      `a ping's round trip meanwhile p50 ${figures.concurrent.serverPingMs.p50} ms, p99 ${figures.concurrent.serverPingMs.p99} ms`,
  );
  console.log(JSON.stringify({ benchmark: "chat", ...figures }));
} finally {
  server.child.kill("SIGTERM");
  await server.exited();
  // BENCH_SERVER_OUTPUT=<file>: the server's whole output (its log; V8's --trace-gc lines through BENCH_V8_FLAGS).
  const outputFile = Deno.env.get("BENCH_SERVER_OUTPUT");
  if (outputFile) await Deno.writeTextFile(outputFile, server.output());
  await llm.close();
  await Deno.remove(storage, { recursive: true });
}
