// Parse + split per format, in this process (no worker, no server, no store): where the time of the ingest's
// parse + split + store line goes, format by format. Every file of ../shared/corpus (BENCH_STRIDE=n: every n-th)
// is parsed with parseDocument, split as the ingest splits it (1,000 characters, overlap 20) and given the
// token estimate and word count the store computes. Prints files/s, chunks/s and milliseconds per format.
// BENCH_DUMP=<dir> writes each file's parsed text there (to compare two versions of a parser).
// BENCH_CPU_PROFILE=<dir> profiles the timed round per format (<dir>/<format>.cpuprofile) and prints each format's
// ten functions of most self time.
import { parseDocument } from "../server/documents/parsers/index.ts";
import { splitText } from "../server/documents/chunker.ts";
import { estimateTokens } from "../server/documents/tokens.ts";
import { wordCount } from "../server/documents/store.ts";
import { extensionOf } from "../server/documents/text.ts";
import process from "node:process";
import { CORPUS, corpusFiles, corpusOrSkip } from "./corpus.ts";

const ONLY = Deno.env.get("BENCH_FORMAT");
const DUMP = Deno.env.get("BENCH_DUMP");
const ROUNDS = Math.max(1, Number(Deno.env.get("BENCH_ROUNDS") ?? 1));
const PROFILE = Deno.env.get("BENCH_CPU_PROFILE");

corpusOrSkip("Parse benchmark");

const files = corpusFiles()
  .filter((path) => !ONLY || extensionOf(path) === `.${ONLY}`);
const inputs = files.map((path) => ({ path, bytes: Deno.readFileSync(path) }));
if (DUMP) Deno.mkdirSync(DUMP, { recursive: true });
if (PROFILE) Deno.mkdirSync(PROFILE, { recursive: true });

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** The profiler of the timed round: one profile per format, started at the format's first file. */
const inspector = PROFILE ? new (await import("node:inspector/promises")).Session() : null;
if (inspector) {
  inspector.connect();
  await inspector.post("Profiler.enable");
  await inspector.post("Profiler.setSamplingInterval", { interval: 200 });
}
let profiling: string | null = null;
const topSelf: string[] = [];

/** Ends the running profile: writes it and keeps its ten functions of most self time (milliseconds). */
async function endProfile() {
  if (!inspector || !profiling || !PROFILE) return;
  const { profile } = await inspector.post("Profiler.stop") as unknown as { profile: Profile };
  Deno.writeTextFileSync(`${PROFILE}/${profiling.slice(1)}.cpuprofile`, JSON.stringify(profile));
  const byNode = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, index) => {
    const { functionName, url, lineNumber } = byNode.get(id)!.callFrame;
    const key = `${functionName || "(anonymous)"} ${url.replace(/^.*\/node_modules\/(\.deno\/)?/, "")}:${
      lineNumber + 1
    }`;
    const micros = profile.timeDeltas[index] ?? 0;
    total += micros;
    self.set(key, (self.get(key) ?? 0) + micros);
  });
  const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, 10);
  topSelf.push(
    `${profiling} (${(total / 1000).toFixed(0)} ms sampled):\n` +
      top.map(([key, micros]) =>
        `  ${(micros / 1000).toFixed(0).padStart(6)} ms ${
          (100 * micros / total).toFixed(1).padStart(5)
        } % ${key}`
      ).join("\n"),
  );
  profiling = null;
}

interface Figures {
  files: number;
  refused: number;
  chunks: number;
  characters: number;
  parseMs: number;
  splitMs: number;
  countMs: number;
  /** Processor time of the whole process (every thread: the collector's too), less sensitive to a loaded machine. */
  cpuMs: number;
}
const byFormat = new Map<string, Figures>();
const refusals: string[] = [];

