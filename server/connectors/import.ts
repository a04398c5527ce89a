import { join } from "node:path";
import { and, eq } from "drizzle-orm";
import { documents, workspaceDocuments } from "../../db/schema.ts";
import { ConnectorImport } from "../../shared/api/connectors.ts";
import type { Deps } from "../deps.ts";
import { AppError, messageOf } from "../errors.ts";
import { embeddedChunks } from "../documents/ingest.ts";
import { withPendingVectors } from "../documents/pending_vectors.ts";
import { type ConnectorOrigin, metadataOf } from "../documents/store.ts";
import { workspaceNamespace } from "../providers/vectors/namespace.ts";
import { checkFolder, purgeDocuments } from "../documents/library.ts";
import { parseMetadata } from "../documents/live_sync_queues.ts";
import { writeFileAtomic } from "../storage.ts";
import { keepCredentials } from "./credentials.ts";
import { connectorContext } from "./fetch.ts";
import { type ConnectorDocument, ConnectorError, type ConnectorSource } from "./source.ts";
import { loadedImports, STAGING_FOLDER } from "./staging.ts";

/** Ended imports stay readable this long (a page reloaded after the end still shows the outcome). */
const KEEP_ENDED_MS = 60 * 60_000;

export type ImportDeps = Pick<
  Deps,
  | "db"
  | "log"
  | "paths"
  | "providers"
  | "vectors"
  | "documents"
  | "embedProgress"
  | "config"
  | "linkFetch"
  | "settings"
  | "keys"
>;

/** A failure's sentence for `reason`: a source's own, else a generic one (the details go to the log). */
export function reasonOf(error: unknown): string {
  if (error instanceof ConnectorError || error instanceof AppError) return error.message;
  return "A processing error occurred.";
}

interface Job {
  state: ConnectorImport;
  controller: AbortController;
  ended: Promise<ConnectorImport>;
  /** The options as kept on disk: every token, password and secret left out. */
  options: Record<string, unknown>;
  /** The record's write under way, another asked for meanwhile, and when the last one started. */
  saving: Promise<void> | null;
  dirty: boolean;
  savedAt: number;
}

/**
 * An import as kept on disk (`.connector-imports/<id>/state.json`, written atomically): its progress and its
 * options without any token, so that a restart shows how it ended.
 */
interface ImportRecord {
  version: 1;
  import: ConnectorImport;
  options: Record<string, unknown>;
}

/** Progress is written to disk at most this often while an import runs (and always when it ends). */
const SAVE_EVERY_MS = 1000;

/** The sentence of an import the server's shutdown or a crash cut short. */
export const SHUTDOWN_REASON =
  "The server shut down before this import finished; the documents it had added were removed. Start the import again.";
export const INTERRUPTED_REASON =
  "The server stopped before this import finished; the documents it had added were removed. Start the import again.";

/** The options without a token, password or secret (the record on disk never holds one). */
export function withoutSecrets(options: unknown): Record<string, unknown> {
  if (!options || typeof options !== "object") return {};
  return Object.fromEntries(
    Object.entries(options).filter(([key]) => !/token|password|secret|cookie|credential/i.test(key)),
  );
}

interface Existing {
  location: string;
  version: string;
}

/**
 * The imports of one app: each runs a source into its library folder in the background, one at a time per
 * folder, counting what it found, stored and skipped. A second import of the same source (same folder) stores
 * new documents, rewrites changed ones (key + version) and removes those gone from the source; a failed or
 * stopped import removes what it wrote and leaves the earlier version whole.
 *
 * Each import's progress is kept on disk as well: a restart ends a running import (its new documents are
 * removed at the next start, see `sweepAbandonedImports`) and the import is then listed as failed with a
 * sentence; ended imports stay listed for an hour across restarts.
 */
export class ConnectorImports {
  private readonly jobs = new Map<string, Job>();

  constructor(private readonly deps: ImportDeps) {}

  /** The imports running or ended within the last hour, the newest first. */
  list(): ConnectorImport[] {
    this.forgetOld();
    return [...this.jobs.values()].map((job) => ({ ...job.state })).reverse();
  }

  get(id: string): ConnectorImport | null {
    const job = this.jobs.get(id);
    return job ? { ...job.state } : null;
  }

  /** Resolves when the import has ended (done or failed). */
  ended(id: string): Promise<ConnectorImport> | null {
    return this.jobs.get(id)?.ended ?? null;
  }

  /** Stops every running import (their documents are removed) and waits for them to end. */
  async stopAll(): Promise<void> {
    for (const job of this.jobs.values()) {
      job.controller.abort(new ConnectorError(SHUTDOWN_REASON));
    }
    await Promise.all([...this.jobs.values()].map((job) => job.ended));
  }

