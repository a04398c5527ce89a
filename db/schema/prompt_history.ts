import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { timestamp } from "./columns.ts";
import { users } from "./users.ts";
import { workspaces } from "./workspaces.ts";

/** A workspace's earlier system prompts: each row is the prompt as it was before someone changed it. */
export const workspacePromptHistory = sqliteTable("workspace_prompt_history", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  workspaceId: integer("workspace_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
  prompt: text("prompt").notNull(),
  /** Who replaced it; kept (as null) when that account goes. */
  modifiedBy: integer("modified_by").references(() => users.id, { onDelete: "set null" }),
  modifiedAt: timestamp("modified_at"),
}, (table) => [index("workspace_prompt_history_workspace").on(table.workspaceId, table.id)]);
