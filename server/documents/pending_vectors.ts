import { and, inArray, lt, ne } from "drizzle-orm";
import { pendingVectors, workspaceDocuments } from "../../db/schema.ts";
import type { BatchItem } from "drizzle-orm/batch";
import type { Database } from "../../db/client.ts";
import type { Logger } from "../log.ts";
import type { VectorStore } from "../providers/vectors/types.ts";
import { messageOf } from "../errors.ts";
import { groupCommit } from "../../db/group_commit.ts";

/** This process's mark on the rows it writes: a row with another mark was left by a process that died. */
const BOOT = crypto.randomUUID();

export interface PendingVector {
  namespace: string;
  docId: string;
}

/** The write `commit` of withPendingVectors gives: a query, not yet run, that is run in one batch. */
export type CommitQuery = BatchItem<"sqlite">;

/**
 * Writes that ride along with withPendingVectors' two commits (each written in the same batch, so a document's
 * upload costs two commits, not four): `before` with the record (the document's library row), `after` with the
 * final commit (its events). `written` tells which of them were committed: the caller writes the rest itself.
 */
export interface CommitRiders {
  before: CommitQuery[];
  after: CommitQuery[];
  /** What must be done before `after` is committed (the file its library row points to written). */
  ready?: Promise<unknown>;
  written: { before: boolean; after: boolean };
}

/**
 * Runs `work` (which writes or deletes the vectors of `entries`) with the entries recorded first, so that a
 * kill -9 in the middle leaves a record of vectors that may be unreferenced; `sweepPendingVectors` deletes those
 * at the next start. When `work` succeeds, `commit` (the document rows that reference the vectors, or their
 * removal) is written in one batch with the record's deletion: both are written or neither. A batch runs its
 * statements in one call, so no other write waits on a transaction held open across awaits. A failing `work`
 * or `commit` leaves the record, so what the caller's own clean-up misses is swept at the next start too. Both
 * writes go through the database's group commit (db/group_commit.ts): documents finishing together share a
 * commit, and each is told only once its own writes are committed.
 */
export async function withPendingVectors<T>(
  db: Database,
  entries: PendingVector[],
  work: () => Promise<T>,
  commit?: (db: Database) => CommitQuery,
  riders?: CommitRiders,
): Promise<T> {
  const group = groupCommit(db);
  const before = riders && !riders.written.before ? riders.before : [];
  const after = riders && !riders.written.after ? riders.after : [];
  if (entries.length === 0) {
    if (before.length) {
      await group.commit(before);
      riders!.written.before = true;
    }
    const result = await work();
    const last = [...(commit ? [commit(db)] : []), ...after];
    if (after.length) await riders!.ready;
    if (last.length) {
      await group.commit(last);
      if (riders) riders.written.after = true;
    }
    return result;
  }
  const record = db.insert(pendingVectors)
    .values(entries.map((entry) => ({ boot: BOOT, namespace: entry.namespace, docId: entry.docId })))
    .returning({ id: pendingVectors.id });
  const results = await group.commit([...before, record]);
  if (riders && before.length) riders.written.before = true;
  const rows = results[results.length - 1] as { id: number }[];
  const result = await work();
  const ids = rows.map((row) => row.id);
  if (after.length) await riders!.ready;
  await group.commit([
    ...(commit ? [commit(db)] : []),
    db.delete(pendingVectors).where(inArray(pendingVectors.id, ids)),
    ...after,
  ]);
  if (riders) riders.written.after = true;
  return result;
}

/**
 * How many records `withReservedVectors` commits ahead for a namespace's next documents: an upload then waits
 * for no commit before its vectors are written, and its record's deletion rides with its row's commit (one commit
 * per upload, not two). A refill rides with an upload's final commit once half of them are used.
 */
export const RESERVED_RECORDS = 16;

/**
 * A reserved record older than `maxAgeMs` is not used: another replica's sweep takes a record an hour old
 * (ABANDONED_WRITE_MS) for a dead process's, so a record is used long before that or not at all. (Tests may
 * change it.)
 */
export const reservationSettings = { maxAgeMs: 5 * 60_000 };

interface Reservation {
  id: number;
  docId: string;
  /** When it was committed (Date.now()), for reservationSettings.maxAgeMs. */
  at: number;
}

interface Reserve {
  /** Each namespace's records committed and not yet used, and the commit adding more, if one is under way. */
  pools: Map<string, { free: Reservation[]; refill: Promise<void> | null }>;
  /** Records let go unused (too old): deleted with the next final commit, or at release. */
  stale: number[];
}

const reserves = new WeakMap<Database, Reserve>();

function reserveOf(db: Database): Reserve {
  let reserve = reserves.get(db);
  if (!reserve) {
    reserve = { pools: new Map(), stale: [] };
    reserves.set(db, reserve);
  }
  return reserve;
}

function poolOf(db: Database, namespace: string) {
  const reserve = reserveOf(db);
  let pool = reserve.pools.get(namespace);
  if (!pool) {
    pool = { free: [], refill: null };
    reserve.pools.set(namespace, pool);
  }
  return pool;
}

/** The insert of RESERVED_RECORDS new records for `namespace`, each for a new document id. */
function reserveQuery(db: Database, namespace: string) {
  return db.insert(pendingVectors)
    .values(
      Array.from({ length: RESERVED_RECORDS }, () => ({ boot: BOOT, namespace, docId: crypto.randomUUID() })),
    )
    .returning({ id: pendingVectors.id, docId: pendingVectors.docId });
}