  /**
   * Starts importing `source` with `options`; `label` names it in the progress and `details` are what the end's
   * toast names (never a token). A folder already being imported into is a ConnectorError.
   */
  start<Options>(
    source: ConnectorSource<Options>,
    options: Options,
    label: string,
    details?: Record<string, string>,
  ): ConnectorImport {
    this.forgetOld();
    const folder = checkFolder(source.folder(options));
    for (const job of this.jobs.values()) {
      if (job.state.folder === folder && job.state.status === "running") {
        throw new ConnectorError(`An import into the folder "${folder}" is already running.`);
      }
    }
    const state: ConnectorImport = {
      id: crypto.randomUUID(),
      source: source.id,
      label,
      folder,
      status: "running",
      found: 0,
      done: 0,
      skipped: 0,
      added: 0,
      updated: 0,
      unchanged: 0,
      removed: 0,
      reason: null,
      startedAt: new Date().toISOString(),
      finishedAt: null,
      ...(details ? { details } : {}),
    };
    const controller = new AbortController();
    const job = {
      state,
      controller,
      options: withoutSecrets(options),
      saving: null,
      dirty: false,
      savedAt: 0,
    } as Omit<Job, "ended">;
    const ended = this.run(job, source, options, controller.signal).then(
      () => {
        state.status = "done";
      },
      (error) => {
        state.status = "failed";
        state.reason = reasonOf(controller.signal.aborted ? controller.signal.reason : error);
        if (!(error instanceof ConnectorError)) {
          this.deps.log.warn("A data connector import failed", {
            source: source.id,
            error: messageOf(error),
          });
        }
      },
    ).then(async () => {
      state.finishedAt = new Date().toISOString();
      this.deps.log.info("Data connector import ended", {
        source: source.id,
        folder,
        status: state.status,
        added: state.added,
        updated: state.updated,
        removed: state.removed,
        skipped: state.skipped,
      });
      await this.save(job).catch((error) =>
        this.deps.log.warn("Cannot record how a data connector import ended", { error: messageOf(error) })
      );
      return { ...state };
    });
    // The job object `run` updates is the one listed: `ended` is only added beside it.
    Object.assign(job, { ended });
    this.jobs.set(state.id, job as Job);
    return { ...state };
  }

  /** Imports a restart ended or that ended before it (read from disk by `sweepAbandonedImports`). */
  restore(records: ImportRecord[]) {
    for (const record of records) {
      if (this.jobs.has(record.import.id)) continue;
      const state = { ...record.import };
      this.jobs.set(state.id, {
        state,
        controller: new AbortController(),
        ended: Promise.resolve({ ...state }),
        options: record.options,
        saving: null,
        dirty: false,
        savedAt: 0,
      });
    }
    const newestLast = [...this.jobs.entries()].sort(([, a], [, b]) =>
      Date.parse(a.state.startedAt) - Date.parse(b.state.startedAt)
    );
    this.jobs.clear();
    for (const [id, job] of newestLast) this.jobs.set(id, job);
  }

  private forgetOld() {
    const before = Date.now() - KEEP_ENDED_MS;
    for (const [id, job] of this.jobs) {
      if (job.state.finishedAt && Date.parse(job.state.finishedAt) < before) {
        this.jobs.delete(id);
        Deno.remove(join(stagingRoot(this.deps), id), { recursive: true }).catch(() => {});
      }
    }
  }

  /** Writes the import's record (coalesced: a write asked for while one runs is done once after it). */
  private save(job: Omit<Job, "ended">): Promise<void> {
    if (job.saving) {
      job.dirty = true;
      return job.saving;
    }
    job.saving = (async () => {
      try {
        do {
          job.dirty = false;
          job.savedAt = Date.now();
          await writeRecord(this.deps, { version: 1, import: { ...job.state }, options: job.options });
        } while (job.dirty);
      } finally {
        job.saving = null;
      }
    })();
    return job.saving;
  }

  /** The progress on disk while the import runs, at most every SAVE_EVERY_MS. */
  private async progress(job: Omit<Job, "ended">) {
    if (job.saving || Date.now() - job.savedAt < SAVE_EVERY_MS) return;
    await this.save(job);
  }

  private async existing(folder: string, sourceId: string): Promise<Map<string, Existing>> {
    const rows = await this.deps.db.select({ location: documents.location, metadata: documents.metadata })
      .from(documents).where(eq(documents.folder, folder));
    const found = new Map<string, Existing>();
    for (const row of rows) {
      const origin = parseMetadata(row.metadata).connector as Partial<ConnectorOrigin> | undefined;
      if (origin?.source === sourceId && typeof origin.key === "string") {
        found.set(origin.key, { location: row.location, version: String(origin.version ?? "") });
      }
    }
    return found;
  }

