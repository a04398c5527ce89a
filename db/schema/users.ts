import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { timestamp } from "./columns.ts";

export const users = sqliteTable("users", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  username: text("username").unique(),
  password: text("password").notNull(),
  pfpFilename: text("pfp_filename"),
  role: text("role", { enum: ["admin", "manager", "default"] }).notNull().default("default"),
  suspended: integer("suspended").notNull().default(0),
  seenRecoveryCodes: integer("seen_recovery_codes", { mode: "boolean" }).notNull().default(false),
  dailyMessageLimit: integer("daily_message_limit"),
  bio: text("bio").default(""),
  createdAt: timestamp("created_at"),
  lastUpdatedAt: timestamp("last_updated_at"),
});
