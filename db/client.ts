import { type Client, createClient } from "@libsql/client";
import { drizzle, type LibSQLDatabase } from "drizzle-orm/libsql";
import * as schema from "./schema.ts";
import { migrate, type MigrationResult } from "./migrate.ts";
import migrations from "./migrations.gen.ts";

export type Database = LibSQLDatabase<typeof schema>;

export interface OpenedDatabase {
  db: Database;
  client: Client;
  migration: MigrationResult;
  close(): void;
}

/**
 * Opens (creating when missing) the libSQL file at `path`, turns on WAL and applies pending migrations.
 * `timeout` sets the busy timeout on every pooled connection, transactions included.
 */
export async function openDatabase(path: string): Promise<OpenedDatabase> {
  const client = createClient({ url: `file:${path}`, timeout: 5000 });
  await client.execute("PRAGMA journal_mode = WAL");
  const migration = await migrate(client, migrations, {
    backupPath: (tag) => `${path}.before-${tag}.bak`,
  });
  const db = drizzle(client, { schema });
  return { db, client, migration, close: () => client.close() };
}
