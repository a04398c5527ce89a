// Answers to repeated reads of a few small tables kept in memory until a write touches one of those tables.
//
// Every chat reads the same rows again: the workspace, its documents (pinned ones, and the ones still in it), the
// user's slash-command presets, the custom prompt variables, the files attached in the thread. On a local database
// each read runs synchronously on the server's one thread (drizzle builds the SQL, SQLite prepares and runs it):
// with hundreds of chats starting at once that was a large share of the work per chat. Here a SELECT that reads
// only tables of CACHED_TABLES is answered from memory while none of them has been written since. Every write
// goes through this client (the database file is this process's alone), and each one marks the tables it names as
// changed: an INSERT or UPDATE its own table, anything else (a DELETE, whose foreign keys may cascade, DDL, a
// script) every table. A transaction's writes count at its commit, when other reads can first see them.
import type { Client, InArgs, InStatement, ResultSet, Transaction } from "@libsql/client";
import { mayWrite } from "./serial_writes.ts";

/** Tables read by every chat and written rarely; their SELECTs are answered from memory between writes. */
export const CACHED_TABLES: ReadonlySet<string> = new Set([
  "workspaces",
  "workspace_documents",
  "workspace_parsed_files",
  "workspace_threads",
  "workspace_users",
  "slash_command_presets",
  "system_prompt_variables",
]);

/** Answers kept at most (the oldest used leaves first), and rows at most in one kept answer. */
const MAX_ENTRIES = 1_000;
const MAX_ROWS = 500;

/** Every table a statement reads (FROM and JOIN), lower case. */
function tablesRead(sql: string): string[] {
  return [...sql.matchAll(/\b(?:from|join)\s+(?:"([^"]+)"|`([^`]+)`|([A-Za-z_][\w]*))/gi)].map((match) =>
    (match[1] ?? match[2] ?? match[3]).toLowerCase()
  );
}

/** The one table an INSERT or UPDATE writes, or null for any other write (which may touch every table). */
function tableWritten(sql: string): string | null {
  // A REPLACE deletes the rows in its way, and a delete may cascade: it counts for every table.
  const match =
    /^\s*insert\s+(?:or\s+(?:abort|fail|ignore|rollback)\s+)?into\s+(?:"([^"]+)"|`([^`]+)`|([A-Za-z_]\w*))/i
      .exec(sql) ??
      /^\s*update\s+(?:or\s+(?:abort|fail|ignore|rollback)\s+)?(?:"([^"]+)"|`([^`]+)`|([A-Za-z_]\w*))/i.exec(
        sql,
      );
  return match ? (match[1] ?? match[2] ?? match[3]).toLowerCase() : null;
}

const sqlOf = (statement: InStatement) => typeof statement === "string" ? statement : statement.sql;
const argsOf = (statement: InStatement): InArgs | undefined =>
  typeof statement === "string" ? undefined : statement.args;

/** The key of a statement whose arguments are all plain values; null when one is not (bytes, a bigint). */
function keyOf(statement: InStatement): string | null {
  const args = argsOf(statement);
  const values = args === undefined ? [] : Array.isArray(args) ? args : Object.entries(args).flat();
  for (const value of values) {
    if (
      value !== null && typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean"
    ) {
      return null;
    }
  }
  return `${sqlOf(statement)}\u0000${args === undefined ? "" : JSON.stringify(args)}`;
}

interface Entry {
  result: ResultSet;
  /** The tables' write counts (and the count of writes to every table) when the read began. */
  tables: string[];
  counts: number[];
  all: number;
}

/** The write counts the cache compares: per table, and for writes that may touch any table. */
export class WriteCounts {
  all = 0;
  private readonly tables = new Map<string, number>();

  of(table: string): number {
    return this.tables.get(table) ?? 0;
  }

  /** A write ran: the table it names changed, or every table when it names none. */
  wrote(sql: string): void {
    if (!mayWrite(sql)) return;
    const table = tableWritten(sql);
    if (table === null) this.all++;
    else this.tables.set(table, this.of(table) + 1);
  }
}

