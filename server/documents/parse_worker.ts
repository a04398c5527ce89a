// Parsing runs in child processes (parsing of one file is bounded in time and memory): a hostile or huge file
// can only take its process down, never stall or exhaust the server. The child is this same program with the
// arguments `parse-worker <settings JSON>`; it stays up for many files (a runtime start costs far more than most
// parses), reading framed requests on stdin and writing framed answers on stdout (see FrameReader). A worker is
// killed when a file takes too long, makes it too large or answers too much, and retired after a number of
// files, when it has grown, or when it has waited idle for a while.
import { workerCommand } from "../worker_command.ts";
import { createLimiter } from "../limiter.ts";
import type { Config } from "../config.ts";
import type { Logger } from "../log.ts";
import {
  MEBI,
  type ParsedDocument,
  ParseFailure,
  type ParseFailureKind,
  type ParseInput,
  textTooLargeMessage,
} from "./parsers/types.ts";
import { canParse, parseDocument } from "./parsers/index.ts";
import { extensionOf } from "./text.ts";
import { chunkBytes, type ChunkPlan, type ChunkSummary, lexicalChunks } from "./prepared_chunks.ts";
import { estimateTokens } from "./tokens.ts";
import { freeBytes } from "../memory.ts";

export interface ParseLimits {
  timeoutSeconds: number;
  /** The worker's JavaScript heap; its whole resident size may exceed it by RSS_HEADROOM_MB. */
  memoryMb: number;
  /**
   * The most text one file may give, in characters (PARSE_MAX_TEXT_MB): the worker refuses more before it
   * answers, and the server reads no more than that text's JSON can take.
   */
  maxTextChars: number;
}

/** Room for the runtime itself and for buffers outside the heap (an unzipped entry, a PDF stream). */
export const RSS_HEADROOM_MB = 256;

export function parseLimits(config: Config): ParseLimits {
  return {
    timeoutSeconds: config.parse.timeoutSeconds,
    memoryMb: config.parse.memoryMb,
    maxTextChars: config.parse.maxTextMb * MEBI,
  };
}

/**
 * The most JSON a worker may answer with: a character of text takes at most 6 bytes of it (a lone surrogate's
 * `\uXXXX`), and the metadata fields are small.
 */
const maxAnswerBytes = (limits: ParseLimits) => limits.maxTextChars * 6 + MEBI;

/** One file's request: this JSON header, then `size` bytes of the file. */
interface WorkerRequest {
  name: string;
  contentType?: string;
  maxTextChars: number;
  size: number;
  /** Also split the text and embed the chunks with the lexical embedder (prepared_chunks.ts). */
  chunks?: ChunkPlan;
}

/** How the worker is started (its heap limit is fixed for its life). */
interface WorkerSettings {
  memoryMb: number;
}

/** A successful answer with `chunks` is followed by a second frame: the chunks' binary part (chunkBytes). */
type WorkerResult =
  | { ok: true; document: ParsedDocument; chunks?: ChunkSummary }
  | { ok: false; kind: ParseFailureKind; message: string };

const ENV_KEPT = [
  "PATH",
  "HOME",
  "DENO_DIR",
  "XDG_CACHE_HOME",
  "TMPDIR",
  "TMP",
  "TEMP",
  "LANG",
  "LC_ALL",
  "TZ",
  "SystemRoot",
  "USERPROFILE",
  "LOCALAPPDATA",
  "APPDATA",
  // A server run under qemu's user-mode emulation (another CPU's build of Deno) starts its workers under the
  // same emulation, which finds that CPU's C library through this prefix (scripts/aarch64_smoke.sh).
  "QEMU_LD_PREFIX",
];

function workerEnv(memoryMb: number): Record<string, string> {
  // The worker gets no secrets: only what Deno needs to find its cache and temporary files. Nor does it look for
  // a new Deno release at start, as `deno run` does otherwise (a DNS lookup of dl.deno.land per worker).
  const env: Record<string, string> = {
    NO_COLOR: "1",
    DENO_V8_FLAGS: `--max-old-space-size=${memoryMb}`,
    DENO_NO_UPDATE_CHECK: "1",
  };
  for (const key of ENV_KEPT) {
    const value = Deno.env.get(key);
    if (value !== undefined) env[key] = value;
  }
  return env;
}

