// Maintenance scheduling of the LanceDB store: after a quiet moment a table is compacted and its indexes brought
// up to date, and a large table gets an ANN index; both run in a process of their own (../maintenance_worker.ts).
import type { Logger } from "../../../log.ts";
import { type MaintenanceTask, runMaintenance, type RunningTask } from "../maintenance_worker.ts";
import { ANN_REBUILD_GROWTH, annIndexFor } from "./ann.ts";
import type { LanceTables, TableState } from "./tables.ts";

/** Quiet time after the last write before a table is compacted and its indexes updated. */
export const MAINTENANCE_DELAY_MS = 2_000;
/** Old table versions are kept this long (a reader may still be on one), then their files are removed. */
const KEEP_VERSIONS_MS = 10 * 60_000;
/** Maintenance waits for a quiet moment, but no longer than this while writes keep coming (a long ingest). */
const MAINTENANCE_MAX_WAIT_MS = 60_000;
/** How long close() waits for background work before stopping it and closing the connection. */
const CLOSE_WAIT_MS = 5_000;

export interface LanceMaintenanceOptions {
  /** Quiet time after the last write before maintenance runs. */
  delayMs: number;
  /** Rows from which a table gets an ANN index. */
  annMinRows: number;
  log?: Logger;
  /**
   * The shared handle of a table without an ANN index moved to a version a maintenance process committed
   * (compaction gives its rows new ids): the store reads its vectors into memory again now, in the background,
   * rather than in the next search, which would wait for them. A table with an index is answered by it until
   * its rows are read (exact_cache.ts), so it is not read here.
   */
  moved?: (namespace: string) => void;
}

/** The background work of one store: timers per table, maintenance processes, ANN builds, connection moves. */
export class LanceMaintenance {
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  /** When each table's pending maintenance was first asked for (writes postpone it, up to a limit). */
  private readonly pendingSince = new Map<string, number>();
  private readonly background = new Set<Promise<void>>();
  private readonly builds = new Map<string, Promise<void>>();
  /** Tables whose maintenance process runs now: one at a time per table (see maintain). */
  private readonly running = new Set<string>();
  /** Tables asked for maintenance while theirs ran: they get another run once it ends. */
  private readonly again = new Set<string>();
  private readonly children = new Map<string, Set<RunningTask>>();

  constructor(private readonly tables: LanceTables, private readonly options: LanceMaintenanceOptions) {}

  /** Keeps a background task until it ends; idle() and stop() wait for it. */
  track(task: Promise<void>): void {
    this.background.add(task);
    task.finally(() => this.background.delete(task)).catch(() => {});
  }

  /** Asks for the table's maintenance after a quiet moment (each call postpones it, up to a limit). */
  schedule(namespace: string): void {
    if (this.tables.closed) return;
    const delay = this.options.delayMs;
    const since = this.pendingSince.get(namespace) ?? Date.now();
    this.pendingSince.set(namespace, since);
    const wait = Math.min(delay, since + Math.max(delay, MAINTENANCE_MAX_WAIT_MS) - Date.now());
    clearTimeout(this.timers.get(namespace));
    this.timers.set(
      namespace,
      setTimeout(() => {
        this.timers.delete(namespace);
        this.pendingSince.delete(namespace);
        this.track(this.maintain(namespace));
      }, Math.max(0, wait)),
    );
  }

  /** Forgets the table's pending maintenance and stops its running processes (the table is being dropped). */
  cancel(namespace: string): void {
    clearTimeout(this.timers.get(namespace));
    this.timers.delete(namespace);
    this.pendingSince.delete(namespace);
    this.again.delete(namespace);
    for (const running of this.children.get(namespace) ?? []) running.kill();
  }

  /** Runs pending maintenance now and resolves once every background task (index builds included) has ended. */
  async idle(): Promise<void> {
    while (this.timers.size > 0 || this.background.size > 0) {
      for (const [namespace, timer] of this.timers) {
        clearTimeout(timer);
        this.timers.delete(namespace);
        this.pendingSince.delete(namespace);
        this.track(this.maintain(namespace));
      }
      await Promise.allSettled([...this.background]);
    }
  }

