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
