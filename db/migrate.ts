import type { Client } from "@libsql/client";

export interface EmbeddedMigration {
  tag: string;
  /** drizzle-kit's `when`; also the `created_at` drizzle's own migrator records. */
  when: number;
  breakpoints: boolean;
  sql: string;
}

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

function statementsOf(migration: EmbeddedMigration): string[] {
  const parts = migration.breakpoints ? migration.sql.split("--> statement-breakpoint") : [migration.sql];
  return parts.map((part) => part.trim()).filter((part) => part.length > 0);
}

export interface MigrationResult {
  applied: string[];
  backupPath: string | null;
}

/**
 * Applies the migrations that are newer than the last one recorded, with drizzle's own bookkeeping
 * (`__drizzle_migrations`, sha256 of the SQL text, `created_at` = `when`), all in one write transaction.
 * Before changing a database that already holds tables, it writes a copy with `VACUUM INTO`.
 */
export async function migrate(
  client: Client,
  migrations: EmbeddedMigration[],
  options: { backupPath?: (tag: string) => string } = {},
): Promise<MigrationResult> {
  await client.execute(
    `CREATE TABLE IF NOT EXISTS "__drizzle_migrations" (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at numeric)`,
  );
  const last = await client.execute(
    `SELECT created_at FROM "__drizzle_migrations" ORDER BY created_at DESC LIMIT 1`,
  );
  const lastWhen = last.rows.length ? Number(last.rows[0][0]) : -1;
  const pending = migrations.filter((migration) => migration.when > lastWhen);
  if (pending.length === 0) return { applied: [], backupPath: null };

  let backupPath: string | null = null;
  const tables = await client.execute(
    `SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_\\_%' ESCAPE '\\' AND name NOT LIKE 'sqlite_%'`,
  );
  if (Number(tables.rows[0][0]) > 0 && options.backupPath) {
    backupPath = options.backupPath(pending[0].tag);
    // VACUUM INTO refuses an existing file, and a process killed while copying leaves half a copy: the copy is
    // written beside and renamed into place. An earlier attempt's copy is replaced; the migrations it preceded
    // did not commit, so the database still holds what it held then.
    const partial = `${backupPath}.partial`;
    await Deno.remove(partial).catch((error) => {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    });
    await client.execute({ sql: "VACUUM INTO ?", args: [partial] });
    await Deno.rename(partial, backupPath);
  }

  // Several replicas may start at once on one database (a libSQL server): the write transaction serialises
  // them, and what is pending is read again inside it, so each migration is applied once.
  const transaction = await client.transaction("write");
  try {
    const again = await transaction.execute(
      `SELECT created_at FROM "__drizzle_migrations" ORDER BY created_at DESC LIMIT 1`,
    );
    const lastNow = again.rows.length ? Number(again.rows[0][0]) : -1;
    const still = pending.filter((migration) => migration.when > lastNow);
    for (const migration of still) {
      for (const statement of statementsOf(migration)) await transaction.execute(statement);
      await transaction.execute({
        sql: `INSERT INTO "__drizzle_migrations" ("hash", "created_at") VALUES (?, ?)`,
        args: [await sha256Hex(migration.sql), migration.when],
      });
    }
    await transaction.commit();
    return { applied: still.map((migration) => migration.tag), backupPath };
  } finally {
    transaction.close();
  }
}
