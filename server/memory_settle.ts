// One full garbage collection soon after a start, once the server is quiet (issue 21: idle memory). A start
// loads and runs its modules and leaves V8's heap with room it grew for that: 22 MiB committed for 13 used on a
// restart. V8 gives that room back only when its memory reducer runs, about 30 s after the heap stopped growing
// (bench/startup.ts: 79 MiB idle at 3 s, 73 at 35 s). A full collection a second after listening gives it back
// at once: 8 MiB less resident memory 3 s after the first ping (bench/memory_account.ts, 3 alternated pairs),
// for one collection of a heap of about 13 MiB, run on a quiet server.
import { fullCollector } from "./memory_trim.ts";

/** How long after the start (and between tries while busy) the collection waits. */
export const SETTLE_DELAY_MS = 1_000;
/** How many times it tries before leaving the work to V8's own memory reducer. */
export const SETTLE_TRIES = 30;

export interface SettleOptions {
  delayMs?: number;
  tries?: number;
  /** Gives the full garbage collection (null: none); by default V8's own (server/memory_trim.ts). */
  collector?: () => Promise<(() => void) | null>;
}

export interface Settle {
  /** True once collected; false when it gave up (busy at every try, no collector) or was stopped. */
  readonly settled: Promise<boolean>;
  stop(): void;
}

/**
 * Runs one full garbage collection `delayMs` after the call, or at the first later try (every `delayMs`, at most
 * `tries`) at which `busy` says the server is quiet: the collection pauses the JS thread (some milliseconds),
 * which a request being answered or an answer streaming would show. The timer never keeps the process alive.
 */
export function settleAfterStart(busy: () => boolean, options: SettleOptions = {}): Settle {
  const delayMs = options.delayMs ?? SETTLE_DELAY_MS;
  let left = options.tries ?? SETTLE_TRIES;
  const loadCollector = options.collector ?? fullCollector;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let finish: (collected: boolean) => void = () => {};
  const settled = new Promise<boolean>((resolve) => (finish = resolve));
  let stopped = false;
  const schedule = () => {
    timer = setTimeout(turn, delayMs);
    Deno.unrefTimer(timer);
  };
  const turn = async () => {
    timer = undefined;
    left--;
    if (busy()) {
      if (left > 0) schedule();
      else finish(false);
      return;
    }
    const collect = await loadCollector().catch(() => null);
    // Loading the collector the first time yields: the server may have become busy, or been stopped, meanwhile.
    if (stopped) return;
    if (!collect) {
      finish(false);
      return;
    }
    if (busy()) {
      if (left > 0) schedule();
      else finish(false);
      return;
    }
    collect();
    finish(true);
  };
  schedule();
  return {
    settled,
    stop() {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      finish(false);
    },
  };
}
