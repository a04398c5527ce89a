import { and, desc, eq, inArray, ne } from "drizzle-orm";
import { embeddingJobs, workspaceDocuments, workspaces } from "../../db/schema.ts";
import type { EmbeddingJob, EmbeddingProgressFrame } from "../../shared/api/embedding.ts";
import { EMBEDDER_SETTING_KEYS, nativeEmbeddingModel } from "../../shared/providers/embedder_catalog.ts";
import { settingDefinition } from "../../shared/settings.ts";
import { messageOf, ProviderError } from "../errors.ts";
import type { Logger } from "../log.ts";
import { metadataOf } from "../documents/store.ts";
import { embeddedChunks, type IngestDeps } from "../documents/ingest.ts";
import { ModelDownloads } from "../providers/embedders/model_download.ts";
import { type EmbedderDeps, embedderFromSettings } from "../providers/embedders/registry.ts";
import type { Embedder, SettingsView } from "../providers/embedders/types.ts";
import { workspaceNamespace, workspaceNamespacePrefix } from "../providers/vectors/namespace.ts";
import type { SettingsService } from "../settings/service.ts";
import { SwitchGate } from "./gate.ts";

/**
 * The settings the active embedder was built from (JSON of non-secret embedder keys). Chat and new documents
 * use it until a re-embedding job has embedded everything for the embedder the settings now name.
 */
export const ACTIVE_EMBEDDER_LABEL = "active_embedder";

type EmbedderConfig = Record<string, string | null>;

const CONFIG_KEYS = EMBEDDER_SETTING_KEYS.filter((key) => !settingDefinition(key)?.secret);
const PROGRESS_WRITE_MS = 500;

/** The namespace of a workspace's vectors made by the embedder with this fingerprint. */
export function namespaceOf(workspaceId: number, fingerprint: string): string {
  return workspaceNamespace(workspaceId, { fingerprint } as Embedder);
}

interface RunningJob {
  id: number;
  fingerprint: string;
  config: EmbedderConfig;
  controller: AbortController;
  done: number;
  total: number;
  failed: number;
  finished: Promise<void>;
  /** Stopped because another replica took the background jobs over: its vectors are that replica's now. */
  handedOver?: boolean;
}

type Listener = (frame: EmbeddingProgressFrame) => void;

/** What a re-embedding job reads and writes, attached by `start()` once the app is built. */
export type EmbeddingJobDeps = Pick<
  IngestDeps,
  "db" | "vectors" | "documents" | "settings" | "paths" | "log"
>;

/**
 * Which embedder answers, and the switch to another one (changing the embedder re-embeds every
 * document in the background from the stored text). While a job runs, `active()` stays the old embedder so chat
 * keeps citing from the old vectors; the job fills the new embedder's namespaces (vector cache first), then
 * switches atomically and drops the old namespaces. A failure leaves the old embedder active.
 */
export class EmbeddingService {
  readonly models: ModelDownloads;
  private deps: EmbeddingJobDeps | null = null;
  private running: RunningJob | null = null;
  private last: EmbeddingJob | null = null;
  private readonly listeners = new Set<Listener>();
  private readonly gate = new SwitchGate();
  private queue: Promise<unknown> = Promise.resolve();
  private leads: () => boolean = () => true;

  constructor(
    private readonly settings: SettingsService,
    private readonly embedderDeps: EmbedderDeps,
    private readonly log: Logger,
  ) {
    this.models = new ModelDownloads(embedderDeps.modelsDir ?? "models", {
      hubUrl: embedderDeps.endpoints?.huggingface,
      fetch: embedderDeps.fetch,
    });
  }

  /** The embedder settings as they are now (non-secret keys). */
  private liveConfig(): EmbedderConfig {
    return Object.fromEntries(CONFIG_KEYS.map((key) => [key, this.settings.value(key) ?? null]));
  }

  private savedConfig(): EmbedderConfig | null {
    const stored = this.settings.label(ACTIVE_EMBEDDER_LABEL);
    if (!stored) return null;
    try {
      return JSON.parse(stored) as EmbedderConfig;
    } catch {
      return null;
    }
  }

  /** A settings view where the embedder keys come from `config`; secrets and the rest stay live. */
  private viewOf(config: EmbedderConfig): SettingsView {
    return {
      value: (key) =>
        key in config
          ? (config[key] ?? undefined)
          : CONFIG_KEYS.includes(key)
          ? undefined
          : this.settings.value(key),
    };
  }