  /** Drops pending maintenance, waits a while for running work, then stops the processes still running. */
  async stop(): Promise<void> {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    // A long index build is not waited for: Lance leaves no half-written index behind.
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      Promise.allSettled([...this.background]),
      new Promise((resolve) => (timer = setTimeout(resolve, CLOSE_WAIT_MS))),
    ]);
    clearTimeout(timer);
    for (const set of this.children.values()) for (const running of set) running.kill();
    await Promise.allSettled([...this.background]);
  }

  /**
   * Compacts the table and folds new rows into its indexes (in a maintenance process, so adds, deletes and
   * searches go on meanwhile), then starts an ANN build when the table needs one.
   */
  private async maintain(namespace: string): Promise<void> {
    if (this.tables.closed || this.builds.has(namespace)) return; // a running build schedules maintenance when it ends
    // Two compactions of one table rewrite the same fragments, and the second to commit fails with a commit
    // conflict (a long ingest had five at once): a request made while one runs waits for it to end.
    if (this.running.has(namespace)) {
      this.again.add(namespace);
      return;
    }
    this.running.add(namespace);
    try {
      await this.maintainNow(namespace);
    } finally {
      this.running.delete(namespace);
      if (this.again.delete(namespace) && this.tables.current(namespace)) this.schedule(namespace);
    }
  }

  private async maintainNow(namespace: string): Promise<void> {
    try {
      const state = this.tables.current(namespace);
      if (!state) return;
      const rows = await this.inChild(namespace, {
        kind: "maintain",
        directory: this.tables.directory,
        namespace,
        keepVersionsMs: KEEP_VERSIONS_MS,
        fullText: !state.fts,
      });
      this.options.log?.debug("Vector table maintained", { namespace, rows });
      if (this.tables.closed || this.tables.current(namespace) !== state) return;
      await this.tables.refresh(namespace, state);
      const grown = !state.ann || rows >= state.ann.rows * ANN_REBUILD_GROWTH;
      const retry = state.annFailedAt === null || rows >= state.annFailedAt * 1.1;
      if (rows >= this.options.annMinRows && grown && retry) this.startBuild(namespace, state, rows);
      // A table without an index (its search waits for its rows in memory) has them read now.
      else if (!state.ann) this.options.moved?.(namespace);
    } catch (error) {
      this.options.log?.warn("Vector table maintenance failed", { namespace, error: String(error) });
    }
  }

  /**
   * Builds the ANN index in a maintenance process: adds and deletes go on meanwhile (Lance merges the commits),
   * and the rows they add are searched exactly until the next maintenance folds them in. Compaction would
   * preempt the build's commit, so maintenance waits for it.
   */
  private startBuild(namespace: string, state: TableState, rows: number): void {
    const index = annIndexFor(rows);
    const build = (async () => {
      const startedAt = performance.now();
      await this.inChild(namespace, {
        kind: "ann",
        directory: this.tables.directory,
        namespace,
        name: index.name,
        partitions: index.partitions,
      });
      if (this.tables.closed) return;
      await this.tables.serial(namespace, async () => {
        // The shared handle learns of the new index from the latest version (adds meanwhile are kept).
        await state.table.checkoutLatest();
        for (const existing of await state.table.listIndices()) {
          if (existing.columns.includes("vector") && existing.name !== index.name) {
            await state.table.dropIndex(existing.name);
          }
        }
      });
      state.ann = index;
      state.annFailedAt = null;
      this.options.log?.info("Vector index built", {
        namespace,
        rows,
        seconds: Math.round((performance.now() - startedAt) / 100) / 10,
      });
    })().catch((error) => {
      state.annFailedAt = rows;
      if (!this.tables.closed) {
        this.options.log?.warn("Vector index build failed", { namespace, rows, error: String(error) });
      }
    }).finally(() => {
      this.builds.delete(namespace);
      if (this.tables.current(namespace) === state) this.schedule(namespace);
    });
    this.builds.set(namespace, build);
    this.track(build);
  }

  /** Runs a maintenance task in its own process (maintenance_worker.ts) and gives the table's rows after it. */
  private async inChild(namespace: string, task: MaintenanceTask): Promise<number> {
    const running = runMaintenance(task);
    const set = this.children.get(namespace) ?? new Set();
    this.children.set(namespace, set);
    set.add(running);
    try {
      const result = await running.result;
      if (!result.ok) throw new Error(result.error);
      return result.rows;
    } finally {
      set.delete(running);
      if (set.size === 0) this.children.delete(namespace);
    }
  }
}
