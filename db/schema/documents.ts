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