  private build(config: EmbedderConfig): Embedder {
    return embedderFromSettings(this.viewOf(config), this.embedderDeps);
  }

  /** The active embedder: the one chat queries and new documents use. Throws a ProviderError when unusable. */
  active(): Embedder {
    return this.build(this.savedConfig() ?? this.liveConfig());
  }

  /** The embedder a running job embeds for, or null. */
  target(): Embedder | null {
    if (!this.running) return null;
    try {
      return this.build(this.running.config);
    } catch {
      return null;
    }
  }

  private activeFingerprint(): string | null {
    try {
      return this.active().fingerprint;
    } catch {
      return null;
    }
  }

  /** What the embedding preference screen shows about the embedder that answers now. */
  activeInfo() {
    const config = this.savedConfig() ?? this.liveConfig();
    const engine = config.EmbeddingEngine ?? "native";
    try {
      const embedder = this.active();
      return { engine, model: embedder.modelId, fingerprint: embedder.fingerprint, error: null };
    } catch (error) {
      const model = engine === "native"
        ? nativeEmbeddingModel(config.EmbeddingModelPref ?? undefined).id
        : "";
      return {
        engine,
        model: config.EmbeddingModelPref ?? model,
        fingerprint: null,
        error: messageOf(error),
      };
    }
  }

  /**
   * Runs `work` with the active embedder fixed: a switch waits until it ends, and it waits for a switch in
   * progress. Adding and removing documents run inside, so none is embedded for an embedder being retired.
   */
  whileFixed<T>(work: () => Promise<T>): Promise<T> {
    return this.gate.shared(work);
  }

  /**
   * Runs `work` while no document is being added or removed (a backup's snapshot): it waits for the additions
   * and removals under way to end, and new ones wait for it.
   */
  whileStill<T>(work: () => Promise<T>): Promise<T> {
    return this.gate.exclusive(work);
  }

  /**
   * Attaches the finished dependencies and resumes: a job the last process did not finish starts again. With
   * `resume: false` (a replica that does not run the background jobs, server/jobs/) the jobs in the database
   * are left to the replica that does: another replica may be running one. `leads` says whether this replica
   * runs the background jobs now: re-embedding runs on that replica only (one alone always leads).
   */
  async start(
    deps: EmbeddingJobDeps,
    options: { resume?: boolean; leads?: () => boolean } = {},
  ): Promise<void> {
    this.deps = deps;
    this.leads = options.leads ?? (() => true);
    if (options.resume === false) {
      const [latest] = await deps.db.select().from(embeddingJobs).orderBy(desc(embeddingJobs.id)).limit(1);
      if (latest) this.last = this.present(latest);
      return;
    }
    await this.resumeAbandoned(deps, "The server stopped before the job ended; it was started again.");
  }

  /**
   * This replica has just taken the background jobs over from another one (server/jobs/): the settings are read
   * again, a job the previous runner left unfinished is marked cancelled, and the job the settings call for
   * starts here. Work this replica already runs is kept.
   */
  async takeOver(): Promise<void> {
    const deps = this.deps;
    if (!deps) return;
    await this.settings.refresh().catch((error) =>
      this.log.warn("Cannot read the settings again", { error: messageOf(error) })
    );
    await this.resumeAbandoned(
      deps,
      "The replica running the job stopped before it ended; the replica that took over started it again.",
    );
  }

  /**
   * This replica no longer runs the background jobs: its running job stops (the replica that takes over starts
   * it again) and leaves the new embedder's vectors to that replica.
   */
  async standDown(): Promise<void> {
    const job = this.running;
    if (!job) return;
    job.handedOver = true;
    await this.cancelRunning(
      "This replica no longer runs the background jobs; the one that took over goes on.",
    );
  }

  private async resumeAbandoned(deps: EmbeddingJobDeps, reason: string): Promise<void> {
    const own = this.running?.id;
    await deps.db.update(embeddingJobs).set({ status: "cancelled", error: reason, finishedAt: new Date() })
      .where(
        own === undefined
          ? inArray(embeddingJobs.status, ["queued", "running"])
          : and(inArray(embeddingJobs.status, ["queued", "running"]), ne(embeddingJobs.id, own)),
      );
    if (!this.savedConfig()) {
      await this.settings.setLabels({ [ACTIVE_EMBEDDER_LABEL]: JSON.stringify(this.liveConfig()) });
    }
    if (!this.running) {
      const [latest] = await deps.db.select().from(embeddingJobs).orderBy(desc(embeddingJobs.id)).limit(1);
      if (latest) this.last = this.present(latest);
    }
    await this.reconcile();
  }