/** A committed record for a new document of `namespace`, taken from its reserve (refilled by a commit if empty). */
async function takeReservation(db: Database, namespace: string): Promise<Reservation> {
  const reserve = reserveOf(db);
  const pool = poolOf(db, namespace);
  for (;;) {
    const now = Date.now();
    for (let taken = pool.free.shift(); taken; taken = pool.free.shift()) {
      if (now - taken.at <= reservationSettings.maxAgeMs) return taken;
      reserve.stale.push(taken.id);
    }
    if (!pool.refill) {
      const refill = groupCommit(db).commit([reserveQuery(db, namespace)]).then((results) => {
        const at = Date.now();
        for (const row of results[0] as { id: number; docId: string }[]) pool.free.push({ ...row, at });
      }).finally(() => {
        if (pool.refill === refill) pool.refill = null;
      });
      pool.refill = refill;
    }
    await pool.refill;
  }
}

/**
 * `withPendingVectors` for one new document of `namespace`, whose id it chooses: its record was committed ahead
 * (RESERVED_RECORDS), so `work` (given the id) starts at once and the only commit is the last, which writes
 * `commit`'s row and the record's deletion (and `riders.after`), as withPendingVectors does. The same
 * guarantees: the record is committed before any vector is written, and stays when `work` or the last commit
 * fails, for the next start's sweep.
 */
export async function withReservedVectors<T>(
  db: Database,
  namespace: string,
  work: (docId: string) => Promise<T>,
  commit: (db: Database, docId: string) => CommitQuery,
  riders?: CommitRiders,
): Promise<T> {
  const group = groupCommit(db);
  const before = riders && !riders.written.before ? riders.before : [];
  const after = riders && !riders.written.after ? riders.after : [];
  if (before.length) {
    await group.commit(before);
    riders!.written.before = true;
  }
  const reservation = await takeReservation(db, namespace);
  const result = await work(reservation.docId);
  if (after.length) await riders!.ready;
  const reserve = reserveOf(db);
  const pool = poolOf(db, namespace);
  const stale = reserve.stale.splice(0);
  // Half the reserve used: its refill rides with this commit (takers meanwhile wait for it, not for one more).
  const refill = !pool.refill && pool.free.length < RESERVED_RECORDS / 2
    ? Promise.withResolvers<void>()
    : null;
  if (refill) pool.refill = refill.promise;
  const queries = [
    commit(db, reservation.docId),
    db.delete(pendingVectors).where(inArray(pendingVectors.id, [reservation.id, ...stale])),
    ...after,
    ...(refill ? [reserveQuery(db, namespace)] : []),
  ];
  try {
    const results = await group.commit(queries);
    if (refill) {
      const at = Date.now();
      for (const row of results[results.length - 1] as { id: number; docId: string }[]) {
        pool.free.push({ ...row, at });
      }
    }
  } catch (error) {
    reserve.stale.push(...stale);
    throw error;
  } finally {
    if (refill) {
      if (pool.refill === refill.promise) pool.refill = null;
      refill.resolve();
    }
  }
  if (riders) riders.written.after = true;
  return result;
}

/** Deletes the reserved records not used (at shutdown): the next start has no vectors of theirs to look for. */
export async function releaseReservedVectors(db: Database): Promise<void> {
  const reserve = reserves.get(db);
  if (!reserve) return;
  const ids = [...reserve.stale.splice(0)];
  for (const pool of reserve.pools.values()) ids.push(...pool.free.splice(0).map((taken) => taken.id));
  if (ids.length) await db.delete(pendingVectors).where(inArray(pendingVectors.id, ids));
}

/**
 * At start: the vectors recorded by a process that died mid-write are deleted unless their document row was
 * committed (then they are the document's and stay). With `olderThan` (several replicas), only rows written
 * before it. Returns how many documents' vectors were deleted.
 */
export async function sweepPendingVectors(
  { db, vectors, log }: { db: Database; vectors: VectorStore; log: Logger },
  options: { olderThan?: Date } = {},
): Promise<number> {
  // Replicas sharing the database write their own rows: only rows old enough to be a dead process's are swept.
  const left = await db.select().from(pendingVectors).where(
    options.olderThan
      ? and(ne(pendingVectors.boot, BOOT), lt(pendingVectors.createdAt, options.olderThan))
      : ne(pendingVectors.boot, BOOT),
  );
  if (left.length === 0) return 0;
  const referenced = new Set(
    (await db.select({ docId: workspaceDocuments.docId }).from(workspaceDocuments).where(
      inArray(workspaceDocuments.docId, left.map((row) => row.docId)),
    )).map((row) => row.docId),
  );
  // One delete per namespace (a dead process's reserved records are many: withReservedVectors).
  const byNamespace = Map.groupBy(left, (row) => row.namespace);
  let deleted = 0;
  for (const [namespace, rows] of byNamespace) {
    const orphans = [...new Set(rows.filter((row) => !referenced.has(row.docId)).map((row) => row.docId))];
    try {
      await vectors.deleteDocuments(namespace, orphans);
      deleted += orphans.length;
    } catch (error) {
      // Kept for the next start; the server still starts.
      log.warn("Cannot delete the vectors an interrupted write left", { namespace, error: messageOf(error) });
      continue;
    }
    await db.delete(pendingVectors).where(inArray(pendingVectors.id, rows.map((row) => row.id)));
  }
  if (deleted > 0) log.info("Deleted the vectors interrupted writes left", { documents: deleted });
  return deleted;
}
