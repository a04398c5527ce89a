// Group commit: writes asked for by several callers at about the same time are run as one batch, one transaction
// and so one commit (one sync of the journal under synchronous=FULL: about 4 ms on a small machine's disk, which a
// local libSQL client spends on the server's one thread). Each caller's promise settles only once the batch that
// holds its writes is committed, so nothing acknowledged after it can be lost to a kill -9. When a group's batch
// fails, each caller's writes are run again alone: a failure in one caller's writes fails that caller only (a
// failed batch wrote nothing, so running the others again is safe).
import type { BatchItem } from "drizzle-orm/batch";
import type { Database } from "./client.ts";

/** A write, built but not run (a drizzle insert, update or delete). */
export type GroupQuery = BatchItem<"sqlite">;

interface Request {
  queries: GroupQuery[];
  done: PromiseWithResolvers<unknown[]>;
}

/** What the tests read: how many batches ran, and how many callers' writes each held. */
export interface GroupCommitStats {
  batches: number;
  requests: number;
}

export interface GroupCommit {
  /**
   * Runs `queries` in one transaction, possibly with other callers' writes; resolves with their results (in
   * order) once committed, or rejects with the error of these writes alone.
   */
  commit(queries: GroupQuery[]): Promise<unknown[]>;
  readonly stats: GroupCommitStats;
}

const committers = new WeakMap<Database, GroupCommit>();

/** The database's group committer (one per database object, made on first use). */
export function groupCommit(db: Database): GroupCommit {
  let committer = committers.get(db);
  if (!committer) {
    committer = createGroupCommit(db);
    committers.set(db, committer);
  }
  return committer;
}

/**
 * A group committer over `db`. Writes asked for while a group is gathering join it: the group runs once the
 * callbacks ready at the time of the first request have run (`setImmediate`: after the event loop's current round
 * of I/O callbacks), so the callers that a commit's sync held up (their workers answered, their files were written
 * meanwhile) commit together. Not a timer of 0 ms: Deno runs one a millisecond or more later (2.1 ms on average
 * under load), which each upload waited before its commit, on its critical path (issue 21).
 */
export function createGroupCommit(db: Database): GroupCommit {
  let queue: Request[] = [];
  let scheduled = false;
  const stats: GroupCommitStats = { batches: 0, requests: 0 };

  async function run(queries: GroupQuery[]): Promise<unknown[]> {
    stats.batches++;
    return await db.batch(queries as [GroupQuery, ...GroupQuery[]]) as unknown[];
  }

  async function flush() {
    scheduled = false;
    const group = queue;
    queue = [];
    stats.requests += group.length;
    if (group.length === 1) {
      const [only] = group;
      await run(only.queries).then(only.done.resolve, only.done.reject);
      return;
    }
    try {
      const results = await run(group.flatMap((request) => request.queries));
      let at = 0;
      for (const request of group) {
        request.done.resolve(results.slice(at, at + request.queries.length));
        at += request.queries.length;
      }
    } catch {
      // One caller's writes may be what failed: each runs again alone, and fails alone.
      for (const request of group) await run(request.queries).then(request.done.resolve, request.done.reject);
    }
  }

  return {
    stats,
    commit(queries) {
      if (queries.length === 0) return Promise.resolve([]);
      const done = Promise.withResolvers<unknown[]>();
      queue.push({ queries, done });
      if (!scheduled) {
        scheduled = true;
        setImmediate(() => flush().catch(() => {}));
      }
      return done.promise;
    },
  };
}
