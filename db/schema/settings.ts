import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { timestamp } from "./columns.ts";

export const systemSettings = sqliteTable("system_settings", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  label: text("label").notNull().unique(),
  value: text("value"),
  createdAt: timestamp("created_at"),
  lastUpdatedAt: timestamp("last_updated_at"),
});