function residentMb(pid: number): number | null {
  try {
    const status = Deno.readTextFileSync(`/proc/${pid}/status`);
    const match = /VmRSS:\s+(\d+)\s+kB/.exec(status);
    return match ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/**
 * Reads frames off a byte stream: a frame is a 4-byte little-endian length and that many bytes. `read(n)`
 * returns exactly n bytes, or null when the stream ends first.
 */
export class FrameReader {
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private chunks: Uint8Array[] = [];
  private buffered = 0;
  private ended = false;

  constructor(stream: ReadableStream<Uint8Array>) {
    this.reader = stream.getReader();
  }

  async read(size: number): Promise<Uint8Array | null> {
    while (this.buffered < size) {
      if (this.ended) return null;
      const { done, value } = await this.reader.read();
      if (done) this.ended = true;
      else if (value.length > 0) {
        this.chunks.push(value);
        this.buffered += value.length;
      }
    }
    const out = this.chunks.length === 1 && this.chunks[0].length === size
      ? this.chunks[0]
      : new Uint8Array(size);
    if (out !== this.chunks[0] || this.chunks[0].length !== size) {
      let offset = 0;
      while (offset < size) {
        const chunk = this.chunks[0];
        const take = Math.min(chunk.length, size - offset);
        out.set(chunk.subarray(0, take), offset);
        offset += take;
        if (take === chunk.length) {
          this.chunks.shift();
          freeRead(chunk);
        } else this.chunks[0] = chunk.subarray(take);
      }
    } else this.chunks.shift();
    this.buffered -= size;
    return out;
  }

  /** A frame's length; null at the end of the stream. */
  async length(): Promise<number | null> {
    const head = await this.read(4);
    return head ? new DataView(head.buffer, head.byteOffset, 4).getUint32(0, true) : null;
  }

  cancel() {
    this.reader.cancel().catch(() => {});
  }
}

/**
 * Frees a read of the stream once all of it has been copied out. Each read is a buffer of its own (the stream
 * allocates one per read and hands it over), and no part of one read ends up in a frame as a view when its last
 * part is copied (a frame is a view only when it is the rest of a read, up to its end), so nothing else holds it.
 * A worker's answers pass through 64 KiB reads: a book's were tens of megabytes of them, left for V8's next full
 * collection (issue 21).
 */
function freeRead(chunk: Uint8Array): void {
  const buffer = chunk.buffer;
  if (buffer instanceof ArrayBuffer && !buffer.detached) buffer.transfer(0);
}

/** A frame: its length, then `parts` one after the other. */
function frame(...parts: Uint8Array[]): Uint8Array {
  const size = parts.reduce((sum, part) => sum + part.length, 0);
  const out = new Uint8Array(4 + size);
  new DataView(out.buffer).setUint32(0, size, true);
  let offset = 4;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

const OUT_OF_MEMORY =
  /out of memory|heap limit|allocation failed|invalid array length|invalid string length/i;

/**
 * How many workers may run at once; more files wait their turn. Bounded by the processors and by half the
 * machine's memory at PARSE_MEMORY_MB (plus headroom) per worker, and at least one.
 */
function maxWorkers(memoryMb: number): number {
  const processors = Math.max(2, Math.min(4, navigator.hardwareConcurrency ?? 2));
  let total = 0;
  try {
    total = Deno.systemMemoryInfo().total;
  } catch {
    return processors;
  }
  const byMemory = Math.floor((total / 2) / ((memoryMb + RSS_HEADROOM_MB) * 1024 * 1024));
  return Math.max(1, Math.min(processors, byMemory));
}

/** The memory limit of the latest file to ask for a worker (one configuration sets it for all of them). */
let askedMemoryMb = 1024;
/** Files wait for a worker; the limit follows the machine's memory as it is when a file asks. */
const workers = createLimiter(() => maxWorkers(askedMemoryMb));

/**
 * Files whose chunks the workers made (parseAndChunk) and that are not written yet, at most as many as files
 * parse at once: when the vector store writes slower than the workers parse, the next file waits before its
 * parse instead of its text and vectors piling up in the server (issue 21).
 */
const preparedSlots = createLimiter(() => maxWorkers(askedMemoryMb));

/** Waits for a place for one more file's chunks; the caller calls the answer once they are written or dropped. */
export async function holdPreparedSlot(): Promise<() => void> {
  const entered = Promise.withResolvers<void>();
  const done = Promise.withResolvers<void>();
  preparedSlots.run(() => {
    entered.resolve();
    return done.promise;
  });
  await entered.promise;
  return () => done.resolve();
}

/** Plain text has no parser to attack: its bytes are its text, which the server holds afterwards anyway. */
const IN_PROCESS = new Set([".txt", ".md", ".org", ".adoc", ".rst"]);

/**
 * Parses one uploaded or fetched file. Plain text (and an unknown extension, read as text or refused) is
 * decoded here, in linear time, without a process start; every format with a parser goes to a worker.
 */
export async function parseFile(
  input: ParseInput,
  limits: ParseLimits,
  log?: Logger,
): Promise<ParsedDocument> {
  const extension = extensionOf(input.name);
  // Unknown extensions are text or refused, both decided here.
  const plain = IN_PROCESS.has(extension) || !canParse(extension);
  if (!plain) return await parseInWorker(input, limits, log);
  return await parseDocument({ ...input, maxTextChars: limits.maxTextChars });
}

/**
 * Parses one file in a worker process, within `limits`. Every failure is a ParseFailure whose message names
 * the file and says why: the parser's own reason (encrypted, damaged, empty, unsupported), or that the worker
 * took too long, ran out of memory or stopped.
 */
export async function parseInWorker(
  input: ParseInput,
  limits: ParseLimits,
  log?: Logger,
): Promise<ParsedDocument> {
  askedMemoryMb = limits.memoryMb;
  return (await workers.run(() => runWorker(input, limits, log))).document;
}

/** A parsed file, with its chunks when they were asked for. */
export interface ParsedFile {
  document: ParsedDocument;
  chunks?: { summary: ChunkSummary; bytes: Uint8Array; cacheText: Uint8Array };
}

/**
 * Parses one file in a worker, which also splits its text as `plan` says and embeds the chunks with the built-in
 * lexical embedder (prepared_chunks.ts): plain text goes there too, so the server makes none of that garbage.
 * Failures are parseInWorker's.
 */
export async function parseAndChunk(
  input: ParseInput,
  limits: ParseLimits,
  plan: ChunkPlan,
  log?: Logger,
): Promise<ParsedFile> {
  askedMemoryMb = limits.memoryMb;
  return await workers.run(() => runWorker(input, limits, log, plan));
}

/**
 * Files a worker parses before it is retired for a fresh one (what a parser library keeps goes with it). A fresh
 * worker pays a runtime start, the parser libraries' load and their warm-up (about a second on 2 cores), so
 * this is high: a worker that grows is retired sooner by its resident size (RETIRE_AT_SHARE).
 */
const FILES_PER_WORKER = 1000;
/** A worker larger than this share of its stop limit after a file is retired. */
const RETIRE_AT_SHARE = 0.5;
/** A worker idle this long exits, so an idle server carries none. */
const IDLE_MS = 10_000;

/** What the tests may change. */
export const parseWorkerSettings = { filesPerWorker: FILES_PER_WORKER, idleMs: IDLE_MS };

/** A running worker process, with the last of its stderr. */
class ParseWorkerProcess {
  readonly child: Deno.ChildProcess;
  readonly frames: FrameReader;
  readonly writer: WritableStreamDefaultWriter<Uint8Array>;
  readonly status: Promise<Deno.CommandStatus>;
  files = 0;
  exited = false;
  stderrTail = "";
  idleTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(readonly memoryMb: number) {
    const settings: WorkerSettings = { memoryMb };
    // Compiled, the executable's V8 flags are fixed, so there the resident-size watch is the memory bound.
    const { command, args } = workerCommand(import.meta.url, "parse-worker", settings, [
      `--max-old-space-size=${memoryMb}`,
    ]);
    this.child = new Deno.Command(command, {
      args,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
      clearEnv: true,
      env: workerEnv(memoryMb),
    }).spawn();
    this.frames = new FrameReader(this.child.stdout);
    this.writer = this.child.stdin.getWriter();
    this.status = this.child.status.then((status) => {
      this.exited = true;
      return status;
    });
    const stderr = this.child.stderr;
    (async () => {
      const decoder = new TextDecoder();
      for await (const chunk of stderr) {
        this.stderrTail = (this.stderrTail + decoder.decode(chunk, { stream: true })).slice(-64 * 1024);
      }
    })().catch(() => {});
  }

  get pid() {
    return this.child.pid;
  }

  kill() {
    try {
      this.child.kill("SIGKILL");
    } catch {
      // It has ended already.
    }
  }

  /** Ends the worker: its stdin closes and it exits (killed if it does not within a second). */
  async close() {
    clearTimeout(this.idleTimer);
    await this.writer.close().catch(() => {});
    const timer = setTimeout(() => this.kill(), 1000);
    await this.status.catch(() => {});
    clearTimeout(timer);
    this.frames.cancel();
  }
}

/** The workers waiting for a file, the most recently used last. */
const idle: ParseWorkerProcess[] = [];
/** Every worker alive (idle or busy). */
const alive = new Set<ParseWorkerProcess>();
let spawned = 0;

/** For the tests: workers started so far, and the process ids of those alive. */
export function parseWorkerStats(): { spawned: number; pids: number[] } {
  return { spawned, pids: [...alive].map((worker) => worker.pid) };
}

/** Ends every idle worker (the server's close; tests between files). Busy ones end when their file is done. */
export async function closeParseWorkers(): Promise<void> {
  const closing = idle.splice(0);
  await Promise.all(closing.map(async (worker) => {
    await worker.close();
    alive.delete(worker);
  }));
}

function takeWorker(memoryMb: number): ParseWorkerProcess {
  while (idle.length > 0) {
    const worker = idle.pop()!;
    clearTimeout(worker.idleTimer);
    if (!worker.exited && worker.memoryMb === memoryMb) {
      worker.child.ref();
      return worker;
    }
    alive.delete(worker);
    worker.close();
  }
  const worker = new ParseWorkerProcess(memoryMb);
  spawned++;
  alive.add(worker);
  return worker;
}

function retire(worker: ParseWorkerProcess) {
  alive.delete(worker);
  worker.close();
}

function release(worker: ParseWorkerProcess, limitMb: number) {
  const rss = residentMb(worker.pid);
  if (
    worker.exited || worker.files >= parseWorkerSettings.filesPerWorker ||
    (rss !== null && rss > limitMb * RETIRE_AT_SHARE)
  ) {
    retire(worker);
    return;
  }
  // An idle worker does not keep the server's event loop alive, and leaves after a while.
  worker.child.unref();
  worker.idleTimer = setTimeout(() => {
    const index = idle.indexOf(worker);
    if (index >= 0) idle.splice(index, 1);
    retire(worker);
  }, parseWorkerSettings.idleMs);
  Deno.unrefTimer(worker.idleTimer as unknown as number);
  idle.push(worker);
}

async function runWorker(
  input: ParseInput,
  limits: ParseLimits,
  log?: Logger,
  plan?: ChunkPlan,
): Promise<ParsedFile> {
  const worker = takeWorker(limits.memoryMb);
  worker.files++;
  worker.stderrTail = "";
  const request: WorkerRequest = {
    name: input.name,
    contentType: input.contentType,
    maxTextChars: limits.maxTextChars,
    size: input.bytes.length,
    ...(plan ? { chunks: plan } : {}),
  };
  let stopped: "timeout" | "memory" | "output" | null = null;
  const stop = (reason: typeof stopped) => {
    if (stopped) return;
    stopped = reason;
    worker.kill();
  };
  const timer = setTimeout(() => stop("timeout"), limits.timeoutSeconds * 1000);
  const rssLimit = limits.memoryMb + RSS_HEADROOM_MB;
  const watch = setInterval(() => {
    const rss = residentMb(worker.pid);
    if (rss !== null && rss > rssLimit) stop("memory");
  }, 100);

  // Whether the worker answered in full; its answer's bytes are let go once decoded (issue 21).
  let answered = false;
  let result: WorkerResult | null = null;
  let chunks: Uint8Array | null = null;
  let cacheText: Uint8Array | null = null;
  try {
    const header = new TextEncoder().encode(JSON.stringify(request));
    const writing = worker.writer.write(frame(header)).then(() => worker.writer.write(input.bytes))
      .catch(() => {
        // The worker ended before reading everything (it was stopped, or failed); its answer says why.
      });
    const length = await worker.frames.length();
    if (length !== null) {
      if (length > maxAnswerBytes(limits)) stop("output");
      else {
        const answer = await worker.frames.read(length);
        answered = answer !== null;
        result = decodeResult(answer);
        freeBytes(answer);
      }
    }
    if (result?.ok && result.chunks) {
      // The chunks' bytes follow; a worker that stops before they are whole gave no answer.
      const expected = chunkBytes(result.chunks);
      const size = await worker.frames.length();
      if (size !== null && size !== expected) stop("output");
      else if (size !== null) chunks = await worker.frames.read(size);
      const textSize = chunks === null ? null : await worker.frames.length();
      if (textSize !== null && textSize !== result.chunks.cacheBytes) stop("output");
      else if (textSize !== null) cacheText = await worker.frames.read(textSize);
      if (chunks === null || cacheText === null) {
        answered = false;
        result = null;
      }
    }
    await writing;
  } finally {
    clearTimeout(timer);
    clearInterval(watch);
  }

  const name = input.name;
  if (stopped || !answered) {
    alive.delete(worker);
    worker.kill();
  }
  const status = answered ? null : await worker.status;
  const errors = worker.stderrTail;
  if (stopped === "timeout") {
    throw new ParseFailure(
      "limit",
      `${name} could not be parsed: it took longer than ${limits.timeoutSeconds} s.`,
    );
  }
  if (stopped === "memory" || (status && !status.success && OUT_OF_MEMORY.test(errors))) {
    throw new ParseFailure(
      "limit",
      `${name} could not be parsed: it ran out of memory (the limit is ${limits.memoryMb} MB).`,
    );
  }
  if (stopped === "output") throw new ParseFailure("limit", textTooLargeMessage(name, limits.maxTextChars));
  if (!result) {
    log?.warn("The parse worker stopped", {
      name,
      code: status?.code,
      signal: status?.signal ?? undefined,
      stderr: errors.slice(-2000),
    });
    retire(worker);
    throw new ParseFailure("corrupt", `${name} could not be parsed: the parser stopped unexpectedly.`);
  }
  release(worker, rssLimit);
  if (!result.ok) throw new ParseFailure(result.kind, result.message);
  return {
    document: result.document,
    ...(result.chunks && chunks && cacheText
      ? { chunks: { summary: result.chunks, bytes: chunks, cacheText } }
      : {}),
  };
}

function decodeResult(answer: Uint8Array | null): WorkerResult | null {
  try {
    return answer ? JSON.parse(new TextDecoder().decode(answer)) as WorkerResult : null;
  } catch {
    return null;
  }
}

async function writeAll(bytes: Uint8Array) {
  let offset = 0;
  while (offset < bytes.length) offset += await Deno.stdout.write(bytes.subarray(offset));
}

/**
 * The worker's side: `main.ts parse-worker <settings JSON>`. It reads requests (a framed JSON header, then the
 * file's bytes) on stdin and answers each with a framed JSON result on stdout, until stdin closes.
 */
export async function runParseWorker(_settingsJson: string | undefined): Promise<never> {
  // Libraries print warnings with console.log; stdout carries the results only.
  const toStderr = (...values: unknown[]) => {
    Deno.stderr.writeSync(new TextEncoder().encode(`${values.map(String).join(" ")}\n`));
  };
  for (const method of ["log", "info", "debug", "warn", "error", "trace"] as const) {
    console[method] = toStderr;
  }
  // A library's stray rejection must not end the worker before it answers.
  globalThis.addEventListener("unhandledrejection", (event) => {
    event.preventDefault();
    toStderr("Unhandled rejection in the parse worker:", event.reason);
  });

  const frames = new FrameReader(Deno.stdin.readable);
  while (true) {
    const length = await frames.length();
    if (length === null) break;
    const header = await frames.read(length);
    let result: WorkerResult;
    let chunkFrames: Uint8Array[] = [];
    let name = "The file";
    try {
      const request = JSON.parse(new TextDecoder().decode(header ?? new Uint8Array())) as WorkerRequest;
      name = request.name;
      const bytes = await frames.read(request.size);
      if (!bytes) break;
      const { contentType, maxTextChars } = request;
      const document = await parseDocument({ name, bytes, contentType, maxTextChars });
      if (request.chunks) {
        const made = await lexicalChunks(document.text, document.pageBreaks, request.chunks);
        result = { ok: true, document, chunks: made.summary };
        chunkFrames = [frame(made.bytes), frame(made.cacheText)];
      } else result = { ok: true, document: { ...document, tokens: await estimateTokens(document.text) } };
    } catch (error) {
      if (error instanceof ParseFailure) result = { ok: false, kind: error.kind, message: error.message };
      else {
        toStderr((error as Error)?.stack ?? String(error));
        const detail = ((error as Error)?.message ?? String(error)).replace(/\.$/, "");
        result = { ok: false, kind: "corrupt", message: `${name} could not be parsed: ${detail}.` };
      }
    }
    await writeAll(frame(new TextEncoder().encode(JSON.stringify(result))));
    for (const part of chunkFrames) await writeAll(part);
  }
  Deno.exit(0);
}

if (import.meta.main && Deno.args[0] === "parse-worker") await runParseWorker(Deno.args[1]);
