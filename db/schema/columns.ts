import { sql } from "drizzle-orm";
import { integer } from "drizzle-orm/sqlite-core";

/** Milliseconds since the epoch, filled by SQLite when the row is written. */
export const timestamp = (name: string) =>
  integer(name, { mode: "timestamp_ms" }).notNull().default(
    sql`(cast(unixepoch('subsec') * 1000 as integer))`,
  );
