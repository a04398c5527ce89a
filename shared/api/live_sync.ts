import * as z from "zod";

/**
 * The system setting that turns live document sync on or off (`enabled|disabled`). Absent
 * means disabled: the feature is a beta and opt-in.
 */
export const LIVE_SYNC_LABEL = "experimental_live_file_sync";

/** How often the worker looks for stale watched documents while the feature is on. */
export const LIVE_SYNC_INTERVAL_MS = 60_000;
/** How many of a queue's latest runs are kept; older ones are deleted after each run. */
export const KEPT_EXECUTIONS = 10;
/** How many of a queue's latest runs `GET /experimental/live-sync/queues` returns. */
export const LISTED_EXECUTIONS = 5;
/** After this many failed runs in a row the document is no longer watched (as the reference does). */
export const MAX_FAILURES_IN_A_ROW = 5;

export const SYNC_STATUSES = ["unknown", "success", "unchanged", "failed"] as const;
export type SyncStatus = (typeof SYNC_STATUSES)[number];

/** `POST /experimental/toggle-live-sync`. */
export const ToggleLiveSyncInput = z.object({
  updatedStatus: z.boolean({ error: "updatedStatus must be true or false." }),
}, { error: 'The body must be a JSON object such as {"updatedStatus": true}' });

/** `GET /experimental/live-sync`: whether the feature is on, and how often the worker looks for stale documents. */
export const LiveSyncStatus = z.object({
  enabled: z.boolean(),
  intervalMs: z.number(),
});
export type LiveSyncStatus = z.infer<typeof LiveSyncStatus>;

/** One run of a queue: what happened and when. `result` is a sentence for people (an error's message). */
export const SyncExecution = z.object({
  id: z.number(),
  status: z.enum(SYNC_STATUSES),
  result: z.string().nullable(),
  createdAt: z.string(),
});
export type SyncExecution = z.infer<typeof SyncExecution>;

/** What the document JSON says about a watched document (its metadata, never its text). */
export const WatchedMetadata = z.looseObject({
  title: z.string(),
  url: z.string(),
  chunkSource: z.string(),
  published: z.string().optional(),
  wordCount: z.number().optional(),
  /** The link the document is fetched from (chunkSource without `link://`). */
  sourceUrl: z.string(),
});

/**
 * A watched document's sync queue, with the workspace document it watches and its latest runs (newest first).
 * Timestamps are ISO strings; `lastSyncedAt` is null until the first run.
 */
export const SyncQueue = z.object({
  id: z.number(),
  workspaceDocId: z.number(),
  staleAfterMs: z.number(),
  nextSyncAt: z.string(),
  lastSyncedAt: z.string().nullable(),
  createdAt: z.string(),
  workspaceDoc: z.object({
    id: z.number(),
    docId: z.string(),
    docpath: z.string(),
    filename: z.string(),
    workspaceId: z.number(),
    pinned: z.boolean(),
    watched: z.boolean(),
    metadata: WatchedMetadata,
    workspace: z.object({ id: z.number(), name: z.string(), slug: z.string() }),
  }),
  executions: z.array(SyncExecution),
});
export type SyncQueue = z.infer<typeof SyncQueue>;

/** `GET /experimental/live-sync/queues`: every watched document, the next one due first. */
export const LiveSyncQueuesAnswer = z.object({ queues: z.array(SyncQueue) });

/**
 * `POST /experimental/live-sync/queues/:id/sync-now`: the run's outcome, and the queue afterwards (null when
 * the run ended the watch after too many failures in a row).
 */
export const SyncNowAnswer = z.object({
  success: z.literal(true),
  error: z.null(),
  execution: SyncExecution,
  queue: SyncQueue.nullable(),
});
export type SyncNowAnswer = z.infer<typeof SyncNowAnswer>;

export const SuccessOrError = z.object({ success: z.boolean(), error: z.string().nullable() });
