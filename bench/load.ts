// What a benchmark process itself costs while it measures a server: its CPU and how late its event loop runs.

/** CPU seconds (user + system) a process has used so far. */
export function cpuSeconds(pid: number | "self"): number {
  const fields = Deno.readTextFileSync(`/proc/${pid}/stat`).split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

export const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

/**
 * How late this process's event loop runs: a timer every `everyMs`, each firing's delay past its due time.
 * A client whose loop is late reads its chunks late, whatever the server did.
 */
export class LatenessSampler {
  private readonly late: number[] = [];
  private readonly timer: ReturnType<typeof setInterval>;
  private due: number;

  constructor(private readonly everyMs = 10) {
    this.due = performance.now() + everyMs;
    this.timer = setInterval(() => {
      const now = performance.now();
      this.late.push(Math.max(0, now - this.due));
      this.due = now + this.everyMs;
    }, everyMs);
  }

  /** Stops sampling: the delays' p50, p99 and max in ms. */
  stop(): { p50: number; p99: number; max: number } {
    clearInterval(this.timer);
    const round = (ms: number) => Number((ms ?? NaN).toFixed(1));
    return {
      p50: round(percentile(this.late, 50)),
      p99: round(percentile(this.late, 99)),
      max: round(Math.max(...this.late)),
    };
  }
}

/** CPU seconds a process's threads have used so far, summed by thread name (the JS thread is the process's own). */
export function cpuSecondsByThread(pid: number): Map<string, number> {
  const byName = new Map<string, number>();
  for (const task of Deno.readDirSync(`/proc/${pid}/task`)) {
    try {
      const stat = Deno.readTextFileSync(`/proc/${pid}/task/${task.name}/stat`);
      const name = Number(task.name) === pid
        ? "main (JS)"
        : stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const fields = stat.slice(stat.lastIndexOf(") ") + 2).split(" ");
      byName.set(name, (byName.get(name) ?? 0) + (Number(fields[11]) + Number(fields[12])) / 100);
    } catch {
      // the thread ended meanwhile
    }
  }
  return byName;
}

/** The CPU seconds each thread name used between two readings, largest first, those under 0.05 s left out. */
export function threadCpuSince(
  before: Map<string, number>,
  after: Map<string, number>,
): Record<string, number> {
  return Object.fromEntries(
    [...after].map(([name, seconds]) =>
      [name, Number((seconds - (before.get(name) ?? 0)).toFixed(2))] as const
    )
      .filter(([, seconds]) => seconds >= 0.05).sort((a, b) => b[1] - a[1]),
  );
}
