/**
 * Hands freed native memory back to the system. glibc's allocator keeps what LanceDB's worker threads free in
 * per-thread arenas; after the corpus ingest benchmark `malloc_trim(0)` returned 90–150 MB of them. On other C
 * libraries (musl, macOS) the symbol is absent and nothing runs. A trim that growth starts collects the
 * JavaScript garbage first (`fullCollector`).
 */

export interface MemoryTrimmer {
  /** Whether this system's C library has malloc_trim. */
  readonly available: boolean;
  /**
   * The turns so far: trimmed by the timer, skipped because the server was busy, and trimmed early because the
   * resident memory grew by `growthBytes` since the last trim (or its lowest point since); `settled` counts the
   * growth turns that are over (their trim done, or given up), after which the low point is what it left.
   */
  readonly turns: { trimmed: number; skipped: number; grown: number; settled: number };
  /** Trims now (a trim under way is joined); true when memory was returned to the system. */
  trim(): Promise<boolean>;
  stop(): void;
}

export interface MemoryTrimOptions {
  /** Growth of the resident memory above its low point since the last trim that trims at once; 0 turns it off. */
  growthBytes?: number;
  /** How often the resident memory is read for that (milliseconds). */
  checkMs?: number;
  /** The process's resident memory in bytes (tests pass their own). */
  rss?: () => number;
  /**
   * Gives the full garbage collection run before each trim that growth starts (null: none). By default V8's own
   * (`fullCollector`), loaded at the first such trim.
   */
  collector?: () => Promise<(() => void) | null>;
}

/**
 * An ingest's native memory churns: LanceDB's writer threads allocate and free tens of megabytes per commit, and
 * what they free stays in glibc's arenas until a trim. On the corpus benchmark the 30 s timer alone let the
 * server's anonymous memory reach about 300 MiB between two turns, of which a trim returned 100 (issue 21).
 *
 * The peak an ingest reaches is about the memory after a trim plus this growth (plus what grows between two
 * checks), which is why the growth is read twice a second. The server takes it from `MEMORY_TRIM_GROWTH_MB`
 * (server/config.ts), whose default is this one.
 */
export const TRIM_GROWTH_BYTES = 32 * 1024 * 1024;
export const TRIM_CHECK_MS = 500;

let collector: Promise<(() => void) | null> | null = null;

/**
 * V8's full garbage collection as a function (null where it cannot be had), loaded once. Growth of the resident
 * memory during an ingest is mostly garbage the JavaScript side holds: V8 collects ArrayBuffers (uploaded files,
 * parse workers' answers, vectors) only in a full collection, which it starts once about 64 MiB more of them are
 * held than after the last one, and its old generation grows to several times what is live before it collects
 * that. On the corpus benchmark a full collection at the peak freed 100 MiB (heap 72 → 24 MiB, ArrayBuffers
 * 128 → 9 MiB; issue 21). `gc` is reached as Node documents it: the flag set, a fresh context made (which takes
 * it), the flag set back, so no other context gets it.
 *
 * In Deno 2.9 (V8 15) the function reached so is V8's low-memory collection whatever its arguments: two or more
 * full, compacting collections back to back (`--trace-gc`: "Mark-Compact (reduce) ... low memory notification").
 * Those pairs in bench/chat.ts are this module's growth turns (during and after the 10k-chunk upload, and after
 * the 500 streams) and the settle's (server/memory_settle.ts). Measured instead (gc37, load 18-22): V8's regular
 * full collection (the `gc` that `--expose-gc` at start gives) costs less (a 43 MB heap: 37-48 against 86-105
 * ms of CPU, 7-20 against 32-59 ms of the JS thread's) but leaves unreferenced ArrayBuffers held (55 MiB of 55
 * in a probe, still 50 ms later), so the trim after it returns less: the corpus ingest peaked at 250 and 246
 * MiB with it, 280 and 259 with no collection, 229 and 224 with this one (two alternated triples). No
 * JavaScript API starts an incremental collection in Deno.
 */
