import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { timestamp } from "./columns.ts";
import { workspaces } from "./workspaces.ts";

/** One row per stored document JSON file (`documents/<folder>/<name>.json`); the file keeps the text. */
export const documents = sqliteTable("documents", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  location: text("location").notNull().unique(),
  folder: text("folder").notNull(),
  filename: text("filename").notNull(),
  title: text("title").notNull(),
  /** JSON of the document minus pageContent. */
  metadata: text("metadata").notNull(),
  wordCount: integer("word_count").notNull().default(0),
  tokenCountEstimate: integer("token_count_estimate").notNull().default(0),
  createdAt: timestamp("created_at"),
}, (table) => [index("documents_folder_idx").on(table.folder)]);

/** A document embedded into a workspace; its chunks live in the workspace's vector table under `doc_id`. */
export const workspaceDocuments = sqliteTable("workspace_documents", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  docId: text("doc_id").notNull().unique(),
  filename: text("filename").notNull(),
  docpath: text("docpath").notNull(),
  workspaceId: integer("workspace_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
  metadata: text("metadata"),
  pinned: integer("pinned", { mode: "boolean" }).notNull().default(false),
  watched: integer("watched", { mode: "boolean" }).notNull().default(false),
  createdAt: timestamp("created_at"),
  lastUpdatedAt: timestamp("last_updated_at"),
}, (table) => [index("workspace_documents_workspace_idx").on(table.workspaceId, table.docpath)]);

/** Watched documents (live sync): re-fetched when stale, re-embedded when changed. */
export const documentSyncQueues = sqliteTable("document_sync_queues", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  workspaceDocId: integer("workspace_doc_id").notNull().unique().references(() => workspaceDocuments.id, {
    onDelete: "cascade",
  }),
  staleAfterMs: integer("stale_after_ms").notNull().default(7 * 24 * 60 * 60 * 1000),
  nextSyncAt: integer("next_sync_at", { mode: "timestamp_ms" }).notNull(),
  lastSyncedAt: integer("last_synced_at", { mode: "timestamp_ms" }),
  createdAt: timestamp("created_at"),
});

export const documentSyncExecutions = sqliteTable("document_sync_executions", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  queueId: integer("queue_id").notNull().references(() => documentSyncQueues.id, { onDelete: "cascade" }),
  status: text("status", { enum: ["unknown", "success", "unchanged", "failed"] }).notNull().default(
    "unknown",
  ),
  result: text("result"),
  createdAt: timestamp("created_at"),
}, (table) => [index("document_sync_executions_queue_idx").on(table.queueId)]);

/** Background re-embedding after the embedder changed: one row per run, with its progress. */
export const embeddingJobs = sqliteTable("embedding_jobs", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  /** The embedder the job embeds for (its fingerprint) and its settings as JSON, kept until the switch. */
  fingerprint: text("fingerprint").notNull(),
  config: text("config").notNull(),
  status: text("status", { enum: ["queued", "running", "done", "failed", "cancelled"] }).notNull().default(
    "queued",
  ),
  total: integer("total").notNull().default(0),
  done: integer("done").notNull().default(0),
  failed: integer("failed").notNull().default(0),
  error: text("error"),
  createdAt: timestamp("created_at"),
  finishedAt: integer("finished_at", { mode: "timestamp_ms" }),
});

/**
 * Vectors written or being deleted whose document row may not be committed yet (an upload, a live sync, a
 * removal). The row is written before the vectors and deleted after the commit; a row left by an earlier
 * process (`boot` differs) marks vectors a kill -9 may have left unreferenced: they are deleted at start.
 */
export const pendingVectors = sqliteTable("pending_vectors", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  boot: text("boot").notNull(),
  namespace: text("namespace").notNull(),
  docId: text("doc_id").notNull(),
  createdAt: timestamp("created_at"),
});
