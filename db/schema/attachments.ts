import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { timestamp } from "./columns.ts";
import { users } from "./users.ts";
import { workspaces, workspaceThreads } from "./workspaces.ts";

/**
 * A file attached in the chat (`workspace_parsed_files`): parsed, not embedded, and kept for
 * one user's thread (or the default thread) of a workspace. Its text is the JSON file `filename` under
 * `STORAGE_DIR/direct-uploads/`; `metadata` is that document's JSON without the text.
 */
export const workspaceParsedFiles = sqliteTable("workspace_parsed_files", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  filename: text("filename").notNull().unique(),
  workspaceId: integer("workspace_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
  userId: integer("user_id").references(() => users.id, { onDelete: "cascade" }),
  threadId: integer("thread_id").references(() => workspaceThreads.id, { onDelete: "cascade" }),
  metadata: text("metadata"),
  tokenCountEstimate: integer("token_count_estimate").notNull().default(0),
  createdAt: timestamp("created_at"),
}, (table) => [
  index("workspace_parsed_files_scope_idx").on(table.workspaceId, table.threadId, table.userId),
  index("workspace_parsed_files_user_idx").on(table.userId),
]);
