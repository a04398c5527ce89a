/**
 * Hands freed native memory back to the system. glibc's allocator keeps what LanceDB's worker threads free in
 * per-thread arenas; after the corpus ingest benchmark `malloc_trim(0)` returned 90–150 MB of them. On other C libraries (musl, macOS) the symbol is absent and nothing runs.
 */

export interface MemoryTrimmer {
  /** Whether this system's C library has malloc_trim. */
  readonly available: boolean;
  /** The timer's turns so far: trimmed, and skipped because the server was busy. */
  readonly turns: { trimmed: number; skipped: number };
  /** Trims now; true when memory was returned to the system. */
  trim(): boolean;
  stop(): void;
}

const SYMBOLS = { malloc_trim: { parameters: ["usize"], result: "i32" } } as const;

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
 * Trims every `intervalSeconds` (0 turns it off). The timer never keeps the process alive. `busy` says when to
 * skip a turn: malloc_trim walks every arena on the JS thread (hundreds of milliseconds with a large heap), a
 * pause every open answer stream would show as a gap between its chunks; the next quiet turn trims.
 */
export function startMemoryTrim(intervalSeconds: number, busy: () => boolean = () => false): MemoryTrimmer {
  let library = intervalSeconds > 0 ? openTrim() : null;
  const available = library !== null;
  const trim = () => library !== null && library.symbols.malloc_trim(0n) === 1;
  let timer: ReturnType<typeof setInterval> | undefined;
  const turns = { trimmed: 0, skipped: 0 };
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
    timer = handle;
  }
  return {
    available,
    turns,
    trim,
    stop() {
      if (timer !== undefined) clearInterval(timer);
      timer = undefined;
      library?.close();
      library = null;
    },
  };
}
