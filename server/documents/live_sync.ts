import { join, resolve, sep } from "node:path";
import { and, asc, eq, inArray, lte } from "drizzle-orm";
import { documents, documentSyncQueues, workspaceDocuments } from "../../db/schema.ts";
import {
  LIVE_SYNC_INTERVAL_MS,
  LIVE_SYNC_LABEL,
  MAX_FAILURES_IN_A_ROW,
  type SyncExecution,
  type SyncStatus,
} from "../../shared/api/live_sync.ts";
import { AppError, fail, messageOf } from "../errors.ts";
import { workspaceNamespace } from "../providers/vectors/namespace.ts";
import type { VectorRecord } from "../providers/vectors/types.ts";
import type { SettingsService } from "../settings/service.ts";
import { type StoragePaths, writeFileAtomic } from "../storage.ts";
import { embeddedChunks, type IngestDeps } from "./ingest.ts";
import { connectorContext } from "../connectors/fetch.ts";
import { type CredentialDeps, readCredentials } from "../connectors/credentials.ts";
import { ConnectorError } from "../connectors/source.ts";
import { fetchLinkDocument, type LinkDeps } from "./links.ts";
import { withPendingVectors } from "./pending_vectors.ts";
import {
  failedInARow,
  parseMetadata,
  presentExecution,
  recordRun,
  sourceLinkOf,
  stopWatching,
} from "./live_sync_queues.ts";
import { type ConnectorOrigin, type DocumentJson, metadataOf, parseLocation, wordCount } from "./store.ts";
import { estimateTokens } from "./tokens.ts";

/** One workspace's vectors of the document: the new ones go in under `newDocId`, then the row switches to it. */
interface Swap {
  rowId: number;
  namespace: string;
  oldDocId: string;
  newDocId: string;
}

/**
 * A sync between staging and the end, kept on disk so that a crash can be finished or undone at the next start.
 * The database transaction that switches the workspace rows to `newDocId` is the commit point.
 */
interface Staged {
  version: 1;
  location: string;
  document: DocumentJson;
  swaps: Swap[];
  /** A data connector's document: the version fetched, kept in the index row for the next import. */
  connectorVersion?: string;
}

export interface SyncOutcome {
  queueId: number;
  execution: SyncExecution;
  /** True when the run ended the watch (MAX_FAILURES_IN_A_ROW failures in a row). */
  unwatched: boolean;
}

/** What the worker uses, attached by `start()` once the app is built. */
export interface LiveSyncDeps
  extends LinkDeps, Pick<IngestDeps, "db" | "vectors" | "documents" | "providers">, CredentialDeps {
  settings: Pick<SettingsService, "label" | "setLabels">;
  paths: Pick<StoragePaths, "documents" | "vectorCache">;
}

const STAGING_FOLDER = ".live-sync";
/** Another replica's staged sync this old was abandoned (that replica died mid-sync and did not come back). */
const ABANDONED_STAGED_MS = 60 * 60_000;

/** Rejects as soon as `signal` aborts, for the one step (the fetch) that takes no signal of its own. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolvePromise, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolvePromise, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

function sameText(document: DocumentJson, text: string, pageBreaks: number[] | undefined): boolean {
  return document.pageContent === text &&
    JSON.stringify(document.pageBreaks ?? []) === JSON.stringify(pageBreaks ?? []);
}

function plural(count: number, one: string, many: string): string {
  return `${count.toLocaleString("en-US")} ${count === 1 ? one : many}`;
}

/**
 * Live document sync (a beta feature): watched link documents are fetched again once stale and, when
 * their text changed, rewritten in place and embedded again in every workspace that holds them. One document
 * at a time; the timer only ticks while the `experimental_live_file_sync` setting is `enabled`.
 *
 * A change is applied so that a crash leaves the old or the new version whole: the new vectors go in under new
 * document ids (invisible to chat, which only cites ids a workspace row names) and the sync is staged on disk;
 * one transaction then switches the workspace rows, the index row and the queue; the document JSON is replaced
 * and the old vectors removed after it. `start()` finishes or undoes a staged sync a crash interrupted.
 */
export class LiveSync {
  private deps: LiveSyncDeps | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private chain: Promise<unknown> = Promise.resolve();
  private controller = new AbortController();
  private readonly intervalMs: number;
  private readonly isLeader: () => boolean;
  private readonly replicaTag: string;