  /** Stops a running job (it is cancelled, the old embedder stays) and waits for it. */
  async stop(): Promise<void> {
    this.deps = null;
    await this.queue.catch(() => {});
    await this.cancelRunning("The server is shutting down.");
  }

  /**
   * Compares the embedder the settings name with the active one and acts: the same vectors → the settings are
   * adopted at once (a new key or chunk length); another embedder → a job re-embeds for it, replacing a job for
   * a third one. Called after every settings save and at start.
   */
  reconcile(): Promise<void> {
    const next = this.queue.then(() => this.reconcileNow());
    this.queue = next.catch((error) =>
      this.log.error("Cannot start re-embedding", { error: messageOf(error) })
    );
    return next;
  }

  private async reconcileNow(): Promise<void> {
    const deps = this.deps;
    // Replicas sharing a database: the one running the background jobs re-embeds, once it has read the
    // settings this replica saved (server/boot.ts reconciles after each settings refresh that changed them).
    if (!deps || !this.leads()) return;
    const live = this.liveConfig();
    let target: Embedder;
    try {
      target = this.build(live);
    } catch (error) {
      await this.cancelRunning("The embedder settings changed.");
      await this.recordFailure(live, messageOf(error));
      return;
    }
    if (target.fingerprint === this.activeFingerprint()) {
      await this.cancelRunning("The embedder was set back to the active one.");
      const adopted = JSON.stringify(live);
      if (this.settings.label(ACTIVE_EMBEDDER_LABEL) !== adopted) {
        await this.settings.setLabels({ [ACTIVE_EMBEDDER_LABEL]: adopted });
      }
      return;
    }
    if (this.running?.fingerprint === target.fingerprint) {
      this.running.config = live;
      return;
    }
    await this.cancelRunning("The embedder settings changed again.");
    if (await this.switchIfEmpty(deps, live, target.fingerprint)) return;
    await this.launch(deps, live, target.fingerprint);
  }

  /**
   * With no embedded document there is nothing to re-embed: the switch happens at once, so a settings save
   * followed by an upload uses the new embedder. Returns false when documents exist (a job is needed).
   */
  private switchIfEmpty(
    deps: EmbeddingJobDeps,
    config: EmbedderConfig,
    fingerprint: string,
  ): Promise<boolean> {
    return this.gate.exclusive(async () => {
      if ((await deps.db.$count(workspaceDocuments)) > 0) return false;
      const previous = this.activeFingerprint();
      await this.settings.setLabels({ [ACTIVE_EMBEDDER_LABEL]: JSON.stringify(config) });
      const [row] = await deps.db.insert(embeddingJobs).values({
        fingerprint,
        config: JSON.stringify(config),
        status: "done",
        finishedAt: new Date(),
      }).returning();
      this.last = this.present(row);
      if (previous) {
        for (const { id } of await deps.db.select({ id: workspaces.id }).from(workspaces)) {
          await deps.vectors.dropNamespaces(namespaceOf(id, previous));
        }
      }
      this.emit({ type: "done", jobId: row.id, done: 0, total: 0, failed: 0 });
      return true;
    });
  }

  /** Starts the job again after a failure (the settings did not change, but the service may be back). */
  async restart(): Promise<void> {
    await this.reconcile();
  }

  private async cancelRunning(reason: string): Promise<void> {
    const job = this.running;
    if (!job) return;
    job.controller.abort(new Error(reason));
    await job.finished;
  }

  private async recordFailure(config: EmbedderConfig, error: string) {
    const deps = this.deps!;
    const [row] = await deps.db.insert(embeddingJobs).values({
      fingerprint: "unconfigured",
      config: JSON.stringify(config),
      status: "failed",
      error,
      finishedAt: new Date(),
    }).returning();
    this.last = this.present(row);
    this.emit({ type: "failed", jobId: row.id, done: 0, total: 0, failed: 0, error });
    this.log.warn("The new embedder cannot be used; the active one stays", { error });
  }

