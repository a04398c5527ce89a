import { McpHub } from "./agents/mcp/hub.ts";
import { releaseReservedVectors, sweepPendingVectors } from "./documents/pending_vectors.ts";
import { resolve } from "node:path";
import { openDatabase, openRemoteDatabase } from "../db/client.ts";
import type { Config } from "./config.ts";
import type { Deps, Providers } from "./deps.ts";
import { StreamRegistry } from "./http/streams.ts";
import { ChatAdmission } from "./chat/admission.ts";
import { createLogger, type Logger } from "./log.ts";
import { ensureStorage, protectDatabase, storagePaths } from "./storage.ts";
import { loadInstanceKeys } from "./auth/keys.ts";
import { SettingsService } from "./settings/service.ts";
import { openVectorStores } from "./providers/vectors/registry.ts";
import { closeParseWorkers } from "./documents/parse_worker.ts";
import { DocumentStore } from "./documents/store.ts";
import type { ProviderDeps } from "./providers/endpoints.ts";
import { cachedChatModels } from "./providers/llm/registry.ts";
import { EmbeddingService } from "./embedding/service.ts";
import { type ClientAssets, loadClientAssets } from "./pages/assets.ts";
import { createAuthLimits } from "./auth/rate_limit.ts";
import { LiveSync } from "./documents/live_sync.ts";
import { loadedImports, STAGING_FOLDER } from "./connectors/staging.ts";
import { EmbedProgress } from "./embedding/progress.ts";
import { JobRunner } from "./jobs/runner.ts";
import { chatsStarting } from "./jobs/chat_window.ts";
import { ABANDONED_WRITE_MS, maintenanceJob } from "./jobs/maintenance.ts";

/** Whether a folder exists and holds anything. */
async function hasEntries(folder: string): Promise<boolean> {
  try {
    for await (const _ of Deno.readDir(folder)) return true;
  } catch {
    // no folder
  }
  return false;
}

export interface Booted {
  deps: Deps;
  /** Closes the vector store and the database; call after the server stopped. */
  close(): Promise<void>;
}

/** Opens storage, database (migrated), keys, settings and vector store, and wires the providers. */
export async function boot(
  config: Config,
  options: {
    log?: Logger;
    assets?: ClientAssets;
    providerDeps?: ProviderDeps;
    providers?: Partial<Providers>;
    /** How often live sync looks for stale watched documents (tests make it short). */
    liveSyncIntervalMs?: number;
  } = {},
): Promise<Booted> {
  const log = options.log ?? createLogger(config.logLevel);
  const paths = storagePaths(resolve(config.storageDir));
  await ensureStorage(paths);
  const database = config.database
    ? await openRemoteDatabase({
      url: config.database.url,
      authToken: config.database.authToken,
      replicaPath: config.database.replicaPath && resolve(config.database.replicaPath),
      syncSeconds: config.database.syncSeconds,
    })
    : await openDatabase(paths.database);
  if (!database.remote) await protectDatabase(paths);
  if (database.migration.applied.length > 0) {
    log.info("Database migrated", {
      applied: database.migration.applied.join(","),
      backup: database.migration.backupPath ?? undefined,
    });
  }
  const replicaId = config.jobs.replicaId ?? `${Deno.hostname()}:${config.port}`;
  const jobs = new JobRunner({
    db: database.db,
    log,
    replicaId,
    leaseMs: config.jobs.leaseSeconds * 1000,
    // A round's database writes wait (a moment at most) for the chats starting to have asked their model.
    busy: () => chatsStarting() > 0,
  });
  try {
    const keys = await loadInstanceKeys(paths.keys);
    const settings = await SettingsService.load(database.db, keys.settings, config.lockedSettings);
    const vectors = await openVectorStores(settings, {
      lancedbDir: paths.lancedb,
      log,
      pineconeControlPlane: config.pineconeControlPlane ?? undefined,
    });
    const providerDeps: ProviderDeps = { ...options.providerDeps, modelsDir: paths.models };
    const embedding = new EmbeddingService(settings, providerDeps, log);
    const providers: Providers = {
      chatModel: options.providers?.chatModel ??
        cachedChatModels(settings, providerDeps),
      embedder: options.providers?.embedder ?? (() => embedding.active()),
      targetEmbedder: options.providers?.targetEmbedder ?? (() => embedding.target()),
      embedding,
    };
    const deps: Deps = {
      config,
      log,
      db: database.db,
      paths,
      keys,
      settings,
      vectors,
      documents: new DocumentStore(database.db, paths.documents),
      providers,
      streams: new StreamRegistry(),
      chatStarts: new ChatAdmission(config.chatStartsAtOnce),
      assets: options.assets ?? loadClientAssets(undefined, { reload: config.dev }),
      limits: createAuthLimits(config.rateLimits, database.client),
      providerDeps,
      liveSync: new LiveSync({
        intervalMs: options.liveSyncIntervalMs,
        isLeader: () => jobs.isLeader,
        replicaId: database.remote ? replicaId : undefined,
      }),
      embedProgress: new EmbedProgress(),
      jobs,
      mcp: new McpHub({ root: paths.root, log, linkFetch: () => deps.linkFetch }),
    };
    // The first try for the lease: the replica that wins resumes the database-wide work at start.
    await jobs.start({ take: !database.remote });
    // The attachments' module (the chat's uploads, parsers, models) loads only when there are parsed files to sweep.
    if (jobs.isLeader && await hasEntries(paths.directUploads)) {
      await (await import("./attachments/service.ts")).sweepParsedFiles(deps);
    }
    await embedding.start(deps, { resume: jobs.isLeader, leads: () => jobs.isLeader });
    // Later changes of hands (registered after the first try, which resumed above): the replica that takes the
    // lease over resumes the re-embedding job a dead leader left, and one that loses it stops its own.
    jobs.onLead(() => embedding.takeOver());
    jobs.onLose(() => embedding.standDown());
    await deps.liveSync.start(deps);
    // The connectors load only when an interrupted import left its staging folder behind.
    if (await hasEntries(resolve(paths.root, STAGING_FOLDER))) {
      await (await import("./connectors/import.ts")).sweepAbandonedImports(deps);
    }
    // After live sync's recovery, which may still commit the vectors of a staged sync. Replicas sharing the
    // database leave the others' writes under way alone.
    if (jobs.isLeader) {
      await sweepPendingVectors(deps, {
        olderThan: database.remote ? new Date(Date.now() - ABANDONED_WRITE_MS) : undefined,
      });
    }
    jobs.register(maintenanceJob(deps, config.jobs.maintenanceSeconds * 1000));
    if (config.jobs.settingsRefreshSeconds > 0) {
      jobs.register({
        name: "settings-refresh",
        scope: "replica",
        intervalMs: config.jobs.settingsRefreshSeconds * 1000,
        async run() {
          if (!await settings.refresh()) return;
          log.debug("Settings changed by another replica were read");
          // A replica that does not run the background jobs left an embedder change to this one.
          if (jobs.isLeader) await embedding.reconcile();
        },
      });
    }
    return {
      deps,
      async close() {
        await jobs.stop();
        await loadedImports.stopAll?.(deps);
        await deps.mcp.stopAll();
        await deps.liveSync.stop();
        await embedding.stop();
        await vectors.close();
        await closeParseWorkers();
        // The records reserved for uploads to come (none now) would cost the next start a sweep.
        await releaseReservedVectors(deps.db).catch(() => {});
        database.close();
      },
    };
  } catch (error) {
    await jobs.stop();
    database.close();
    throw error;
  }
}