  private async run<Options>(
    job: Omit<Job, "ended">,
    source: ConnectorSource<Options>,
    options: Options,
    signal: AbortSignal,
  ): Promise<void> {
    const deps = this.deps;
    const state = job.state;
    const existing = await this.existing(state.folder, source.id);
    const params = source.syncParams?.(options);
    const seen = new Set<string>();
    const written: string[] = [];
    const staging = join(stagingRoot(deps), state.id, STAGED_FOLDER);
    const writtenLog = join(stagingRoot(deps), state.id, WRITTEN_LOG);
    const staged: { location: string; file: string; origin: ConnectorOrigin }[] = [];
    await Deno.mkdir(staging, { recursive: true });
    await this.save(job);
    const cleanUp = async () => {
      await Deno.remove(staging, { recursive: true }).catch(() => {});
      await Deno.remove(writtenLog).catch(() => {});
    };
    try {
      for await (const item of source.documents(options, connectorContext(deps, signal))) {
        signal.throwIfAborted();
        state.found++;
        if ("skip" in item || seen.has(item.key) || item.text.trim() === "") {
          state.skipped++;
          continue;
        }
        seen.add(item.key);
        const origin: ConnectorOrigin = {
          source: source.id,
          key: item.key,
          version: item.version,
          ...(params && Object.keys(params).length > 0 ? { params } : {}),
        };
        const before = existing.get(item.key);
        if (before && before.version === item.version) state.unchanged++;
        else if (before) {
          // Kept aside until the source has been read whole: a failure leaves the earlier version in place.
          const file = join(staging, `${staged.length}.json`);
          await writeFileAtomic(file, JSON.stringify(item));
          staged.push({ location: before.location, file, origin });
          state.updated++;
        } else {
          const stored = await deps.documents.save(newDocument(source.id, state.folder, item, origin));
          written.push(stored.location);
          // Read by `sweepAbandonedImports` should the process end before the import does.
          await Deno.writeTextFile(writtenLog, `${stored.location}\n`, { append: true });
          state.added++;
        }
        state.done++;
        await this.progress(job);
      }
      signal.throwIfAborted();
      if (seen.size === 0 && existing.size === 0) {
        throw new ConnectorError("No files were found for those settings.");
      }
    } catch (error) {
      await purgeDocuments(deps, written).catch((cleanup) =>
        deps.log.error("Cannot remove a failed import's documents", { error: messageOf(cleanup) })
      );
      state.added = 0;
      await cleanUp();
      throw error;
    }
    try {
      for (const change of staged) {
        const item = JSON.parse(await Deno.readTextFile(change.file)) as ConnectorDocument;
        await deps.documents.replaceContent(change.location, { text: item.text, connector: change.origin });
        await this.embedAgain(change.location);
      }
      const gone = [...existing].filter(([key]) => !seen.has(key)).map(([, entry]) => entry.location);
      state.removed = await purgeDocuments(deps, gone);
      // For live sync: a watched document of a private repository or a Confluence space is fetched with them.
      if (source.credentials) {
        await keepCredentials(deps, source.id, state.folder, source.credentials(options));
      }
    } finally {
      await cleanUp();
    }
  }

  /**
   * A changed document embedded in workspaces is embedded again there with its new text, in place: each
   * workspace row keeps its id, so its pin, its watch and its sync queue stay (the row moves to new vectors
   * under a new document id, then the old vectors go). A failure keeps the old vectors and is logged.
   */
  private async embedAgain(location: string) {
    const deps = this.deps;
    const holders = await deps.db.select().from(workspaceDocuments)
      .where(eq(workspaceDocuments.docpath, location));
    if (holders.length === 0) return;
    await deps.providers.embedding.whileFixed(async () => {
      const embedder = deps.providers.embedder();
      const target = deps.providers.targetEmbedder();
      const document = await deps.documents.read(location);
      const { chunks } = await embeddedChunks(deps, embedder, location, document);
      const metadata = metadataOf(document);
      for (const row of holders) {
        const namespace = workspaceNamespace(row.workspaceId, embedder);
        const docId = crypto.randomUUID();
        // The old vectors are recorded as well: once the row names the new id, nothing names them.
        const pending = [{ namespace, docId }, { namespace, docId: row.docId }];
        await withPendingVectors(deps.db, pending, async () => {
          await deps.vectors.upsert(
            namespace,
            chunks.map((chunk) => ({
              id: crypto.randomUUID(),
              docId,
              vector: chunk.vector,
              text: chunk.text,
              metadata: chunk.page === undefined ? metadata : { ...metadata, page: chunk.page },
            })),
          );
          const moved = await deps.db.update(workspaceDocuments)
            .set({ docId, metadata: JSON.stringify(metadata), lastUpdatedAt: new Date() })
            .where(and(eq(workspaceDocuments.id, row.id), eq(workspaceDocuments.docId, row.docId)))
            .returning({ id: workspaceDocuments.id });
          // Removed from the workspace meanwhile: the new vectors go, the old ones went with the row.
          const stale = moved.length > 0 ? row.docId : docId;
          await deps.vectors.deleteDocuments(namespace, [stale]);
          if (moved.length > 0 && target && target.fingerprint !== embedder.fingerprint) {
            await deps.vectors.deleteDocuments(workspaceNamespace(row.workspaceId, target), [row.docId]);
          }
        });
      }
    }).catch((error) =>
      deps.log.warn("Cannot embed a changed connector document again; its workspaces keep the earlier text", {
        location,
        error: messageOf(error),
      })
    );
  }
}

