import { and, asc, desc, eq, inArray, notInArray } from "drizzle-orm";
import {
  documents,
  documentSyncExecutions,
  documentSyncQueues,
  workspaceDocuments,
  workspaces,
} from "../../db/schema.ts";
import type { Database } from "../../db/client.ts";
import {
  KEPT_EXECUTIONS,
  LISTED_EXECUTIONS,
  type SyncExecution,
  type SyncQueue,
  type SyncStatus,
} from "../../shared/api/live_sync.ts";

/** The database, or a transaction of it: the queue writes below run in either. */
export type Executor = Database | Parameters<Parameters<Database["transaction"]>[0]>[0];

type ExecutionRow = typeof documentSyncExecutions.$inferSelect;

export function parseMetadata(text: string | null | undefined): Record<string, unknown> {
  try {
    const value = text ? JSON.parse(text) : {};
    return value && typeof value === "object" && !Array.isArray(value) ? value : {};
  } catch {
    return {};
  }
}

/** The link a watched document is fetched from: the index row's `sourceUrl`, else its `link://` chunk source. */
export function sourceLinkOf(metadata: Record<string, unknown>): string | null {
  if (typeof metadata.sourceUrl === "string" && metadata.sourceUrl) return metadata.sourceUrl;
  const chunkSource = metadata.chunkSource;
  if (typeof chunkSource === "string" && chunkSource.startsWith("link://")) {
    return chunkSource.slice("link://".length) || null;
  }
  return null;
}

export function presentExecution(row: ExecutionRow): SyncExecution {
  return { id: row.id, status: row.status, result: row.result, createdAt: row.createdAt.toISOString() };
}

/**
 * Records one run of a queue and moves its schedule on (`lastSyncedAt` now, `nextSyncAt` a stale period later);
 * only the latest KEPT_EXECUTIONS runs are kept. Returns the run.
 */
export async function recordRun(
  db: Executor,
  queue: { id: number; staleAfterMs: number },
  status: SyncStatus,
  result: string | null,
  at = new Date(),
): Promise<ExecutionRow> {
  await db.update(documentSyncQueues).set({
    lastSyncedAt: at,
    nextSyncAt: new Date(at.getTime() + queue.staleAfterMs),
  }).where(eq(documentSyncQueues.id, queue.id));
  const [execution] = await db.insert(documentSyncExecutions).values({
    queueId: queue.id,
    status,
    result,
    createdAt: at,
  }).returning();
  const kept = await db.select({ id: documentSyncExecutions.id }).from(documentSyncExecutions)
    .where(eq(documentSyncExecutions.queueId, queue.id))
    .orderBy(desc(documentSyncExecutions.id)).limit(KEPT_EXECUTIONS);
  await db.delete(documentSyncExecutions).where(and(
    eq(documentSyncExecutions.queueId, queue.id),
    notInArray(documentSyncExecutions.id, kept.map((row) => row.id)),
  ));
  return execution;
}

/** Whether the latest `count` runs of a queue all failed (and there are that many). */
export async function failedInARow(deps: { db: Database }, queueId: number, count: number): Promise<boolean> {
  const latest = await deps.db.select({ status: documentSyncExecutions.status }).from(documentSyncExecutions)
    .where(eq(documentSyncExecutions.queueId, queueId))
    .orderBy(desc(documentSyncExecutions.id)).limit(count);
  return latest.length === count && latest.every((row) => row.status === "failed");
}

/**
 * Ends the watch of a queue: the workspace document is no longer watched and the queue goes (with its runs).
 * Returns false when there was no such queue.
 */
export async function stopWatching(deps: { db: Database }, queueId: number): Promise<boolean> {
  return await deps.db.transaction(async (tx) => {
    const [queue] = await tx.delete(documentSyncQueues).where(eq(documentSyncQueues.id, queueId))
      .returning({ workspaceDocId: documentSyncQueues.workspaceDocId });
    if (!queue) return false;
    await tx.update(workspaceDocuments).set({ watched: false, lastUpdatedAt: new Date() })
      .where(eq(workspaceDocuments.id, queue.workspaceDocId));
    return true;
  });
}

/** Watched documents with their workspace and latest runs, the next one due first (all of them, or one). */
export async function listQueues(deps: { db: Database }, onlyId?: number): Promise<SyncQueue[]> {
  const rows = await deps.db.select({
    queue: documentSyncQueues,
    doc: workspaceDocuments,
    workspace: { id: workspaces.id, name: workspaces.name, slug: workspaces.slug },
    indexed: documents.metadata,
  }).from(documentSyncQueues)
    .innerJoin(workspaceDocuments, eq(workspaceDocuments.id, documentSyncQueues.workspaceDocId))
    .innerJoin(workspaces, eq(workspaces.id, workspaceDocuments.workspaceId))
    .leftJoin(documents, eq(documents.location, workspaceDocuments.docpath))
    .where(onlyId === undefined ? undefined : eq(documentSyncQueues.id, onlyId))
    .orderBy(asc(documentSyncQueues.nextSyncAt), asc(documentSyncQueues.id));
  if (rows.length === 0) return [];
  const runs = await deps.db.select().from(documentSyncExecutions)
    .where(inArray(documentSyncExecutions.queueId, rows.map((row) => row.queue.id)))
    .orderBy(desc(documentSyncExecutions.id));
  const byQueue = new Map<number, SyncExecution[]>();
  for (const run of runs) {
    const list = byQueue.get(run.queueId) ?? [];
    if (list.length < LISTED_EXECUTIONS) list.push(presentExecution(run));
    byQueue.set(run.queueId, list);
  }
  return rows.map(({ queue, doc, workspace, indexed }) => {
    // The index row is rewritten with every sync; the workspace row's copy is the fallback.
    const { pageContent: _text, pageBreaks: _breaks, uploadName: _upload, ...metadata } = {
      ...parseMetadata(doc.metadata),
      ...parseMetadata(indexed),
    };
    const text = (key: string) => (typeof metadata[key] === "string" ? metadata[key] as string : "");
    return {
      id: queue.id,
      workspaceDocId: queue.workspaceDocId,
      staleAfterMs: queue.staleAfterMs,
      nextSyncAt: queue.nextSyncAt.toISOString(),
      lastSyncedAt: queue.lastSyncedAt?.toISOString() ?? null,
      createdAt: queue.createdAt.toISOString(),
      workspaceDoc: {
        id: doc.id,
        docId: doc.docId,
        docpath: doc.docpath,
        filename: doc.filename,
        workspaceId: doc.workspaceId,
        pinned: doc.pinned,
        watched: doc.watched,
        metadata: {
          ...metadata,
          title: text("title") || doc.filename,
          url: text("url"),
          chunkSource: text("chunkSource"),
          sourceUrl: sourceLinkOf(metadata) ?? "",
        },
        workspace,
      },
      executions: byQueue.get(queue.id) ?? [],
    };
  });
}
