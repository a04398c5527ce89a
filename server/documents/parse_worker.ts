// Parsing runs in a child process of its own (parsing of one file is bounded in time and
// memory): a hostile or huge file can only take that process down, never stall or exhaust the server.
// The child is this same program with the arguments `parse-worker <request JSON>`; it reads the file's bytes on
// stdin and writes one JSON result on stdout.
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

interface WorkerRequest {
  name: string;
  contentType?: string;
  maxTextChars: number;
}

type WorkerResult =
  | { ok: true; document: ParsedDocument }
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
];

function workerEnv(memoryMb: number): Record<string, string> {
  // The worker gets no secrets: only what Deno needs to find its cache and temporary files.
  const env: Record<string, string> = { NO_COLOR: "1", DENO_V8_FLAGS: `--max-old-space-size=${memoryMb}` };
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

async function readCapped(stream: ReadableStream<Uint8Array>, limit: number, onOverflow: () => void) {
  const chunks: Uint8Array[] = [];
  let size = 0;
  let overflowed = false;
  for await (const chunk of stream) {
    if (overflowed) continue;
    size += chunk.length;
    if (size > limit) {
      overflowed = true;
      chunks.length = 0;
      onOverflow();
      continue;
    }
    chunks.push(chunk);
  }
  const bytes = new Uint8Array(overflowed ? 0 : size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return { bytes, overflowed };
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
  return await workers.run(() => runWorker(input, limits, log));
}

async function runWorker(input: ParseInput, limits: ParseLimits, log?: Logger): Promise<ParsedDocument> {
  const request: WorkerRequest = {
    name: input.name,
    contentType: input.contentType,
    maxTextChars: limits.maxTextChars,
  };
  // Compiled, the executable's V8 flags are fixed, so there the resident-size watch below is the memory bound.
  const { command, args } = workerCommand(import.meta.url, "parse-worker", request, [
    `--max-old-space-size=${limits.memoryMb}`,
  ]);
  const child = new Deno.Command(command, {
    args,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    clearEnv: true,
    env: workerEnv(limits.memoryMb),
  }).spawn();

  let stopped: "timeout" | "memory" | "output" | null = null;
  const stop = (reason: typeof stopped) => {
    if (stopped) return;
    stopped = reason;
    try {
      child.kill("SIGKILL");
    } catch {
      // It has ended already.
    }
  };
  const timer = setTimeout(() => stop("timeout"), limits.timeoutSeconds * 1000);
  const rssLimit = limits.memoryMb + RSS_HEADROOM_MB;
  const watch = setInterval(() => {
    const rss = residentMb(child.pid);
    if (rss !== null && rss > rssLimit) stop("memory");
  }, 100);

  const feeding = (async () => {
    const writer = child.stdin.getWriter();
    try {
      await writer.write(input.bytes);
      await writer.close();
    } catch {
      // The worker ended before reading everything (it was stopped, or failed early); its answer says why.
    }
  })();
  const [status, stdout, stderr] = await Promise.all([
    child.status,
    readCapped(child.stdout, maxAnswerBytes(limits), () => stop("output")),
    readCapped(child.stderr, 64 * 1024, () => {}),
    feeding,
  ]);
  clearTimeout(timer);
  clearInterval(watch);

  const name = input.name;
  const errors = new TextDecoder().decode(stderr.bytes);
  if (stopped === "timeout") {
    throw new ParseFailure(
      "limit",
      `${name} could not be parsed: it took longer than ${limits.timeoutSeconds} s.`,
    );
  }
  if (stopped === "memory" || (!status.success && OUT_OF_MEMORY.test(errors))) {
    throw new ParseFailure(
      "limit",
      `${name} could not be parsed: it ran out of memory (the limit is ${limits.memoryMb} MB).`,
    );
  }
  if (stopped === "output") throw new ParseFailure("limit", textTooLargeMessage(name, limits.maxTextChars));
  let result: WorkerResult | null = null;
  try {
    result = JSON.parse(new TextDecoder().decode(stdout.bytes)) as WorkerResult;
  } catch {
    result = null;
  }
  if (!status.success || !result) {
    log?.warn("The parse worker stopped", {
      name,
      code: status.code,
      signal: status.signal ?? undefined,
      stderr: errors.slice(-2000),
    });
    throw new ParseFailure("corrupt", `${name} could not be parsed: the parser stopped unexpectedly.`);
  }
  if (!result.ok) throw new ParseFailure(result.kind, result.message);
  return result.document;
}

async function writeAll(bytes: Uint8Array) {
  let offset = 0;
  while (offset < bytes.length) offset += await Deno.stdout.write(bytes.subarray(offset));
}

/** The worker's side: `main.ts parse-worker <request JSON>`, the file on stdin, the result on stdout. */
export async function runParseWorker(requestJson: string | undefined): Promise<never> {
  // Libraries print warnings with console.log; stdout carries the result only.
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

  let result: WorkerResult;
  let name = "The file";
  try {
    const request = JSON.parse(requestJson ?? "") as WorkerRequest;
    name = request.name;
    const bytes = new Uint8Array(await new Response(Deno.stdin.readable).arrayBuffer());
    const { contentType, maxTextChars } = request;
    result = { ok: true, document: await parseDocument({ name, bytes, contentType, maxTextChars }) };
  } catch (error) {
    if (error instanceof ParseFailure) result = { ok: false, kind: error.kind, message: error.message };
    else {
      toStderr((error as Error)?.stack ?? String(error));
      const detail = ((error as Error)?.message ?? String(error)).replace(/\.$/, "");
      result = { ok: false, kind: "corrupt", message: `${name} could not be parsed: ${detail}.` };
    }
  }
  await writeAll(new TextEncoder().encode(JSON.stringify(result)));
  Deno.exit(0);
}

if (import.meta.main && Deno.args[0] === "parse-worker") await runParseWorker(Deno.args[1]);
