// Built-in model benchmark (the `native` LLM provider): time and resident memory (VmRSS) of this process for
// starting llama.cpp, loading a GGUF model, answering, and unloading it again. By default it runs the tiny test
// model the tests write (2 layers, 64 dimensions, 315 tokens, 0.5 MB); BENCH_GGUF=/path/to/model.gguf runs a real
// one. BENCH_THREADS sets llama.cpp's threads (default: half the logical CPUs), BENCH_CONTEXT the context (default 512),
// BENCH_TOKENS the answer length (default 64); BENCH_SIZE=large writes a bigger random model instead (8 layers,
// 512 dimensions, 84 MB of f32 weights) so loading and unloading show in the memory figures. Prints a table and a JSON line.
import { basename, dirname, join } from "node:path";
import { nativeChatModel } from "../server/providers/llm/native_llm/chat_model.ts";
import {
  configureNativeRuntime,
  shutdownNativeRuntime,
  startNativeRuntime,
  unloadNativeModel,
} from "../server/providers/llm/native_llm/runtime.ts";
import { writeTinyLlamaGguf } from "../server/providers/llm/native_llm/testing/gguf_writer.ts";

const tokens = Number(Deno.env.get("BENCH_TOKENS") ?? 64);
const contextWindow = Number(Deno.env.get("BENCH_CONTEXT") ?? 512);
const threads = Deno.env.get("BENCH_THREADS");
let modelPath = Deno.env.get("BENCH_GGUF");
let temporary: string | undefined;
if (!modelPath) {
  temporary = await Deno.makeTempDir({ prefix: "lectern-bench-native-" });
  const large = Deno.env.get("BENCH_SIZE") === "large";
  modelPath = await writeTinyLlamaGguf(
    join(temporary, large ? "large.gguf" : "tiny.gguf"),
    large ? { layers: 8, embedding: 512, heads: 8, feedForward: 1024 } : {},
  );
}

function rssMiB(): number {
  const status = Deno.readTextFileSync("/proc/self/status");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? NaN) / 1024;
}

configureNativeRuntime(threads ? { threads: Number(threads) } : {});
const chat = nativeChatModel({ modelsDir: dirname(modelPath), modelId: basename(modelPath), contextWindow });
const messages = [
  { role: "system" as const, content: "You are a helpful assistant." },
  { role: "user" as const, content: "Tell me about herons and the rivers they live by." },
];

async function answer() {
  const started = performance.now();
  let firstMs = NaN;
  let output = 0;
  for await (
    const part of chat.stream({ messages, maxTokens: tokens, temperature: 0 }, new AbortController().signal)
  ) {
    if (part.type === "text-delta" && Number.isNaN(firstMs)) firstMs = performance.now() - started;
    if (part.type === "usage") output = part.outputTokens;
  }
  const totalMs = performance.now() - started;
  return { firstMs, totalMs, output, tokensPerSecond: output / ((totalMs - firstMs) / 1000) };
}

const rows: [string, number, number][] = [];
const baseline = rssMiB();
rows.push(["process before", 0, baseline]);
let started = performance.now();
const backend = await startNativeRuntime();
rows.push(["import node-llama-cpp + start llama.cpp", performance.now() - started, rssMiB()]);
const cold = await answer();
rows.push(["first answer: load model, first token", cold.firstMs, rssMiB()]);
const warm = await answer();
rows.push([`warm answer: first token (then ${warm.output} tokens)`, warm.firstMs, rssMiB()]);
started = performance.now();
await unloadNativeModel();
rows.push(["unload model", performance.now() - started, rssMiB()]);
started = performance.now();
await shutdownNativeRuntime();
rows.push(["stop llama.cpp", performance.now() - started, rssMiB()]);

console.log(
  `Model ${modelPath} (${((await Deno.stat(modelPath)).size / 1048576).toFixed(1)} MiB), ` +
    `context ${contextWindow}, ${backend.threads} threads, gpu ${backend.gpu}`,
);
for (const [step, ms, rss] of rows) {
  console.log(`${step.padEnd(48)} ${ms.toFixed(0).padStart(7)} ms   RSS ${rss.toFixed(0).padStart(5)} MiB`);
}
console.log(`warm generation: ${warm.tokensPerSecond.toFixed(1)} tokens/s`);
console.log(JSON.stringify({
  bench: "native_llm",
  model: basename(modelPath),
  threads: backend.threads,
  steps: rows.map(([step, ms, rss]) => ({ step, ms: Math.round(ms), rssMiB: Math.round(rss) })),
  warmTokensPerSecond: Number(warm.tokensPerSecond.toFixed(1)),
}));
if (temporary) await Deno.remove(temporary, { recursive: true });
