// A full garbage collection once the server is quiet after its heap grew, for its first few times (issue 21:
// idle memory). A start loads and runs its modules, the first API call loads the API's routes
// (server/api_routes.ts), the first page the pages: each leaves V8's heap with room it grew for that, 22 MiB
// committed for 13 used after a start. V8 gives that room back only when its memory reducer runs, some 30 s after
// the heap stopped growing (bench/startup.ts: 79 MiB idle at 3 s, 73 at 35 s). Collected as soon as the server
// is quiet, 3 s after the first ping it holds about 69 MiB rather than 77, and about 76 rather than 85 after its
// first API call (bench/memory_account.ts, alternated pairs). Each collection pauses the JS thread: V8's
// low-memory collection of a 13-17 MiB heap took 80-120 ms at a load average of 7 (--trace-gc), so it runs only
// on a quiet server, at most `maxCollections` times in a process's life (the loading of its modules); later
// growth is left to V8's own memory reducer, so that a steadily used server never pays it.
import { fullCollector } from "./memory_trim.ts";

/** How often the server is looked at: quiet means no request was started since the last look, none running. */
export const SETTLE_CHECK_MS = 500;
/** The heap's room (committed but unused) worth a collection. */
export const SETTLE_ROOM_BYTES = 4 * 1024 * 1024;
/** The shortest time between two collections. */
export const SETTLE_GAP_MS = 2_000;
/** How many collections a process makes at most: a start's, its first API call's, its first page's. */
export const SETTLE_MAX_COLLECTIONS = 3;

export interface SettleOptions {
  checkMs?: number;
  roomBytes?: number;
  gapMs?: number;
  maxCollections?: number;
  /** Gives the full garbage collection (null: none); by default V8's own (server/memory_trim.ts). */
  collector?: () => Promise<(() => void) | null>;
  /** The heap's committed and used bytes (tests pass their own). */
  heap?: () => { heapTotal: number; heapUsed: number };
  now?: () => number;
  /** Told of each collection, with the heap's committed bytes before and after. */
  onCollect?: (before: number, after: number) => void;
}

export interface Settle {
  /** The collections run so far. */
  readonly collections: number;
  stop(): void;
}

/**
 * Looks every `checkMs` and runs a full garbage collection when the server is quiet (`busy` false, and
 * `requests`, the count of requests started so far, unchanged since the last look), the heap holds `roomBytes`
 * or more of room, it grew since the last collection, and the last was `gapMs` ago or more; after
 * `maxCollections` it stops looking. The collection
 * pauses the JS thread some milliseconds, which is why it waits for quiet. The timer never keeps the process
 * alive.
 */
export function settleWhenQuiet(
  requests: () => number,
  busy: () => boolean,
  options: SettleOptions = {},
): Settle {
  const roomBytes = options.roomBytes ?? SETTLE_ROOM_BYTES;
  const gapMs = options.gapMs ?? SETTLE_GAP_MS;
  const maxCollections = options.maxCollections ?? SETTLE_MAX_COLLECTIONS;
  const heap = options.heap ?? (() => Deno.memoryUsage());
  const now = options.now ?? (() => performance.now());
  const loadCollector = options.collector ?? fullCollector;
  /** V8's collection once loaded (at once, so that the first quiet look can collect); null when there is none. */
  let collect: (() => void) | null | undefined;
  loadCollector().then((loaded) => (collect = loaded), () => (collect = null));
  let seen = requests();
  /** The heap's committed bytes after the last collection: it must grow past them for another. */
  let settledTotal = 0;
  let lastAt = -Infinity;
  let collections = 0;
  const timer = setInterval(() => {
    const started = requests();
    const quiet = started === seen && !busy();
    seen = started;
    if (!quiet || !collect || now() - lastAt < gapMs) return;
    const { heapTotal, heapUsed } = heap();
    if (heapTotal <= settledTotal || heapTotal - heapUsed < roomBytes) return;
    collect();
    collections++;
    lastAt = now();
    settledTotal = heap().heapTotal;
    options.onCollect?.(heapTotal, settledTotal);
    if (collections >= maxCollections) clearInterval(timer);
  }, options.checkMs ?? SETTLE_CHECK_MS);
  Deno.unrefTimer(timer);
  return {
    get collections() {
      return collections;
    },
    stop() {
      clearInterval(timer);
    },
  };
}