export function fullCollector(): Promise<(() => void) | null> {
  return collector ??= (async () => {
    try {
      const [v8, vm] = await Promise.all([import("node:v8"), import("node:vm")]);
      v8.setFlagsFromString("--expose-gc");
      try {
        const gc = vm.runInNewContext("gc");
        return typeof gc === "function" ? () => gc() : null;
      } finally {
        v8.setFlagsFromString("--no-expose-gc");
      }
    } catch {
      return null;
    }
  })();
}

/**
 * Nonblocking: malloc_trim runs on a thread of Deno's blocking pool, not the JS thread. A synchronous symbol would
 * also have Deno compile a fast-call trampoline when the library is opened, whose compiler's code stays resident
 * (1.7 MiB of an idle server, issue 21).
 */
const SYMBOLS = { malloc_trim: { parameters: ["usize"], result: "i32", nonblocking: true } } as const;

function openTrim(): Deno.DynamicLibrary<typeof SYMBOLS> | null {
  if (Deno.build.os !== "linux") return null;
  for (const name of ["libc.so.6", "libc.so"]) {
    try {
      return Deno.dlopen(name, SYMBOLS);
    } catch {
      // musl has neither the symbol nor libc.so.6; try the next name, then give up quietly.
    }
  }
  return null;
}

/**
 * Trims every `intervalSeconds` (0 turns it off), and between those turns as soon as the resident memory has
 * grown by `growthBytes` above its low point since the last trim (read every `checkMs`), after a full garbage
 * collection (tens of milliseconds on the JS thread, skipped like the trim when busy). The timers never keep
 * the process alive. `busy` says when to skip a turn: malloc_trim walks every arena (hundreds of milliseconds
 * with a large heap) holding each one's lock, so the native allocations of every thread, the JS thread's
 * included, wait for it, which every open answer stream would show as a gap between its chunks; the next quiet
 * turn trims.
 */
export function startMemoryTrim(
  intervalSeconds: number,
  busy: () => boolean = () => false,
  options: MemoryTrimOptions = {},
): MemoryTrimmer {
  let library = intervalSeconds > 0 ? openTrim() : null;
  const available = library !== null;
  const rss = options.rss ?? (() => Deno.memoryUsage().rss);
  const growth = options.growthBytes ?? TRIM_GROWTH_BYTES;
  /** The lowest resident memory since the last trim. */
  let low = Infinity;
  /** The trim under way; the library is closed only once it is over. */
  let pending: Promise<boolean> | null = null;
  let stopped = false;
  const trim = (): Promise<boolean> => {
    if (library === null || stopped) return Promise.resolve(false);
    const open = library;
    return pending ??= open.symbols.malloc_trim(0n).then((result) => {
      low = rss();
      return result === 1;
    }, () => false).finally(() => {
      pending = null;
      if (stopped) open.close();
    });
  };
  const timers: ReturnType<typeof setInterval>[] = [];
  const turns = { trimmed: 0, skipped: 0, grown: 0, settled: 0 };
  if (library) {
    const handle = setInterval(() => {
      if (busy()) {
        turns.skipped++;
        return;
      }
      turns.trimmed++;
      trim();
    }, intervalSeconds * 1000);
    Deno.unrefTimer(handle);
    timers.push(handle);
    if (growth > 0) {
      low = rss();
      const loadCollector = options.collector ?? fullCollector;
      /** Set while a growth turn waits for the collector to load (the first time only) or for its trim. */
      let loading = false;
      const check = setInterval(() => {
        const now = rss();
        if (now < low) low = now;
        else if (now - low >= growth && !busy() && !loading) {
          turns.grown++;
          loading = true;
          const settle = () => {
            loading = false;
            turns.settled++;
          };
          loadCollector().then((collect) => {
            // Garbage first: what it frees in the C heap (ArrayBuffers, LanceDB's buffers) is then trimmed too.
            if (library && !busy()) {
              collect?.();
              // The next growth is read against the low point this trim leaves.
              trim().finally(settle);
            } else settle();
          }, settle);
        }
      }, options.checkMs ?? TRIM_CHECK_MS);
      Deno.unrefTimer(check);
      timers.push(check);
    }
  }
  return {
    available,
    turns,
    trim,
    stop() {
      for (const timer of timers.splice(0)) clearInterval(timer);
      stopped = true;
      // A trim under way closes the library when it is over.
      if (pending === null) library?.close();
      library = null;
    },
  };
}
