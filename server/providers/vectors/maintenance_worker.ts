// Heavy LanceDB work (compaction, index updates, ANN index builds) runs in a child process of its own. In the
// server's process it would hold LanceDB's native worker threads for tens of seconds on a large table (2 cores:
// all of them), and every add, delete and search of every workspace would wait for it. The child is this same
// program with the arguments `vector-worker <task JSON>`; it writes one JSON result on stdout.
import { workerCommand } from "../../worker_command.ts";

export type MaintenanceTask =
  | {
    kind: "maintain";
    directory: string;
    namespace: string;
    /** Old table versions older than this many milliseconds are removed. */
    keepVersionsMs: number;
    /** Make the full-text index first (a table from before full-text search). */
    fullText: boolean;
  }
  | { kind: "ann"; directory: string; namespace: string; name: string; partitions: number };

export type MaintenanceResult = { ok: true; rows: number } | { ok: false; error: string };

export interface RunningTask {
  result: Promise<MaintenanceResult>;
  /** Stops the child at once; LanceDB commits are atomic, so nothing half-written stays behind. */
  kill(): void;
}

/** The full-text index of the chunk text: word by word (no positions), stemmed, without stop words. */
export function fullTextIndexOptions(lancedb: typeof import("@lancedb/lancedb"), name: string) {
  return {
    config: lancedb.Index.fts({
      withPosition: false,
      stem: true,
      removeStopWords: true,
      lowercase: true,
      asciiFolding: true,
    }),
    name,
    replace: true,
  };
}

export const FTS_INDEX = "text_fts";

/**
 * Threads of Lance's CPU pool. It defaults to one per core, and on a 2-core machine a compaction that updates
 * the full-text index of a 100k-row table waited forever (one pool thread blocked on work queued behind it).
 * With a few more threads it finishes in about 6 s. An operator's LANCE_CPU_THREADS wins.
 */
export function lanceThreads(): string {
  return Deno.env.get("LANCE_CPU_THREADS") ??
    String(Math.max(8, 2 * (navigator.hardwareConcurrency ?? 2)));
}

/** Sets Lance's thread count for this process; call before @lancedb/lancedb is loaded. */
export function configureLanceRuntime(): void {
  if (!Deno.env.get("LANCE_CPU_THREADS")) Deno.env.set("LANCE_CPU_THREADS", lanceThreads());
}

const isCommitConflict = (error: unknown) => /commit conflict|preempted|retry/i.test(String(error));

/**
 * The longest a task may run before it is stopped (a native stall must not leave a process behind forever):
 * compaction and index updates take seconds, an ANN build about 1.5 s per 1,000 rows on 2 cores.
 */
export const MAINTENANCE_TIMEOUT_MS = { maintain: 15 * 60_000, ann: 60 * 60_000 } as const;

/** Starts one maintenance task in a child process. */
export function runMaintenance(
  task: MaintenanceTask,
  timeoutMs: number = MAINTENANCE_TIMEOUT_MS[task.kind],
): RunningTask {
  const { command: program, args } = workerCommand(import.meta.url, "vector-worker", task);
  const child = new Deno.Command(program, {
    args,
    // Never written to: the child reads it only to learn that this process has ended (runVectorWorker).
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    env: {
      LANCEDB_LOG: Deno.env.get("LANCEDB_LOG") ?? "error",
      LANCE_CPU_THREADS: lanceThreads(),
      NO_COLOR: "1",
    },
  }).spawn();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    try {
      child.kill("SIGKILL");
    } catch {
      // It has ended already.
    }
  }, timeoutMs);
  const result = (async (): Promise<MaintenanceResult> => {
    const [status, stdout, stderr] = await Promise.all([
      child.status,
      new Response(child.stdout).text(),
      new Response(child.stderr).text(),
    ]);
    clearTimeout(timer);
    await child.stdin.close().catch(() => {});
    try {
      const parsed = JSON.parse(stdout) as MaintenanceResult;
      if (typeof parsed?.ok === "boolean") return parsed;
    } catch {
      // Reported below.
    }
    if (timedOut) {
      return { ok: false, error: `The vector maintenance process took longer than ${timeoutMs / 1000} s.` };
    }
    const reason = status.signal ? `stopped by ${status.signal}` : `exit code ${status.code}`;
    return { ok: false, error: `The vector maintenance process ended (${reason}): ${stderr.slice(-1000)}` };
  })();
  return {
    result,
    kill() {
      try {
        child.kill("SIGKILL");
      } catch {
        // It has ended already.
      }
    },
  };
}

async function perform(task: MaintenanceTask): Promise<number> {
  const lancedb = await import("@lancedb/lancedb");
  const connection = await lancedb.connect(task.directory);
  const table = await connection.openTable(task.namespace);
  try {
    if (task.kind === "maintain") {
      if (task.fullText) await table.createIndex("text", fullTextIndexOptions(lancedb, FTS_INDEX));
      for (let attempt = 1;; attempt++) {
        try {
          await table.optimize({ cleanupOlderThan: new Date(Date.now() - task.keepVersionsMs) });
          break;
        } catch (error) {
          // A delete in the server committed meanwhile: start again from the latest version.
          if (attempt >= 3 || !isCommitConflict(error)) throw error;
          await table.checkoutLatest();
        }
      }
    } else {
      for (let attempt = 1;; attempt++) {
        try {
          await table.createIndex("vector", {
            config: lancedb.Index.hnswSq({ distanceType: "cosine", numPartitions: task.partitions }),
            name: task.name,
            replace: true,
          });
          break;
        } catch (error) {
          if (attempt >= 3 || !isCommitConflict(error)) throw error;
          await table.checkoutLatest();
        }
      }
    }
    return await table.countRows();
  } finally {
    table.close();
    connection.close();
  }
}

/**
 * Ends this worker when the process that started it has ended: its end of the stdin pipe closes then, even on
 * kill -9, which no signal handler sees. Left running, the worker would go on writing into the storage folder
 * of a server that is gone (for up to an hour), beside the one started after it.
 */
async function endWithParent(): Promise<void> {
  const buffer = new Uint8Array(64);
  try {
    while ((await Deno.stdin.read(buffer)) !== null) {
      // Nothing is ever sent; only the end matters.
    }
  } catch {
    // A closed or broken pipe ends the same way.
  }
  Deno.exit(3);
}

/** The worker's side: `vector-worker <task JSON>`. */
export async function runVectorWorker(taskJson: string | undefined): Promise<never> {
  endWithParent();
  let result: MaintenanceResult;
  try {
    result = { ok: true, rows: await perform(JSON.parse(taskJson ?? "") as MaintenanceTask) };
  } catch (error) {
    result = { ok: false, error: (error as Error)?.message ?? String(error) };
  }
  const bytes = new TextEncoder().encode(JSON.stringify(result));
  let offset = 0;
  while (offset < bytes.length) offset += await Deno.stdout.write(bytes.subarray(offset));
  Deno.exit(0);
}

if (import.meta.main && Deno.args[0] === "vector-worker") await runVectorWorker(Deno.args[1]);
