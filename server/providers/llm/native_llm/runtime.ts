import { messageOf, ProviderError } from "../../../errors.ts";
import type { Llama, LlamaChat, LlamaContext, LlamaModel } from "node-llama-cpp";

/** How long a loaded model stays in memory after its last answer when nobody says otherwise: 5 minutes. */
export const DEFAULT_IDLE_SECONDS = 300;

export interface RuntimeSettings {
  /** "auto" lets llama.cpp use a CUDA or Vulkan build when the machine has one; false keeps to the CPU. */
  gpu?: "auto" | false;
  /**
   * Most threads llama.cpp evaluates tokens with; unset: half the logical CPUs (about the physical cores,
   * llama.cpp's own advice), at least 1. node-llama-cpp's default (at least 4) oversubscribes small servers:
   * llama.cpp's threads spin while they wait for each other, and on a busy 2-CPU machine the tiny test model made
   * 3.6 tokens/s with 2 threads against 1,385 with 1 (bench/native_llm.ts).
   */
  threads?: number;
  /** Where llama.cpp's warnings and errors go (the server's log); unset: nowhere. */
  log?: (level: "warn" | "error", message: string) => void;
}

/** The model in memory: at most one at a time, because a GGUF model takes most of a small server's RAM. */
interface Loaded {
  path: string;
  contextSize: number;
  model: LlamaModel;
  context: LlamaContext;
  chat: LlamaChat;
  idleTimer?: ReturnType<typeof setTimeout>;
  unloaded: PromiseWithResolvers<void>;
}

/** What a chat holds while it generates; `release` starts the idle clock. */
export interface Lease {
  model: LlamaModel;
  chat: LlamaChat;
  release(): void;
}

type NodeLlamaCpp = typeof import("node-llama-cpp");

let library: Promise<NodeLlamaCpp> | undefined;
let llama: Promise<Llama> | undefined;
let loaded: Loaded | undefined;
// Every load and every generation runs after the previous one: one model, one context sequence.
let queue: Promise<unknown> = Promise.resolve();
let settings: RuntimeSettings = {};
// llama.cpp's recent error lines: its own reason a load failed, which node-llama-cpp's error leaves out.
const recentErrors: string[] = [];

/** Settings for the llama.cpp backend; they apply when it is first started (or after `shutdownNativeRuntime`). */
export function configureNativeRuntime(next: RuntimeSettings) {
  settings = { ...next };
}

function loadLibrary(): Promise<NodeLlamaCpp> {
  // Imported on first use only: the addon and its 30 MB llama.cpp build are not loaded by a server that never
  // runs a local model.
  library ??= import("node-llama-cpp").catch((error) => {
    library = undefined;
    throw error;
  });
  return library;
}

function backend(): Promise<Llama> {
  llama ??= (async () => {
    const { getLlama, LlamaLogLevel } = await loadLibrary();
    const errorLevels = new Set<string>([LlamaLogLevel.error, LlamaLogLevel.fatal]);
    // Prebuilt binaries only: never download llama.cpp's source or build it (the server may have no internet).
    return await getLlama({
      gpu: settings.gpu ?? false,
      build: "never",
      skipDownload: true,
      usePrebuiltBinaries: true,
      progressLogs: false,
      logLevel: LlamaLogLevel.warn,
      logger(level, message) {
        const error = errorLevels.has(level);
        if (error && recentErrors.push(message.trim()) > 10) recentErrors.shift();
        settings.log?.(error ? "error" : "warn", `llama.cpp: ${message.trim()}`);
      },
      maxThreads: settings.threads ?? Math.max(1, Math.floor((navigator.hardwareConcurrency || 1) / 2)),
    });
  })().catch((error) => {
    llama = undefined;
    throw new ProviderError(
      `The built-in model runner (llama.cpp) could not start on this server: ${sentence(messageOf(error))}`,
      undefined,
      { cause: error },
    );
  });
  return llama;
}

