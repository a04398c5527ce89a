import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { timestamp } from "./columns.ts";
import { users } from "./users.ts";

/**
 * Keys of the developer API (`/api/v1`). Only the SHA-256 of a key is kept: the key itself is shown once, when
 * it is made. `scope` is "admin" (everything), "read" (every read, no change) or "workspaces" (the
 * `workspaces` ids, with the `permissions` listed: chat, documents, read).
 */
export const apiKeys = sqliteTable("api_keys", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name"),
  secretHash: text("secret_hash").notNull().unique(),
  /** The key's first and last characters, to tell keys apart in the list. */
  masked: text("masked").notNull(),
  scope: text("scope", { enum: ["admin", "read", "workspaces"] }).notNull().default("admin"),
  /** JSON arrays: workspace ids and permissions of a "workspaces" key; empty otherwise. */
  workspaceIds: text("workspace_ids", { mode: "json" }).$type<number[]>().notNull().default([]),
  permissions: text("permissions", { mode: "json" }).$type<string[]>().notNull().default([]),
  /** Requests per minute this key may make; null for no limit. */
  rateLimit: integer("rate_limit"),
  /** Who made it; kept (as null) when that account goes. */
  createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
  createdAt: timestamp("created_at"),
  lastUsedAt: integer("last_used_at", { mode: "timestamp_ms" }),
  lastUpdatedAt: timestamp("last_updated_at"),
}, (table) => [index("api_keys_created_idx").on(table.createdAt)]);
