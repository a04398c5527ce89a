// The server process's memory: fewer malloc arenas for the native libraries' threads, and an optional trace.

/** glibc's mallopt parameters. */
const M_TRIM_THRESHOLD = -1;
const M_MMAP_THRESHOLD = -3;
const M_ARENA_MAX = -8;

/**
 * The allocator settings the server makes, each unless the operator set it (its environment variable, or its
 * glibc tunable in GLIBC_TUNABLES):
 * - at most two malloc arenas. LanceDB writes from many native threads, and glibc gives each contending thread
 *   an arena of its own (up to 8 per core), each keeping the memory it freed: on the corpus ingest that was about
 *   70 MiB of the server's peak (issue 21);
 * - blocks of 256 KiB and more in mappings of their own, which go back to the system when freed (glibc's own
 *   threshold rises to 32 MiB as large blocks are freed, after which they stay in the arenas);
 * - the top of an arena given back once 1 MiB of it is free (128 KiB by default, also raised with the above).
 */
export function mallocSettings(env: Pick<Deno.Env, "get"> = Deno.env): [number, number][] {
  const tunables = env.get("GLIBC_TUNABLES") ?? "";
  const operator = (variable: string, tunable: string) =>
    env.get(variable) !== undefined || tunables.includes(`glibc.malloc.${tunable}=`);
  const settings: [number, number][] = [];
  if (!operator("MALLOC_ARENA_MAX", "arena_max")) settings.push([M_ARENA_MAX, 2]);
  if (!operator("MALLOC_MMAP_THRESHOLD_", "mmap_threshold")) settings.push([M_MMAP_THRESHOLD, 256 * 1024]);
  if (!operator("MALLOC_TRIM_THRESHOLD_", "trim_threshold")) settings.push([M_TRIM_THRESHOLD, 1024 * 1024]);
  return settings;
}

/**
 * Makes `mallocSettings` with glibc's mallopt; elsewhere than Linux with glibc, or without the permission to load
 * it, nothing changes. Resolves to how many settings were made.
 *
 * The symbol is a nonblocking one (called on a thread of Deno's blocking pool; mallopt sets process-wide
 * parameters, whichever thread calls it): for a synchronous symbol Deno compiles a fast-call trampoline when the
 * library is opened, and the compiler's code it runs stays resident, 1.7 MiB of an idle server (issue 21).
 */
export async function tuneMalloc(): Promise<number> {
  if (Deno.build.os !== "linux") return 0;
  try {
    // Never a permission prompt: only when loading native code is allowed already (`-A`, `--allow-ffi`).
    if (Deno.permissions.querySync({ name: "ffi" }).state !== "granted") return 0;
    const libc = Deno.dlopen("libc.so.6", {
      mallopt: { parameters: ["i32", "i32"], result: "i32", nonblocking: true },
    });
    try {
      let made = 0;
      for (const [parameter, value] of mallocSettings()) {
        if (await libc.symbols.mallopt(parameter, value) === 1) made++;
      }
      return made;
    } finally {
      libc.close();
    }
  } catch {
    return 0;
  }
}

/**
 * Sets NODE_ENV to "production" unless it is set already or LECTERN_DEV is on: npm packages pick their build by it,
 * and without it React renders the pages with its development build (React's modules 995 KiB of source against
 * 634 KiB, with their checks run on every render: issue 21 measured 2 MiB more of V8 heap once a page was
 * served). Child processes inherit it. Returns the value set, or null when none was.
 */
export function defaultNodeEnv(env: Pick<Deno.Env, "get" | "set"> = Deno.env): string | null {
  if (env.get("NODE_ENV")) return null;
  const dev = env.get("LECTERN_DEV");
  if (dev === "1" || dev === "true") return null;
  env.set("NODE_ENV", "production");
  return "production";
}

/** The figures of /proc/self/status (kB) that the trace writes, in MiB. */
const STATUS_FIELDS = ["VmRSS", "VmHWM", "RssAnon", "RssFile"];

/**
 * MEM_TRACE=<file> (a debugging aid, off by default): once a second (MEM_TRACE_MS=<milliseconds> for another
 * interval) the server appends a line with its resident memory (total, peak, anonymous, file-backed) and the
 * JavaScript heap (total, used, external), in MiB.
 */
export function startMemoryTrace(path: string, intervalMs = 1000): void {
  const mib = (bytes: number) => Math.round(bytes / 1048576);
  const timer = setInterval(() => {
    let status = "";
    try {
      status = Deno.readTextFileSync("/proc/self/status");
    } catch {
      // Not Linux: the heap figures only.
    }
    const fields = STATUS_FIELDS.map((field) => {
      const kb = Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
      return `${field}=${Number.isNaN(kb) ? "-" : Math.round(kb / 1024)}`;
    });
    const heap = Deno.memoryUsage();
    const line = `${new Date().toISOString()} ${fields.join(" ")} heapTotal=${mib(heap.heapTotal)} ` +
      `heapUsed=${mib(heap.heapUsed)} external=${mib(heap.external)}\n`;
    try {
      Deno.writeTextFileSync(path, line, { append: true });
    } catch {
      clearInterval(timer);
    }
  }, intervalMs);
  Deno.unrefTimer(timer);
}

/**
 * Frees the memory under `view` now rather than at V8's next full garbage collection, which it starts only once
 * about 64 MiB more of ArrayBuffers are held than after the last one (issue 21: an ingest's uploads, parse answers
 * and chunk vectors were most of the server's peak until then). The buffer is detached: every view of it reads as
 * empty from here on, so only a caller that owns it and is done with it may call this. A view of part of a larger
 * buffer (which other views may share) is left alone. Returns whether memory was freed.
 */
export function freeBytes(view: ArrayBufferView | null | undefined): boolean {
  const buffer = view?.buffer;
  if (!(buffer instanceof ArrayBuffer) || buffer.detached || buffer.byteLength === 0) return false;
  if (view!.byteOffset !== 0 || view!.byteLength !== buffer.byteLength) return false;
  buffer.transfer(0);
  return true;
}
