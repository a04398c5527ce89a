import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { timestamp } from "./columns.ts";
import { users } from "./users.ts";

/**
 * Keys of the browser extension (`/api/browser-extension/*`): the reference's `browser_extension_api_keys`, but
 * only the SHA-256 of a key is kept (the key, `brx-…`, is shown once, when it is made). In multi-user mode a key
 * acts as the admin who made it and goes with that account; a key made on a single-user instance has no owner
 * and stops working once accounts are enabled.
 */
export const browserExtensionKeys = sqliteTable("browser_extension_keys", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  secretHash: text("secret_hash").notNull().unique(),
  /** The key's first and last characters, to tell keys apart in the list. */
  masked: text("masked").notNull(),
  userId: integer("user_id").references(() => users.id, { onDelete: "cascade" }),
  createdAt: timestamp("created_at"),
  lastUsedAt: integer("last_used_at", { mode: "timestamp_ms" }),
  lastUpdatedAt: timestamp("last_updated_at"),
}, (table) => [index("browser_extension_keys_user_idx").on(table.userId)]);