/**
 * The client, with SELECTs over CACHED_TABLES only answered from memory until a write touches one of their
 * tables. For a database this process alone writes (a local file); not for one shared by replicas.
 */
export function cacheReads(client: Client): Client & { readCacheHits(): number } {
  const counts = new WriteCounts();
  const entries = new Map<string, Entry>();
  let hits = 0;

  const fresh = (entry: Entry) =>
    entry.all === counts.all &&
    entry.tables.every((table, index) => counts.of(table) === entry.counts[index]);

  async function read(
    run: () => Promise<ResultSet>,
    statement: InStatement,
  ): Promise<ResultSet> {
    const sql = sqlOf(statement);
    if (!/^\s*select\b/i.test(sql)) return await run();
    const tables = tablesRead(sql);
    if (tables.length === 0 || !tables.every((table) => CACHED_TABLES.has(table))) return await run();
    const key = keyOf(statement);
    if (key === null) return await run();
    const kept = entries.get(key);
    if (kept && fresh(kept)) {
      hits++;
      entries.delete(key);
      entries.set(key, kept);
      return kept.result;
    }
    // The counts before the read: a write that lands while it runs makes the answer stale at once.
    const entry = { tables, counts: tables.map((table) => counts.of(table)), all: counts.all };
    const result = await run();
    if (result.rows.length <= MAX_ROWS) {
      entries.delete(key);
      entries.set(key, { ...entry, result });
      if (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value!);
    }
    return result;
  }

  /** A transaction's writes are counted when it commits (or ends otherwise: counting more is harmless). */
  function counted(transaction: Transaction): Transaction {
    const written: string[] = [];
    const settle = () => {
      for (const sql of written.splice(0)) counts.wrote(sql);
    };
    return new Proxy(transaction, {
      get(target, property) {
        const value = Reflect.get(target, property, target);
        if (typeof value !== "function") return value;
        switch (property) {
          case "execute":
            return async (statement: InStatement) => {
              written.push(sqlOf(statement));
              return await target.execute(statement);
            };
          case "batch":
            return async (statements: InStatement[]) => {
              written.push(...statements.map(sqlOf));
              return await target.batch(statements);
            };
          case "executeMultiple":
            return async (sql: string) => {
              written.push("drop"); // a script: every table
              return await target.executeMultiple(sql);
            };
          case "commit":
          case "rollback":
            return async () => {
              try {
                return await (value as () => Promise<void>).call(target);
              } finally {
                settle();
              }
            };
          case "close":
            return () => {
              try {
                (value as () => void).call(target);
              } finally {
                settle();
              }
            };
          default:
            return value.bind(target);
        }
      },
    });
  }

  return new Proxy(client, {
    get(target, property) {
      if (property === "readCacheHits") return () => hits;
      const value = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      switch (property) {
        case "execute":
          return async (statement: InStatement, ...rest: unknown[]) => {
            const run = () =>
              (value as (...args: unknown[]) => Promise<ResultSet>).call(target, statement, ...rest);
            if (!mayWrite(statement)) return await read(run, statement);
            try {
              return await run();
            } finally {
              counts.wrote(sqlOf(statement));
            }
          };
        case "batch":
          return async (statements: InStatement[], ...rest: unknown[]) => {
            try {
              return await (value as (...args: unknown[]) => Promise<ResultSet[]>).call(
                target,
                statements,
                ...rest,
              );
            } finally {
              for (const statement of statements) counts.wrote(sqlOf(statement));
            }
          };
        case "migrate":
        case "executeMultiple":
          return async (...args: unknown[]) => {
            try {
              return await (value as (...args: unknown[]) => Promise<unknown>).apply(target, args);
            } finally {
              counts.all++;
            }
          };
        case "transaction":
          return async (...args: unknown[]) =>
            counted(await (value as (...args: unknown[]) => Promise<Transaction>).apply(target, args));
        default:
          return value.bind(target);
      }
    },
  }) as Client & { readCacheHits(): number };
}