function newDocument(sourceId: string, folder: string, item: ConnectorDocument, origin: ConnectorOrigin) {
  return {
    fileStem: item.title.split("/").pop() || item.key,
    title: item.title,
    url: item.url,
    docAuthor: item.metadata?.docAuthor || "Unknown",
    description: item.metadata?.description || "No description found.",
    docSource: `${sourceId} data connector`,
    chunkSource: `${sourceId}://${item.url}`,
    published: item.metadata?.published,
    text: item.text,
    folder,
    connector: origin,
  };
}

const WRITTEN_LOG = "written.log";
const STATE_FILE = "state.json";
const STAGED_FOLDER = "staged";

async function writeRecord(deps: Pick<Deps, "paths">, record: ImportRecord) {
  const dir = join(stagingRoot(deps), record.import.id);
  await Deno.mkdir(dir, { recursive: true });
  await writeFileAtomic(join(dir, STATE_FILE), JSON.stringify(record));
}

async function readRecord(dir: string): Promise<ImportRecord | null> {
  try {
    const record = JSON.parse(await Deno.readTextFile(join(dir, STATE_FILE))) as ImportRecord;
    const parsed = ConnectorImport.safeParse(record?.import);
    return record?.version === 1 && parsed.success
      ? { version: 1, import: parsed.data, options: withoutSecrets(record.options) }
      : null;
  } catch {
    return null;
  }
}

function stagingRoot(deps: Pick<Deps, "paths">): string {
  return join(deps.paths.root, STAGING_FOLDER);
}

/**
 * At start: an import the last process did not finish (killed, crashed) is undone, its new documents removed,
 * so nothing half-imported stays in the library; it is then listed as failed with a sentence (`GET
 * /api/ext/imports`), as are the imports that ended within the hour before the restart.
 */
export async function sweepAbandonedImports(deps: ImportDeps): Promise<void> {
  const root = stagingRoot(deps);
  let entries: Deno.DirEntry[];
  try {
    entries = await Array.fromAsync(Deno.readDir(root));
  } catch {
    return;
  }
  const keepSince = Date.now() - KEEP_ENDED_MS;
  const restored: ImportRecord[] = [];
  for (const entry of entries) {
    const dir = join(root, entry.name);
    const record = await readRecord(dir);
    if (record?.import.finishedAt) {
      if (Date.parse(record.import.finishedAt) >= keepSince) restored.push(record);
      else await Deno.remove(dir, { recursive: true }).catch(() => {});
      continue;
    }
    const log = await Deno.readTextFile(join(dir, WRITTEN_LOG)).catch(() => "");
    const locations = log.split("\n").filter(Boolean);
    try {
      const removed = await purgeDocuments(deps, locations);
      if (removed > 0) deps.log.warn("An unfinished data connector import was undone", { removed });
      if (!record) {
        await Deno.remove(dir, { recursive: true });
        continue;
      }
      const ended: ImportRecord = {
        ...record,
        import: {
          ...record.import,
          status: "failed",
          reason: INTERRUPTED_REASON,
          added: 0,
          finishedAt: new Date().toISOString(),
        },
      };
      await writeRecord(deps, ended);
      await Deno.remove(join(dir, WRITTEN_LOG)).catch(() => {});
      await Deno.remove(join(dir, STAGED_FOLDER), { recursive: true }).catch(() => {});
      restored.push(ended);
    } catch (error) {
      deps.log.error("Cannot undo an unfinished data connector import", { error: messageOf(error) });
    }
  }
  connectorImports(deps).restore(restored);
}

const registries = new WeakMap<object, ConnectorImports>();
// The server stops the running imports on shutdown through this, without loading the connectors itself.
loadedImports.stopAll = (deps) => registries.get(deps)?.stopAll() ?? Promise.resolve();

/** The app's imports (one registry per app's dependencies). */
export function connectorImports(deps: ImportDeps): ConnectorImports {
  let imports = registries.get(deps);
  if (!imports) {
    imports = new ConnectorImports(deps);
    registries.set(deps, imports);
  }
  return imports;
}