/** Ends a message from a library with a period, so it reads as the end of our sentence. */
export function sentence(text: string): string {
  const trimmed = text.trim().replace(/\s+/g, " ");
  if (!trimmed) return "no reason was given.";
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

async function dispose(entry: Loaded) {
  clearTimeout(entry.idleTimer);
  if (loaded === entry) loaded = undefined;
  try {
    entry.chat.dispose({ disposeSequence: true });
    await entry.context.dispose();
    await entry.model.dispose();
  } finally {
    entry.unloaded.resolve();
  }
}

async function load(path: string, contextSize: number, modelName: string): Promise<Loaded> {
  const instance = await backend();
  const { LlamaChat } = await loadLibrary();
  let model: LlamaModel;
  recentErrors.length = 0;
  try {
    model = await instance.loadModel({ modelPath: path, gpuLayers: settings.gpu ? "auto" : 0 });
  } catch (error) {
    const reason = recentErrors.map((line) => /error loading model: (.+)/.exec(line)?.[1]).find(Boolean);
    throw new ProviderError(
      `Cannot load the local model ${modelName}: ${sentence(messageOf(error))} ` +
        (reason ? `llama.cpp says: ${sentence(reason)} ` : "") +
        "The file may be damaged, incomplete, or of a kind this server's llama.cpp does not read.",
      undefined,
      { cause: error },
    );
  }
  try {
    const context = await model.createContext({ contextSize, sequences: 1 });
    const chat = new LlamaChat({ contextSequence: context.getSequence(), autoDisposeSequence: true });
    return { path, contextSize, model, context, chat, unloaded: Promise.withResolvers() };
  } catch (error) {
    await model.dispose().catch(() => {});
    throw new ProviderError(
      `Cannot make a context of ${contextSize} tokens for the local model ${modelName}: ` +
        `${sentence(messageOf(error))} Lower the model's token limit in Settings → LLM.`,
      undefined,
      { cause: error },
    );
  }
}

/** Waits for its turn (or the abort), loading `path` first when another model, or none, is in memory. */
export function acquire(
  request: { path: string; contextSize: number; modelName: string; idleSeconds: number },
  signal: AbortSignal,
): Promise<Lease> {
  const turn = Promise.withResolvers<void>();
  const previous = queue;
  queue = previous.then(() => turn.promise);
  const started = alive(async (): Promise<Lease> => {
    await abortable(previous, signal);
    signal.throwIfAborted();
    let entry = loaded;
    if (entry && (entry.path !== request.path || entry.contextSize !== request.contextSize)) {
      await dispose(entry);
      entry = undefined;
    }
    if (!entry) {
      entry = await load(request.path, request.contextSize, request.modelName);
      loaded = entry;
    }
    clearTimeout(entry.idleTimer);
    entry.idleTimer = undefined;
    const current = entry;
    let released = false;
    return {
      model: current.model,
      chat: current.chat,
      release() {
        if (released) return;
        released = true;
        if (loaded === current && !current.model.disposed) {
          const timer = setTimeout(() => {
            // Runs in the queue, so an answer that started meanwhile keeps its model.
            void runExclusive(async () => {
              if (loaded === current && current.idleTimer === timer) await dispose(current);
            });
          }, Math.max(0, request.idleSeconds * 1000));
          Deno.unrefTimer(timer);
          current.idleTimer = timer;
        }
        turn.resolve();
      },
    };
  });
  started.catch(() => turn.resolve());
  return started;
}

/** Resolves when `promise` settles, or rejects as soon as `signal` aborts. */
function abortable(promise: Promise<unknown>, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, () => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    });
  });
}

/**
 * Keeps the process alive while `work` runs, so a script or test with nothing else to do does not end while it
 * waits for a load, an unload or the idle timer (which is unref'd, so that it never holds a server open).
 */
async function alive<T>(work: () => Promise<T>): Promise<T> {
  const timer = setInterval(() => {}, 60_000);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}

function runExclusive(work: () => Promise<void>): Promise<void> {
  const guarded = () => alive(work);
  const run = queue.then(guarded, guarded);
  queue = run.catch(() => {});
  return run;
}

/** Starts the llama.cpp backend now rather than on the first answer; says which build runs and with how many threads. */
export async function startNativeRuntime(): Promise<{ gpu: string | false; threads: number }> {
  const instance = await backend();
  return { gpu: instance.gpu, threads: instance.maxThreads };
}

/** The model in memory, if any (for the settings screen, tests and benchmarks). */
export function loadedNativeModel(): { path: string; contextSize: number } | null {
  return loaded ? { path: loaded.path, contextSize: loaded.contextSize } : null;
}

/** Resolves when the model now in memory is unloaded (at once when none is); the process waits for it. */
export function whenNativeModelUnloaded(): Promise<void> {
  const entry = loaded;
  // The idle timer does not keep the process alive; whoever waits for it does.
  return entry ? alive(() => entry.unloaded.promise) : Promise.resolve();
}

/** Unloads the model now (after the answer being generated, if any), e.g. when its file was replaced. */
export function unloadNativeModel(): Promise<void> {
  return runExclusive(async () => {
    if (loaded) await dispose(loaded);
  });
}

/** Unloads the model and stops the llama.cpp backend (server shutdown, tests). */
/** How long a shutdown waits for the runtime's dispose (which may never end after a failed model load). */
const DISPOSE_WAIT_MS = 5_000;

export function shutdownNativeRuntime(): Promise<void> {
  return runExclusive(async () => {
    if (loaded) await dispose(loaded);
    const current = llama;
    llama = undefined;
    // Waited for, at most DISPOSE_WAIT_MS: after a model failed to load, node-llama-cpp 3.21.1 keeps a hold on the
    // backend that is never released (the half-made model's), and Llama.dispose() then waits forever; but a
    // dispose left running while its isolate is torn down (a test file's worker) crashed the whole process.
    const disposed = current?.then((instance) => instance.dispose()).catch(() => {});
    if (!disposed) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      disposed,
      new Promise<void>((resolve) => timer = setTimeout(resolve, DISPOSE_WAIT_MS)),
    ]);
    clearTimeout(timer);
  });
}
