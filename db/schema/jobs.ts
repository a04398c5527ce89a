import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Leases that let several Lectern replicas on one database share background work (server/jobs/). The row
 * `leader` elects the job runner: `owner` is the replica holding it until `expires_at` (ms since the epoch),
 * renewed while it lives, taken over once it has expired; `count` counts the changes of hands. A row
 * `job:<name>` schedules one database-wide job: `expires_at` is when it is next due, `owner` the replica that
 * ran it last and `count` how many times it ran; a run is claimed by moving `expires_at` on, so each due time
 * is run by one replica only.
 */
export const jobLeases = sqliteTable("job_leases", {
  name: text("name").primaryKey(),
  owner: text("owner").notNull(),
  expiresAt: integer("expires_at").notNull(),
  count: integer("count").notNull().default(1),
});

/**
 * Login and account-recovery attempts, counted in the database when several replicas share it (RATE_LIMITS=
 * database): one row per attempt; old rows are pruned by the maintenance job.
 */
export const rateLimitHits = sqliteTable("rate_limit_hits", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  bucket: text("bucket").notNull(),
  key: text("key").notNull(),
  at: integer("at").notNull(),
}, (table) => [index("rate_limit_hits_bucket_key_at").on(table.bucket, table.key, table.at)]);
