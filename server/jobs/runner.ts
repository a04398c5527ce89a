import { sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { messageOf } from "../errors.ts";
import type { Logger } from "../log.ts";

/**
 * A background job. `leader` jobs are database-wide (live sync, pruning): only the elected replica runs them,
 * and each due time is claimed in the database, so it runs once even while a lease changes hands. `replica`
 * jobs are about the replica's own memory (refreshing its settings) and run on every replica.
 */
export interface Job {
  name: string;
  scope: "leader" | "replica";
  intervalMs: number;
  run(signal: AbortSignal): Promise<void>;
}

export interface JobRunnerOptions {
  db: Database;
  log: Logger;
  /** This replica's name in the lease (LECTERN_REPLICA_ID, else host and port). */
  replicaId: string;
  /** How long a lease lasts without renewal; it is renewed every third of it. */
  leaseMs: number;
  now?: () => number;
  /**
   * Whether the server is busy with work a round should not land in (chats starting: chat_window.ts). A timed
   * round waits while it is, checking every BUSY_CHECK_MS, for at most `maxDeferMs`; then it runs anyway.
   */
  busy?: () => boolean;
}

/** How often a deferred round looks whether the server is still busy. */
export const BUSY_CHECK_MS = 5;

const LEADER = "leader";

/**
 * Elects one job runner among the replicas that share the database (a lease row with an owner and an expiry,
 * renewed while the owner lives and taken over once it expired) and runs the jobs: the leader's on the leader,
 * the replicas' everywhere. One replica alone is always the leader. Jobs never overlap themselves.
 */
export class JobRunner {
  readonly #db: Database;
  readonly #log: Logger;
  readonly #jobs: Job[] = [];
  readonly #due = new Map<string, number>();
  readonly #running = new Set<Promise<void>>();
  readonly #busy = new Set<string>();
  readonly #onLead: (() => Promise<void>)[] = [];
  readonly #onLose: (() => Promise<void>)[] = [];
  readonly #now: () => number;
  readonly #serverBusy: () => boolean;
  #leader = false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #controller = new AbortController();
  #ticking: Promise<void> = Promise.resolve();
  readonly replicaId: string;
  readonly leaseMs: number;

  constructor(options: JobRunnerOptions) {
    this.#db = options.db;
    this.#log = options.log;
    this.replicaId = options.replicaId;
    this.leaseMs = options.leaseMs;
    this.#now = options.now ?? Date.now;
    this.#serverBusy = options.busy ?? (() => false);
  }

  /** Whether this replica holds the lease now (it runs the database-wide jobs). */
  get isLeader(): boolean {
    return this.#leader;
  }

  /** How often the lease is renewed and jobs looked at. */
  get tickMs(): number {
    return Math.max(100, Math.min(5_000, Math.floor(this.leaseMs / 3)));
  }

  /**
   * How long a timed round waits at most for the server not to be busy: a tenth of the lease (the lease, renewed
   * every third of it, then still has more than half of its time left), at most a second.
   */
  get maxDeferMs(): number {
    return Math.min(1_000, Math.floor(this.leaseMs / 10));
  }

  register(job: Job): void {
    this.#jobs.push(job);
  }

  /** Runs `work` each time this replica becomes the leader (at start too), before its jobs run. */
  onLead(work: () => Promise<void>): void {
    this.#onLead.push(work);
  }

  /**
   * Runs `work` each time this replica stops leading while it runs (the lease was taken over or could not be
   * renewed), so that work only the leader may do stops before the new leader starts it again. Not at stop().
   */
  onLose(work: () => Promise<void>): void {
    this.#onLose.push(work);
  }

  /**
   * Tries for the lease once (so the caller knows whether it leads), then ticks until stop(). With `take`, the
   * lease is taken whoever holds it: a database file in the storage folder has one server (a process killed a
   * moment ago must not keep its successor waiting for the lease to expire).
   */
  async start(options: { take?: boolean } = {}): Promise<void> {
    this.#controller = new AbortController();
    await this.#renew(options.take ?? false);
    this.#schedule();
  }

  /** Stops ticking, aborts and waits for running jobs, and gives the lease up so another replica takes over. */
  async stop(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#controller.abort(new Error("The server is shutting down."));
    await this.#ticking.catch(() => {});
    await Promise.allSettled([...this.#running]);
    if (this.#leader) {
      this.#leader = false;
      await this.#db.run(sql`UPDATE job_leases SET expires_at = 0
        WHERE name = ${LEADER} AND owner = ${this.replicaId}`).catch(() => {});
    }
  }

  /** One round now: renew or take the lease, then start the jobs that are due (tests call it). */
  tick(): Promise<void> {
    const next = this.#ticking.then(async () => {
      if (this.#controller.signal.aborted) return;
      await this.#renew();
      await this.#startDue();
    });
    this.#ticking = next.catch(() => {});
    return next;
  }

  /** Resolves once the jobs running now have ended (tests). */
  async idle(): Promise<void> {
    await this.#ticking;
    await Promise.allSettled([...this.#running]);
  }

  #schedule() {
    if (this.#controller.signal.aborted) return;
    this.#timer = setTimeout(async () => {
      await this.#quiet();
      await this.tick().catch((error) =>
        this.#log.error("The job runner failed", { error: messageOf(error) })
      );
      this.#schedule();
    }, this.tickMs);
  }

  /** Resolves once the server is not busy, or after maxDeferMs, or at stop(). */
  async #quiet(): Promise<void> {
    const until = performance.now() + this.maxDeferMs;
    while (this.#serverBusy() && performance.now() < until && !this.#controller.signal.aborted) {
      await new Promise((resolve) => setTimeout(resolve, BUSY_CHECK_MS));
    }
  }

  async #renew(take = false): Promise<void> {
    const now = this.#now();
    const anyway = take ? sql`1` : sql`0`;
    let rows: { owner: string }[];
    try {
      rows = await this.#db.all<{ owner: string }>(sql`
        INSERT INTO job_leases (name, owner, expires_at, count) VALUES (${LEADER}, ${this.replicaId}, ${
        now + this.leaseMs
      }, 1)
        ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at,
          count = job_leases.count + (job_leases.owner IS NOT excluded.owner)
        WHERE job_leases.owner = excluded.owner OR job_leases.expires_at < ${now} OR ${anyway}
        RETURNING owner`);
    } catch (error) {
      // The database cannot be reached: a leader that cannot renew stops leading before its lease runs out.
      this.#log.warn("Cannot renew the job runner's lease", { error: messageOf(error) });
      if (this.#leader) await this.#lose();
      return;
    }
    const leads = rows.length > 0 && rows[0].owner === this.replicaId;
    if (leads && !this.#leader) {
      this.#leader = true;
      this.#log.info("This replica runs the background jobs", { replica: this.replicaId });
      for (const work of this.#onLead) {
        await work().catch((error) =>
          this.#log.error("A job runner's start-up task failed", { error: messageOf(error) })
        );
      }
    } else if (!leads && this.#leader) {
      await this.#lose();
    }
  }

  async #lose() {
    this.#leader = false;
    this.#log.warn("This replica no longer runs the background jobs", { replica: this.replicaId });
    for (const work of this.#onLose) {
      await work().catch((error) =>
        this.#log.error("A job runner's hand-over task failed", { error: messageOf(error) })
      );
    }
  }

  async #startDue(): Promise<void> {
    const now = this.#now();
    for (const job of this.#jobs) {
      if (this.#busy.has(job.name)) continue;
      if (job.scope === "replica") {
        if ((this.#due.get(job.name) ?? now + job.intervalMs) > now) {
          if (!this.#due.has(job.name)) this.#due.set(job.name, now + job.intervalMs);
          continue;
        }
        this.#due.set(job.name, now + job.intervalMs);
        this.#launch(job);
      } else if (this.#leader && await this.#claim(job, now)) {
        this.#launch(job);
      }
    }
  }

  /** Moves the job's due time on if it has come: true when this replica won the run. */
  async #claim(job: Job, now: number): Promise<boolean> {
    const name = `job:${job.name}`;
    const rows = await this.#db.all<{ count: number }>(sql`
      INSERT INTO job_leases (name, owner, expires_at, count) VALUES (${name}, ${this.replicaId}, ${
      now + job.intervalMs
    }, 1)
      ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at,
        count = job_leases.count + 1
      WHERE job_leases.expires_at <= ${now}
      RETURNING count`);
    return rows.length > 0;
  }

  #launch(job: Job) {
    this.#busy.add(job.name);
    const signal = this.#controller.signal;
    const run = (async () => {
      try {
        await job.run(signal);
        const fields = { job: job.name, replica: this.replicaId };
        if (job.scope === "leader") this.#log.info("Background job ran", fields);
        else this.#log.debug("Background job ran", fields);
      } catch (error) {
        if (!signal.aborted) {
          this.#log.error("A background job failed", { job: job.name, error: messageOf(error) });
        }
      } finally {
        this.#busy.delete(job.name);
      }
    })();
    this.#running.add(run);
    run.finally(() => this.#running.delete(run));
  }
}
