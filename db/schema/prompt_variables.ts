import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { timestamp } from "./columns.ts";
import { users } from "./users.ts";

/** Variables an admin defines for system prompts (`{key}` is replaced by `value` at chat time). */
export const systemPromptVariables = sqliteTable("system_prompt_variables", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  key: text("key").notNull().unique(),
  value: text("value").notNull(),
  description: text("description"),
  /** Always "static" for stored variables; the built-in ones (system, user, workspace) live in the code. */
  type: text("type").notNull().default("static"),
  /** The admin who created it; kept when that account goes. */
  userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
  createdAt: timestamp("created_at"),
  lastUpdatedAt: timestamp("last_updated_at"),
});