  private async launch(deps: EmbeddingJobDeps, config: EmbedderConfig, fingerprint: string) {
    const [row] = await deps.db.insert(embeddingJobs).values({
      fingerprint,
      config: JSON.stringify(config),
      status: "running",
    }).returning();
    const job: RunningJob = {
      id: row.id,
      fingerprint,
      config,
      controller: new AbortController(),
      done: 0,
      total: 0,
      failed: 0,
      finished: Promise.resolve(),
    };
    this.running = job;
    this.last = this.snapshot(job, "running", null);
    this.log.info("Re-embedding every document for the new embedder", { job: job.id });
    this.emit({ type: "started", jobId: job.id, done: 0, total: 0, failed: 0 });
    job.finished = this.run(deps, job);
  }

  private snapshot(job: RunningJob, state: EmbeddingJob["state"], error: string | null): EmbeddingJob {
    return {
      id: job.id,
      state,
      engine: job.config.EmbeddingEngine ?? "native",
      model: job.config.EmbeddingModelPref ?? null,
      done: job.done,
      total: job.total,
      failed: job.failed,
      error,
    };
  }

  private present(row: typeof embeddingJobs.$inferSelect): EmbeddingJob {
    let config: EmbedderConfig = {};
    try {
      config = JSON.parse(row.config);
    } catch {
      // An unreadable config still shows the job's outcome.
    }
    return {
      id: row.id,
      state: row.status === "queued" ? "running" : row.status,
      engine: config.EmbeddingEngine ?? "native",
      model: config.EmbeddingModelPref ?? null,
      done: row.done,
      total: row.total,
      failed: row.failed,
      error: row.error,
    };
  }

  private async run(deps: EmbeddingJobDeps, job: RunningJob): Promise<void> {
    const signal = job.controller.signal;
    const previous = this.activeFingerprint();
    let wroteAt = 0;
    const progress = async (force = false) => {
      this.last = this.snapshot(job, "running", null);
      this.emit({ type: "progress", jobId: job.id, done: job.done, total: job.total, failed: job.failed });
      if (!force && Date.now() - wroteAt < PROGRESS_WRITE_MS) return;
      wroteAt = Date.now();
      await deps.db.update(embeddingJobs).set({ total: job.total, done: job.done, failed: job.failed })
        .where(eq(embeddingJobs.id, job.id));
    };
    const workspaceIds = async () =>
      (await deps.db.select({ id: workspaces.id }).from(workspaces)).map((row) => row.id);
    let embedder: Embedder | null = null;
    try {
      embedder = this.build(job.config);
      for (const id of await workspaceIds()) {
        await deps.vectors.dropNamespaces(namespaceOf(id, job.fingerprint));
      }
      const processed = new Map<string, number>();
      await this.embedPending(deps, job, embedder, processed, progress);
      await this.gate.exclusive(async () => {
        // Documents added while the job ran, then vectors of documents removed meanwhile.
        await this.embedPending(deps, job, embedder!, processed, progress);
        const live = new Set(
          (await deps.db.select({ docId: workspaceDocuments.docId }).from(workspaceDocuments)).map((row) =>
            row.docId
          ),
        );
        const existing = new Set(await workspaceIds());
        for (const [docId, workspaceId] of processed) {
          if (live.has(docId)) continue;
          if (existing.has(workspaceId)) {
            await deps.vectors.deleteDocuments(namespaceOf(workspaceId, job.fingerprint), [docId]);
          } else {
            await deps.vectors.dropNamespaces(workspaceNamespacePrefix(workspaceId));
          }
        }
        signal.throwIfAborted();
        await this.settings.setLabels({ [ACTIVE_EMBEDDER_LABEL]: JSON.stringify(job.config) });
      });
      if (previous && previous !== job.fingerprint) {
        for (const id of await workspaceIds()) {
          await deps.vectors.dropNamespaces(namespaceOf(id, previous)).catch((error) =>
            this.log.warn("Cannot drop the old embedder's vectors", {
              workspace: id,
              error: messageOf(error),
            })
          );
        }
      }
      this.running = null;
      await progress(true);
      await this.finish(deps, job, "done", null);
    } catch (error) {
      this.running = null;
      const cancelled = signal.aborted;
      const message = cancelled ? messageOf(signal.reason) : messageOf(error);
      if (!job.handedOver) {
        for (const id of await workspaceIds().catch(() => [] as number[])) {
          await deps.vectors.dropNamespaces(namespaceOf(id, job.fingerprint)).catch(() => {});
        }
      }
      await this.finish(deps, job, cancelled ? "cancelled" : "failed", message);
    }
  }

