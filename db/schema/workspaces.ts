import { index, integer, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { timestamp } from "./columns.ts";
import { users } from "./users.ts";

export const workspaces = sqliteTable("workspaces", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull(),
  slug: text("slug").notNull().unique(),
  vectorTag: text("vector_tag"),
  openAiTemp: real("open_ai_temp"),
  openAiHistory: integer("open_ai_history").notNull().default(20),
  openAiPrompt: text("open_ai_prompt"),
  similarityThreshold: real("similarity_threshold").notNull().default(0.25),
  chatProvider: text("chat_provider"),
  chatModel: text("chat_model"),
  topN: integer("top_n").notNull().default(4),
  chatMode: text("chat_mode").notNull().default("chat"),
  pfpFilename: text("pfp_filename"),
  agentProvider: text("agent_provider"),
  agentModel: text("agent_model"),
  queryRefusalResponse: text("query_refusal_response"),
  vectorSearchMode: text("vector_search_mode").notNull().default("default"),
  /** Vector search fused with full-text (BM25) search; a workspace can turn it off. */
  hybridSearch: integer("hybrid_search", { mode: "boolean" }).notNull().default(true),
  /** A follow-up question is rewritten with the conversation before it is searched (server/chat/rewrite.ts). */
  queryRewrite: integer("query_rewrite", { mode: "boolean" }).notNull().default(true),
  /** Every user may chat in it as a viewer; otherwise only its members (and admins and managers) see it. */
  visibleToAll: integer("visible_to_all", { mode: "boolean" }).notNull().default(false),
  createdAt: timestamp("created_at"),
  lastUpdatedAt: timestamp("last_updated_at"),
});

export const workspaceThreads = sqliteTable("workspace_threads", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull(),
  slug: text("slug").notNull().unique(),
  workspaceId: integer("workspace_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
  userId: integer("user_id").references(() => users.id, { onDelete: "cascade" }),
  createdAt: timestamp("created_at"),
  lastUpdatedAt: timestamp("last_updated_at"),
}, (table) => [index("workspace_threads_workspace_idx").on(table.workspaceId)]);

export const workspaceChats = sqliteTable("workspace_chats", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  workspaceId: integer("workspace_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
  prompt: text("prompt").notNull(),
  /** JSON: { text, sources, type, attachments, metrics } (docs/api-compat.md#stored-chat). */
  response: text("response").notNull(),
  include: integer("include", { mode: "boolean" }).notNull().default(true),
  userId: integer("user_id").references(() => users.id, { onDelete: "cascade" }),
  threadId: integer("thread_id").references(() => workspaceThreads.id, { onDelete: "cascade" }),
  apiSessionId: text("api_session_id"),
  feedbackScore: integer("feedback_score", { mode: "boolean" }),
  createdAt: timestamp("created_at"),
  lastUpdatedAt: timestamp("last_updated_at"),
}, (table) => [
  index("workspace_chats_history_idx").on(table.workspaceId, table.threadId, table.id),
  index("workspace_chats_user_time_idx").on(table.userId, table.createdAt),
  // A workspace's chats in order without a sort: the jsonl export reads each workspace's chats a page at a time.
  index("workspace_chats_workspace_idx").on(table.workspaceId, table.id),
]);

/**
 * Which default users may use a workspace (admins and managers see every workspace), and as what: a viewer
 * chats, an editor also manages documents and settings, an owner also the members (server/workspaces/access.ts).
 */
export const workspaceUsers = sqliteTable("workspace_users", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
  workspaceId: integer("workspace_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
  role: text("role", { enum: ["viewer", "editor", "owner"] }).notNull().default("viewer"),
  createdAt: timestamp("created_at"),
  lastUpdatedAt: timestamp("last_updated_at"),
}, (table) => [uniqueIndex("workspace_users_pair_idx").on(table.workspaceId, table.userId)]);

export const workspaceSuggestedMessages = sqliteTable("workspace_suggested_messages", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  workspaceId: integer("workspace_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
  heading: text("heading").notNull(),
  message: text("message").notNull(),
  createdAt: timestamp("created_at"),
  lastUpdatedAt: timestamp("last_updated_at"),
}, (table) => [index("workspace_suggested_messages_workspace_idx").on(table.workspaceId)]);

/** Slash command presets: `/command` at the start of a message or after a space expands to `prompt`. */
export const slashCommandPresets = sqliteTable("slash_command_presets", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  command: text("command").notNull(),
  prompt: text("prompt").notNull(),
  description: text("description").notNull(),
  /** The owner's id, or 0 in single-user mode: unique together with the command. */
  uid: integer("uid").notNull().default(0),
  userId: integer("user_id").references(() => users.id, { onDelete: "cascade" }),
  createdAt: timestamp("created_at"),
  lastUpdatedAt: timestamp("last_updated_at"),
}, (table) => [uniqueIndex("slash_command_presets_uid_command_idx").on(table.uid, table.command)]);