// Warm-up: each format's libraries load once before the timing (a worker keeps them loaded).
const warmed = new Set<string>();
for (const { path, bytes } of inputs) {
  const extension = extensionOf(path);
  if (warmed.has(extension)) continue;
  warmed.add(extension);
  await parseDocument({ name: path.split("/").pop()!, bytes }).catch(() => {});
}
await estimateTokens("warm");

for (let round = 0; round < ROUNDS; round++) {
  byFormat.clear();
  refusals.length = 0;
  const profiled = inspector !== null && round === ROUNDS - 1;
  for (const { path, bytes } of inputs) {
    const extension = extensionOf(path);
    if (profiled && profiling !== extension) {
      await endProfile();
      await inspector.post("Profiler.start");
      profiling = extension;
    }
    const figures = byFormat.get(extension) ??
      { files: 0, refused: 0, chunks: 0, characters: 0, parseMs: 0, splitMs: 0, countMs: 0, cpuMs: 0 };
    byFormat.set(extension, figures);
    figures.files++;
    const name = path.split("/").pop()!;
    const cpu = process.cpuUsage();
    const cpuMs = () => {
      const used = process.cpuUsage(cpu);
      return (used.user + used.system) / 1000;
    };
    let started = performance.now();
    let text: string;
    try {
      text = (await parseDocument({ name, bytes })).text;
    } catch (error) {
      figures.parseMs += performance.now() - started;
      figures.refused++;
      figures.cpuMs += cpuMs();
      refusals.push(`${path.slice(CORPUS.length)}: ${(error as Error).message}`);
      continue;
    }
    figures.parseMs += performance.now() - started;
    if (DUMP) Deno.writeTextFileSync(`${DUMP}/${path.slice(CORPUS.length).replaceAll("/", "__")}.txt`, text);
    started = performance.now();
    const chunks = await splitText(text, { chunkSize: 1000, chunkOverlap: 20 });
    figures.splitMs += performance.now() - started;
    started = performance.now();
    await estimateTokens(text);
    wordCount(text);
    figures.countMs += performance.now() - started;
    figures.cpuMs += cpuMs();
    figures.chunks += chunks.length;
    figures.characters += text.length;
  }
}

await endProfile();
inspector?.disconnect();

const total: Figures = {
  files: 0,
  refused: 0,
  chunks: 0,
  characters: 0,
  parseMs: 0,
  splitMs: 0,
  countMs: 0,
  cpuMs: 0,
};
const rows = [...byFormat.entries()].sort((a, b) => b[1].parseMs - a[1].parseMs);
for (const [, figures] of rows) {
  for (const key of Object.keys(total) as (keyof Figures)[]) total[key] += figures[key];
}
const line = (label: string, f: Figures) => {
  const seconds = (f.parseMs + f.splitMs + f.countMs) / 1000;
  return `${label.padEnd(6)} ${String(f.files).padStart(5)} files ${String(f.refused).padStart(3)} refused ` +
    `${String(f.chunks).padStart(6)} chunks ${(f.characters / 1e6).toFixed(1).padStart(6)} M chars | ` +
    `parse ${f.parseMs.toFixed(0).padStart(6)} ms split ${f.splitMs.toFixed(0).padStart(5)} ms ` +
    `count ${f.countMs.toFixed(0).padStart(4)} ms | cpu ${f.cpuMs.toFixed(0).padStart(6)} ms | ${
      (f.files / seconds).toFixed(0).padStart(5)
    } files/s ` +
    `${(f.chunks / seconds).toFixed(0).padStart(6)} chunks/s (${
      (f.chunks / (f.cpuMs / 1000)).toFixed(0)
    } per cpu s)`;
};
for (const [extension, figures] of rows) console.log(line(extension, figures));
console.log(line("all", total));
if (refusals.length) console.log(`Refused (${refusals.length}):\n  ${refusals.join("\n  ")}`);
if (topSelf.length) console.log(`Most self time by format:\n${topSelf.join("\n")}`);
console.log(JSON.stringify({ benchmark: "parse-formats", ...Object.fromEntries(rows), all: total }));