  /** Embeds every embedded document not yet processed, until none is left (documents added meanwhile too). */
  private async embedPending(
    deps: EmbeddingJobDeps,
    job: RunningJob,
    embedder: Embedder,
    processed: Map<string, number>,
    progress: (force?: boolean) => Promise<void>,
  ) {
    const signal = job.controller.signal;
    for (;;) {
      const rows = await deps.db.select({
        docId: workspaceDocuments.docId,
        docpath: workspaceDocuments.docpath,
        workspaceId: workspaceDocuments.workspaceId,
      }).from(workspaceDocuments).orderBy(workspaceDocuments.id);
      const pending = rows.filter((row) => !processed.has(row.docId));
      job.total = processed.size + pending.length;
      if (pending.length === 0) return;
      await progress(true);
      for (const row of pending) {
        signal.throwIfAborted();
        processed.set(row.docId, row.workspaceId);
        let records;
        try {
          const document = await deps.documents.read(row.docpath);
          const metadata = metadataOf(document);
          const { chunks } = await embeddedChunks(deps, embedder, row.docpath, document, signal);
          records = chunks.map((chunk) => ({
            id: crypto.randomUUID(),
            docId: row.docId,
            vector: chunk.vector,
            text: chunk.text,
            metadata: chunk.page === undefined ? metadata : { ...metadata, page: chunk.page },
          }));
        } catch (error) {
          // The embedder failing ends the job; one unreadable or empty document does not.
          if (signal.aborted || error instanceof ProviderError) throw error;
          job.failed++;
          this.log.warn("Cannot re-embed a document", { location: row.docpath, error: messageOf(error) });
          await progress();
          continue;
        }
        await deps.vectors.upsert(namespaceOf(row.workspaceId, job.fingerprint), records);
        job.done++;
        await progress();
      }
    }
  }

  private async finish(
    deps: EmbeddingJobDeps,
    job: RunningJob,
    state: "done" | "failed" | "cancelled",
    error: string | null,
  ) {
    // The outcome is known before it is written: readers see it at once, never the job as still running.
    this.last = this.snapshot(job, state, error);
    await deps.db.update(embeddingJobs).set({
      status: state,
      total: job.total,
      done: job.done,
      failed: job.failed,
      error,
      finishedAt: new Date(),
    }).where(eq(embeddingJobs.id, job.id)).catch((failure) =>
      this.log.error("Cannot record the re-embedding outcome", { error: messageOf(failure) })
    );
    const fields = { job: job.id, done: job.done, failed: job.failed, total: job.total };
    if (state === "done") this.log.info("Switched to the new embedder", fields);
    else {this.log.warn(`Re-embedding ${state}; the previous embedder stays active`, {
        ...fields,
        error: error ?? "",
      });}
    this.emit({
      type: state,
      jobId: job.id,
      done: job.done,
      total: job.total,
      failed: job.failed,
      ...(error ? { error } : {}),
    });
  }

  /** The running job, else the last one (null before the first). */
  job(): EmbeddingJob | null {
    return this.running ? this.snapshot(this.running, "running", null) : this.last;
  }

  /**
   * As job(), and on a replica that does not run the background jobs, the latest job as the database has it
   * (the running replica writes its progress there).
   */
  async latestJob(): Promise<EmbeddingJob | null> {
    const deps = this.deps;
    if (this.running || !deps || this.leads()) return this.job();
    const [latest] = await deps.db.select().from(embeddingJobs).orderBy(desc(embeddingJobs.id)).limit(1);
    if (latest) this.last = this.present(latest);
    return this.last;
  }

  get isRunning(): boolean {
    return this.running !== null;
  }

  /** The frame a progress stream opens with. */
  currentFrame(): EmbeddingProgressFrame {
    const job = this.job();
    // A job between its last document and its recorded outcome still counts as running: its terminal frame
    // is yet to come, so a stream opened then waits for it instead of ending on a stale state.
    if (job?.state === "running") {
      return { type: "progress", jobId: job.id, done: job.done, total: job.total, failed: job.failed };
    }
    return {
      type: "idle",
      jobId: job?.id ?? null,
      done: job?.done ?? 0,
      total: job?.total ?? 0,
      failed: job?.failed ?? 0,
      ...(job?.error ? { error: job.error } : {}),
    };
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(frame: EmbeddingProgressFrame) {
    for (const listener of this.listeners) listener(frame);
  }
}