  /**
   * `isLeader`: whether this replica runs the database-wide jobs (server/jobs/); only the leader syncs the due
   * documents and finishes syncs a crash interrupted. `replicaId` marks this replica's staged syncs.
   */
  constructor(options: { intervalMs?: number; isLeader?: () => boolean; replicaId?: string } = {}) {
    this.intervalMs = options.intervalMs ?? LIVE_SYNC_INTERVAL_MS;
    this.isLeader = options.isLeader ?? (() => true);
    this.replicaTag = (options.replicaId ?? "").replace(/[^\w-]/g, "_");
  }

  get interval(): number {
    return this.intervalMs;
  }

  /** Whether the feature is on (absent or anything but `enabled`: off). */
  get enabled(): boolean {
    return this.deps?.settings.label(LIVE_SYNC_LABEL) === "enabled";
  }

  /** Attaches the dependencies, finishes a sync a crash interrupted, and starts ticking when enabled. */
  async start(deps: LiveSyncDeps): Promise<void> {
    this.controller = new AbortController();
    this.deps = deps;
    await this.recoverLogged(deps);
    this.schedule();
  }

  private async recoverLogged(deps: LiveSyncDeps): Promise<void> {
    await this.recover(deps).catch((error) =>
      deps.log.error("Cannot recover an interrupted live sync", { error: messageOf(error) })
    );
  }

  /** Stops the timer, aborts the running sync (nothing of it is kept) and waits until it has ended. */
  async stop(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.controller.abort(new Error("The server is shutting down."));
    await this.chain.catch(() => {});
    this.deps = null;
  }

  /**
   * Turns the feature on (the worker starts ticking) or off (no more runs; the queues are kept). Returns the
   * setting's label when its value changed.
   */
  async setEnabled(enabled: boolean): Promise<string[]> {
    const deps = this.deps ?? fail("unavailable", "Live document sync is not running.");
    const changed = await deps.settings.setLabels({ [LIVE_SYNC_LABEL]: enabled ? "enabled" : "disabled" });
    deps.log.info(enabled ? "Live document sync turned on" : "Live document sync turned off");
    this.schedule();
    return changed;
  }

  private schedule() {
    if (!this.deps || !this.enabled || this.controller.signal.aborted) {
      clearTimeout(this.timer);
      this.timer = undefined;
      return;
    }
    this.timer ??= setTimeout(() => this.tick(), this.intervalMs);
  }

  private async tick() {
    this.timer = undefined;
    await this.runDue().catch((error) =>
      this.deps?.log.error("Live document sync failed", { error: messageOf(error) })
    );
    this.schedule();
  }

