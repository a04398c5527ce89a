import { and, eq, inArray, lt, ne } from "drizzle-orm";
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
  let deleted = 0;
  for (const row of left) {
    if (!referenced.has(row.docId)) {
      try {
        await vectors.deleteDocuments(row.namespace, [row.docId]);
        deleted++;
      } catch (error) {
        // Kept for the next start; the server still starts.
        log.warn("Cannot delete the vectors an interrupted write left", {
          namespace: row.namespace,
          error: messageOf(error),
        });
        continue;
      }
    }
    await db.delete(pendingVectors).where(eq(pendingVectors.id, row.id));
  }
  if (deleted > 0) log.info("Deleted the vectors interrupted writes left", { documents: deleted });
  return deleted;
}
