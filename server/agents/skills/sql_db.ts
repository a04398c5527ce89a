// One SQL query on a database file opened read-only (run in sql_worker.ts, which the caller ends at its time limit).
import process from "node:process";
import { resolve, sep } from "node:path";
import type { Deps } from "../../deps.ts";

interface Statement {
  columns(): { name: string }[];
  iterate(): Iterable<Record<string, unknown>>;
  all(): Record<string, unknown>[];
  run(): unknown;
}
interface DatabaseSync {
  prepare(sql: string): Statement;
  setAuthorizer(callback: (action: number) => number): void;
  close(): void;
}
type DatabaseSyncClass = new (path: string, options: { readOnly: boolean }) => DatabaseSync;

/** node:sqlite's DatabaseSync, loaded on first use rather than with this module, which every start evaluates. */
let databaseSync: DatabaseSyncClass | undefined;
function loadDatabaseSync(): DatabaseSyncClass {
  // The Node type definitions the whole project checks with (from an npm package) lack node:sqlite.
  databaseSync ??=
    (process.getBuiltinModule("node:sqlite") as { DatabaseSync: DatabaseSyncClass }).DatabaseSync;
  return databaseSync;
}

/** SQLite's authorizer codes (the type definitions here lack them). */
const SQLITE_OK = 0;
const SQLITE_DENY = 1;
const SQLITE_ATTACH = 24;

export interface SqlJob {
  path: string;
  sql: string;
  maxRows: number;
}

export type SqlAnswer =
  | { ok: true; columns: string[]; rows: unknown[][]; truncated: boolean }
  | { ok: false; error: string };

/** Opens the file read-only (SQLite refuses every write) with ATTACH refused, so no other file can be read. */
export function openReadOnly(path: string): DatabaseSync {
  const db = new (loadDatabaseSync())(path, { readOnly: true });
  db.setAuthorizer((action) => action === SQLITE_ATTACH ? SQLITE_DENY : SQLITE_OK);
  return db;
}

/** A value the model can read in JSON: big integers as text, blobs by their size. */
function plain(value: unknown): unknown {
  if (typeof value === "bigint") return value.toString();
  if (value instanceof Uint8Array) return `<${value.byteLength} bytes>`;
  return value;
}

export function runQuery(job: SqlJob): SqlAnswer {
  let db: DatabaseSync | null = null;
  try {
    db = openReadOnly(job.path);
    const statement = db.prepare(job.sql);
    const columns = statement.columns().map((column) => column.name);
    // A statement without columns is run (SQLite refuses any write on the read-only connection).
    if (columns.length === 0) {
      statement.run();
      return { ok: true, columns, rows: [], truncated: false };
    }
    const rows: unknown[][] = [];
    let truncated = false;
    for (const row of statement.iterate()) {
      if (rows.length >= job.maxRows) {
        truncated = true;
        break;
      }
      rows.push(Object.values(row).map(plain));
    }
    // Deno's iterate() ends quietly on an error; all() of a statement that gave nothing reports it.
    if (rows.length === 0) statement.all();
    return { ok: true, columns, rows, truncated };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  } finally {
    db?.close();
  }
}

/** The file a connection string names: a path, or a `file:` URL (`?mode=…` and the like ignored). */
export function sqlitePath(connectionString: string): string {
  const text = connectionString.trim();
  if (/^file:/i.test(text)) {
    const url = new URL(text.startsWith("file://") ? text : `file://${text.slice("file:".length)}`);
    return decodeURIComponent(url.pathname);
  }
  return text;
}

/**
 * Why a connection cannot be used, or null: a file that opens read-only as a SQLite database, outside Lectern's
 * storage folder (its own database and keys are not for agents to read).
 */
export function sqliteProblem(deps: Pick<Deps, "paths">, connectionString: string): string | null {
  const path = resolve(sqlitePath(connectionString));
  const storage = resolve(deps.paths.root);
  if (path === storage || path.startsWith(storage + sep)) {
    return "Lectern's own storage folder cannot be queried by agents.";
  }
  try {
    if (!Deno.statSync(path).isFile) return `${path} is not a file.`;
  } catch {
    return `There is no database file at ${path}.`;
  }
  try {
    openReadOnly(path).close();
    return null;
  } catch (error) {
    return `${path} could not be opened as a SQLite database: ${
      error instanceof Error ? error.message : error
    }.`;
  }
}