  /** Runs after every sync queued before it ends: syncs never overlap. */
  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.chain.then(work, work);
    this.chain = next.catch(() => {});
    return next;
  }

  /**
   * Syncs every queue that is due (`nextSyncAt` passed), the longest waiting first, one at a time. Does
   * nothing while the feature is off; stops early when it is turned off meanwhile.
   */
  runDue(): Promise<SyncOutcome[]> {
    return this.serial(async () => {
      const deps = this.deps;
      const outcomes: SyncOutcome[] = [];
      if (!deps || !this.enabled || !this.isLeader()) return outcomes;
      await this.recoverLogged(deps);
      const due = await deps.db.select({ id: documentSyncQueues.id }).from(documentSyncQueues)
        .where(lte(documentSyncQueues.nextSyncAt, new Date()))
        .orderBy(asc(documentSyncQueues.nextSyncAt), asc(documentSyncQueues.id));
      for (const { id } of due) {
        if (!this.enabled || this.controller.signal.aborted) break;
        const outcome = await this.syncOne(deps, id).catch((error) => {
          if (error instanceof AppError && error.code === "not_found") return null; // unwatched meanwhile
          throw error;
        });
        if (outcome) outcomes.push(outcome);
      }
      return outcomes;
    });
  }

  /** Syncs one queue now, due or not (sync-now); a queue that does not exist is a 404. */
  syncQueue(queueId: number): Promise<SyncOutcome> {
    return this.serial(async () => {
      const deps = this.deps ?? fail("unavailable", "Live document sync is not running.");
      await this.recoverLogged(deps);
      return await this.syncOne(deps, queueId);
    });
  }

  private async syncOne(deps: LiveSyncDeps, queueId: number): Promise<SyncOutcome> {
    const signal = this.controller.signal;
    signal.throwIfAborted();
    const [target] = await deps.db.select({ queue: documentSyncQueues, doc: workspaceDocuments })
      .from(documentSyncQueues)
      .innerJoin(workspaceDocuments, eq(workspaceDocuments.id, documentSyncQueues.workspaceDocId))
      .where(eq(documentSyncQueues.id, queueId));
    if (!target) fail("not_found", `Cannot find the sync queue ${queueId}.`);
    const { queue, doc } = target;
    let status: SyncStatus;
    let result: string;
    try {
      const changed = await this.refresh(deps, queue, doc.docpath, signal);
      if (changed) return { queueId, execution: changed, unwatched: false };
      status = "unchanged";
      result = "The content has not changed since the last sync.";
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      status = "failed";
      result = messageOf(error);
      deps.log.warn("Cannot sync a watched document", { location: doc.docpath, error: result });
    }
    const [stillQueued] = await deps.db.select({ id: documentSyncQueues.id }).from(documentSyncQueues)
      .where(eq(documentSyncQueues.id, queue.id));
    if (!stillQueued) fail("not_found", `The sync queue ${queueId} ended while it was synced.`);
    const execution = presentExecution(await recordRun(deps.db, queue, status, result));
    let unwatched = false;
    if (status === "failed" && await failedInARow(deps, queue.id, MAX_FAILURES_IN_A_ROW)) {
      unwatched = await stopWatching(deps, queue.id);
      deps.log.warn("A watched document failed too often and is no longer watched", {
        location: doc.docpath,
        failures: MAX_FAILURES_IN_A_ROW,
      });
    }
    return { queueId, execution, unwatched };
  }

  /**
   * The document's text again: a data connector's document from its source (a repository file at its branch's
   * head, a video's captions, a crawled page, a Confluence page by its id, with the import's kept credentials),
   * any other from its link.
   */
  private async fetchAgain(
    deps: LiveSyncDeps,
    location: string,
    url: string,
    metadata: Record<string, unknown>,
  ): Promise<{ text: string; pageBreaks?: number[]; version?: string }> {
    const origin = metadata.connector as Partial<ConnectorOrigin> | undefined;
    if (origin && typeof origin.source === "string") {
      // The connectors' sources load when a connector's document is first synced, not at start.
      const { refetchConnectorDocument } = await import("../connectors/registry.ts");
      const credentials = await readCredentials(deps, origin.source, parseLocation(location).folder);
      const refetched = refetchConnectorDocument(
        origin.source,
        { url, key: String(origin.key ?? ""), params: origin.params ?? {}, credentials },
        connectorContext(deps, this.controller.signal),
        deps.config,
      );
      if (!refetched) fail("invalid_input", "This document's data connector cannot fetch it again.");
      const document = await refetched.catch((error) => {
        throw error instanceof ConnectorError ? new AppError("invalid_input", error.message) : error;
      });
      if ("skip" in document) fail("invalid_input", `The source now skips this document: ${document.why}`);
      return { text: document.text, version: document.version };
    }
    const link = sourceLinkOf(metadata);
    if (!link) {
      fail("invalid_input", "This document was not added from a link, so it cannot be fetched again.");
    }
    return (await fetchLinkDocument(deps, link)).parsed;
  }

  /**
   * Fetches the document's link and, when its text changed, applies the new version (recording the run in the
   * same transaction). Returns that run, or null when nothing changed. Throws, leaving everything as it was,
   * when the link cannot be read or the new text cannot be embedded.
   */
  private async refresh(
    deps: LiveSyncDeps,
    queue: typeof documentSyncQueues.$inferSelect,
    location: string,
    signal: AbortSignal,
  ) {
    const [indexed] = await deps.db.select({ metadata: documents.metadata }).from(documents)
      .where(eq(documents.location, location));
    const current = await deps.documents.read(location);
    const metadata = { ...current, ...parseMetadata(indexed?.metadata) };
    const { text, pageBreaks, version } = await untilAborted(
      this.fetchAgain(deps, location, current.url, metadata),
      signal,
    );
    if (sameText(current, text, pageBreaks)) return null;

    const { pageBreaks: _old, ...kept } = current;
    const next: DocumentJson = {
      ...kept,
      published: new Date().toLocaleString("en-US"),
      wordCount: wordCount(text),
      pageContent: text,
      token_count_estimate: await estimateTokens(text),
      ...(pageBreaks?.length ? { pageBreaks } : {}),
    };
    // The embedder stays the same until the switch is done; a re-embedding job picks up the new ids itself.
    return await deps.providers.embedding.whileFixed(async () => {
      const embedder = deps.providers.embedder();
      // The cache is keyed by the text's hash as well: the old text's vectors can never come back for the new.
      const { chunks } = await embeddedChunks(deps, embedder, location, next, signal);
      const holders = await deps.db.select().from(workspaceDocuments)
        .where(eq(workspaceDocuments.docpath, location));
      if (holders.length === 0) {
        fail("not_found", `The document "${location}" is no longer in any workspace.`);
      }
      const staged: Staged = {
        version: 1,
        location,
        document: next,
        ...(version ? { connectorVersion: version } : {}),
        swaps: holders.map((row) => ({
          rowId: row.id,
          namespace: workspaceNamespace(row.workspaceId, embedder),
          oldDocId: row.docId,
          newDocId: crypto.randomUUID(),
        })),
      };
      const metadata = metadataOf(next);
      const stagedPath = this.stagedPath(deps, queue.id);
      let run;
      try {
        // Recorded until the staged file exists: a kill before it leaves vectors no row will ever name.
        const pending = staged.swaps.map((swap) => ({ namespace: swap.namespace, docId: swap.newDocId }));
        await withPendingVectors(deps.db, pending, async () => {
          for (const swap of staged.swaps) {
            signal.throwIfAborted();
            const records: VectorRecord[] = chunks.map((chunk) => ({
              id: crypto.randomUUID(),
              docId: swap.newDocId,
              vector: chunk.vector,
              text: chunk.text,
              metadata: chunk.page === undefined ? metadata : { ...metadata, page: chunk.page },
            }));
            await deps.vectors.upsert(swap.namespace, records);
          }
          signal.throwIfAborted();
          await Deno.mkdir(this.stagingDir(deps), { recursive: true });
          await writeFileAtomic(stagedPath, JSON.stringify(staged));
        });
        const message = `The content changed: ${plural(next.wordCount, "word", "words")}, embedded again in ${
          plural(new Set(holders.map((row) => row.workspaceId)).size, "workspace", "workspaces")
        }.`;
        run = await this.commit(deps, queue, staged, message);
      } catch (error) {
        for (const swap of staged.swaps) {
          await deps.vectors.deleteDocuments(swap.namespace, [swap.newDocId]).catch(() => {});
        }
        await Deno.remove(stagedPath).catch(() => {});
        throw error;
      }
      try {
        await this.finish(deps, staged, run.switched);
        await Deno.remove(stagedPath).catch(() => {});
      } catch (error) {
        // Committed: the staged sync stays on disk and the next run (or start) finishes it.
        deps.log.error("Cannot finish a live sync; it is finished at the next run", {
          location,
          error: messageOf(error),
        });
      }
      deps.log.info("Watched document synced", { location, workspaces: run.switched.size });
      return run.execution;
    });
  }

  /**
   * The commit point: every workspace row still on its old id moves to the new one, the index row takes the
   * new counts and the run is recorded, in one transaction. A document removed meanwhile fails the sync.
   */
  private async commit(
    deps: LiveSyncDeps,
    queue: { id: number; staleAfterMs: number },
    staged: Staged,
    message: string,
  ) {
    const metadata = metadataOf(staged.document);
    return await deps.db.transaction(async (tx) => {
      const [indexed] = await tx.select({ metadata: documents.metadata }).from(documents)
        .where(eq(documents.location, staged.location));
      if (!indexed) fail("not_found", `The document "${staged.location}" was removed while it was synced.`);
      const switched = new Set<number>();
      for (const swap of staged.swaps) {
        const moved = await tx.update(workspaceDocuments).set({
          docId: swap.newDocId,
          metadata: JSON.stringify(metadata),
          lastUpdatedAt: new Date(),
        }).where(and(eq(workspaceDocuments.id, swap.rowId), eq(workspaceDocuments.docId, swap.oldDocId)))
          .returning({ id: workspaceDocuments.id });
        if (moved.length > 0) switched.add(swap.rowId);
      }
      if (switched.size === 0) fail("not_found", `The document "${staged.location}" left its workspaces.`);
      const { uploadName, sourceUrl, connector } = parseMetadata(indexed.metadata);
      const origin = connector && typeof connector === "object"
        ? { ...connector, ...(staged.connectorVersion ? { version: staged.connectorVersion } : {}) }
        : undefined;
      await tx.update(documents).set({
        metadata: JSON.stringify({ ...metadata, uploadName, sourceUrl, connector: origin }),
        wordCount: staged.document.wordCount,
        tokenCountEstimate: staged.document.token_count_estimate,
      }).where(eq(documents.location, staged.location));
      const [stillQueued] = await tx.select({ id: documentSyncQueues.id }).from(documentSyncQueues)
        .where(eq(documentSyncQueues.id, queue.id));
      const execution = stillQueued
        ? presentExecution(await recordRun(tx, queue, "success", message))
        : { id: 0, status: "success" as const, result: message, createdAt: new Date().toISOString() };
      return { switched, execution };
    });
  }

  /** After the commit: the document JSON takes the new text, and the vectors no row names any more go. */
  private async finish(deps: LiveSyncDeps, staged: Staged, switched: Set<number>): Promise<void> {
    const path = this.documentPath(deps, staged.location);
    await writeFileAtomic(path, JSON.stringify(staged.document, null, 4));
    // Removed from the store after the commit (a rare race): the file must not come back.
    const [indexed] = await deps.db.select({ id: documents.id }).from(documents)
      .where(eq(documents.location, staged.location));
    if (!indexed) await Deno.remove(path).catch(() => {});
    for (const swap of staged.swaps) {
      const stale = switched.has(swap.rowId) ? swap.oldDocId : swap.newDocId;
      await deps.vectors.deleteDocuments(swap.namespace, [stale]).catch((error) =>
        deps.log.warn("Cannot remove the old vectors of a synced document", {
          location: staged.location,
          error: messageOf(error),
        })
      );
    }
  }

  /** Finishes (committed) or undoes (not committed) each sync a crash interrupted. */
  private async recover(deps: LiveSyncDeps): Promise<void> {
    const directory = this.stagingDir(deps);
    const entries: string[] = [];
    try {
      for await (const entry of Deno.readDir(directory)) {
        if (entry.isFile && entry.name.endsWith(".json")) entries.push(entry.name);
        else if (entry.isFile && entry.name.endsWith(".tmp")) await Deno.remove(join(directory, entry.name));
      }
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return;
      throw error;
    }
    for (const name of entries) {
      const path = join(directory, name);
      if (!(await this.mayRecover(path, name))) continue;
      let staged: Staged;
      try {
        staged = JSON.parse(await Deno.readTextFile(path));
        if (staged.version !== 1 || !Array.isArray(staged.swaps)) throw new Error("unknown format");
        parseLocation(staged.location);
      } catch {
        await Deno.remove(path).catch(() => {});
        continue;
      }
      const rows = staged.swaps.length === 0 ? [] : await deps.db.select({ id: workspaceDocuments.id })
        .from(workspaceDocuments)
        .where(inArray(workspaceDocuments.docId, staged.swaps.map((swap) => swap.newDocId)));
      const switched = new Set(rows.map((row) => row.id));
      if (switched.size > 0) {
        await this.finish(deps, staged, switched);
        deps.log.info("An interrupted live sync was finished", { location: staged.location });
      } else {
        for (const swap of staged.swaps) {
          await deps.vectors.deleteDocuments(swap.namespace, [swap.newDocId]).catch(() => {});
        }
        deps.log.info("An interrupted live sync was undone", { location: staged.location });
      }
      await Deno.remove(path).catch(() => {});
    }
  }

  /** Staged syncs live beside the documents, in a folder no listing shows (its name starts with a dot). */
  private stagingDir(deps: LiveSyncDeps): string {
    return join(deps.paths.documents, STAGING_FOLDER);
  }

  /** `queue-<id>.json`, or `queue-<id>.<replica>.json` when the replicas share the documents folder. */
  private stagedPath(deps: LiveSyncDeps, queueId: number): string {
    const tag = this.replicaTag ? `.${this.replicaTag}` : "";
    return join(this.stagingDir(deps), `queue-${queueId}${tag}.json`);
  }

  /**
   * A replica finishes its own staged syncs. Another replica's may still be under way: the leader takes it over
   * only once it is an hour old (that replica died and did not come back), or when it names no replica.
   */
  private async mayRecover(path: string, name: string): Promise<boolean> {
    const tag = /^queue-\d+(?:\.([\w-]+))?\.json$/.exec(name)?.[1] ?? "";
    if (tag === this.replicaTag) return true;
    if (!this.isLeader()) return false;
    if (tag === "") return true;
    const info = await Deno.stat(path).catch(() => null);
    return info !== null && (info.mtime?.getTime() ?? 0) < Date.now() - ABANDONED_STAGED_MS;
  }

  private documentPath(deps: LiveSyncDeps, location: string): string {
    const { folder, filename } = parseLocation(location);
    const root = resolve(deps.paths.documents);
    const path = resolve(root, folder, filename);
    if (!path.startsWith(root + sep)) fail("invalid_input", `"${location}" is outside the documents folder.`);
    return path;
  }
}
