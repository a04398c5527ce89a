// The local file's client only: the full client's HTTP and WebSocket transports (hrana, about 40 modules) load
// when a remote database is configured (issue 21: a start loads what it uses).
import type { Client } from "@libsql/client";
import { createClient } from "@libsql/client/sqlite3";
import { drizzle } from "drizzle-orm/libsql/sqlite3";
import type { LibSQLDatabase } from "drizzle-orm/libsql/driver-core";
import * as schema from "./schema.ts";
import { migrate, type MigrationResult } from "./migrate.ts";
import { serialiseWrites } from "./serial_writes.ts";
import { cacheReads } from "./read_cache.ts";
import migrations from "./migrations.gen.ts";

export type Database = LibSQLDatabase<typeof schema>;

export interface OpenedDatabase {
  db: Database;
  client: Client;
  migration: MigrationResult;
  /** True when the database is on a libSQL server (shared by every replica), false for a local file. */
  remote: boolean;
  close(): void;
}

/**
 * A database on a libSQL server (sqld or Turso): `url` is `libsql://`, `http(s)://` or `ws(s)://`. With
 * `replicaPath`, the server's database is kept in a local file (an embedded replica) that reads are answered
 * from; writes go to the server, and the file is synced every `syncSeconds` and after each write.
 */
export interface RemoteDatabase {
  url: string;
  authToken?: string;
  replicaPath?: string;
  syncSeconds?: number;
}

/**
 * Opens (creating when missing) the libSQL file at `path`, turns on WAL and applies pending migrations.
 * `timeout` sets the busy timeout on every pooled connection, transactions included.
 */
export async function openDatabase(path: string): Promise<OpenedDatabase> {
  // Writes take turns in JavaScript: SQLite's busy wait would sleep the one thread a transaction needs. This
  // process alone writes the file, so reads of a few small tables are answered from memory between writes.
  const client = cacheReads(serialiseWrites(createClient({ url: `file:${path}`, timeout: 5000 })));
  await client.execute("PRAGMA journal_mode = WAL");
  const migration = await migrate(client, migrations, {
    backupPath: (tag) => `${path}.before-${tag}.bak`,
  }).catch((error) => {
    client.close();
    throw error;
  });
  const db = drizzle(client, { schema });
  return { db, client, migration, remote: false, close: () => client.close() };
}

/**
 * Opens the database on a libSQL server and applies pending migrations there (several replicas starting at
 * once apply them once: see `migrate`). No copy is written before migrating: the server's own backups
 * (sqld's bottomless, Turso's point-in-time restore) cover it.
 */
export async function openRemoteDatabase(remote: RemoteDatabase): Promise<OpenedDatabase> {
  // This process's own writes take turns too, and a "database is locked" from the server (another replica's
  // transaction) is tried again after a pause instead of failing the call.
  const { createClient } = await import("@libsql/client");
  const client = serialiseWrites(
    remote.replicaPath
      ? createClient({
        url: `file:${remote.replicaPath}`,
        syncUrl: remote.url,
        authToken: remote.authToken,
        syncInterval: remote.syncSeconds,
      })
      : createClient({ url: remote.url, authToken: remote.authToken }),
  );
  try {
    if (remote.replicaPath) await client.sync();
    const migration = await migrate(client, migrations);
    if (remote.replicaPath && migration.applied.length > 0) await client.sync();
    const db = (await import("drizzle-orm/libsql")).drizzle(client, { schema });
    return { db, client, migration, remote: true, close: () => client.close() };
  } catch (error) {
    client.close();
    throw error;
  }
}
