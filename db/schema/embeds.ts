import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { timestamp } from "./columns.ts";
import { users } from "./users.ts";
import { workspaces } from "./workspaces.ts";

/**
 * A chat widget that other web sites embed (`<script data-embed-id=uuid …>`): it chats with one workspace,
 * from the allowed domains only, within its limits.
 */
export const embedConfigs = sqliteTable("embed_configs", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  /** The public id the widget's script tag names. */
  uuid: text("uuid").notNull().unique(),
  enabled: integer("enabled", { mode: "boolean" }).notNull().default(false),
  chatMode: text("chat_mode", { enum: ["chat", "query"] }).notNull().default("query"),
  /** JSON array of the origins (scheme and host) allowed to use it; empty or null: any. */
  allowlistDomains: text("allowlist_domains", { mode: "json" }).$type<string[] | null>(),
  allowModelOverride: integer("allow_model_override", { mode: "boolean" }).notNull().default(false),
  allowTemperatureOverride: integer("allow_temperature_override", { mode: "boolean" }).notNull().default(
    false,
  ),
  allowPromptOverride: integer("allow_prompt_override", { mode: "boolean" }).notNull().default(false),
  maxChatsPerDay: integer("max_chats_per_day"),
  maxChatsPerSession: integer("max_chats_per_session"),
  /** How many earlier messages of the session the model sees. */
  messageLimit: integer("message_limit").default(20),
  workspaceId: integer("workspace_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
  createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
  createdAt: timestamp("created_at"),
}, (table) => [index("embed_configs_workspace_idx").on(table.workspaceId)]);

/** One exchange through an embed widget, kept per visitor session. */
export const embedChats = sqliteTable("embed_chats", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  prompt: text("prompt").notNull(),
  /** The reference's stored answer: JSON `{text, sources, type}`. */
  response: text("response").notNull(),
  sessionId: text("session_id").notNull(),
  include: integer("include", { mode: "boolean" }).notNull().default(true),
  /** JSON: the visitor's host, address and user agent, as the reference records them. */
  connectionInformation: text("connection_information"),
  embedId: integer("embed_id").notNull().references(() => embedConfigs.id, { onDelete: "cascade" }),
  createdAt: timestamp("created_at"),
}, (table) => [
  index("embed_chats_session_idx").on(table.embedId, table.sessionId, table.id),
  index("embed_chats_created_idx").on(table.embedId, table.createdAt),
]);
