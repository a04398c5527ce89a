// One writer at a time on a local database file, decided in JavaScript rather than by SQLite's busy wait.
//
// A local libSQL client runs every statement synchronously on the server's one thread. A write transaction
// holds SQLite's write lock from BEGIN to COMMIT while its callback awaits between statements; a write made
// meanwhile on another connection (the client's own, or another transaction's) then waits in SQLite's busy
// handler, which sleeps that same thread: the transaction holding the lock cannot go on, and after the busy
// timeout the write fails with SQLITE_BUSY. Two uploads at once hit this (issue 21's corpus ingest lost 120
// documents to it). Here a write transaction takes an async lock for its whole life, and a write outside any
// transaction waits, without blocking the thread, until no transaction holds it. Reads never wait: with WAL
// they do not take the write lock.
import type { Client, InStatement, Transaction, TransactionMode } from "@libsql/client";

/** How long a write waits for the lock before going on anyway (SQLite's own busy timeout then applies). */
export const WRITE_WAIT_MS = 5000;

const WRITE =
  /^\s*(insert|update|delete|replace|create|drop|alter|pragma|vacuum|reindex|analyze|begin|with)\b/i;

/** How long a write or a transaction's start retries SQLite's "database is locked", waiting between tries. */
export const BUSY_RETRY_MS = 10_000;

function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "SQLITE_BUSY" ||
    (error instanceof Error && /SQLITE_BUSY|database is locked/.test(error.message));
}

/**
 * Runs `attempt` again while SQLite answers "database is locked", pausing without blocking the thread, so
 * whatever holds the lock can finish: SQLite's own busy wait sleeps the thread, which cannot help a holder that
 * runs on it. A write that failed busy wrote nothing, so trying it again is safe.
 */
async function retryBusy<T>(attempt: () => Promise<T>): Promise<T> {
  const started = Date.now();
  for (let pauseMs = 10;; pauseMs = Math.min(pauseMs * 2, 250)) {
    try {
      return await attempt();
    } catch (error) {
      if (!isBusy(error) || Date.now() - started > BUSY_RETRY_MS) throw error;
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  }
}

/** Whether a statement may write (a statement that only reads never waits). */
export function mayWrite(statement: InStatement): boolean {
  const sql = typeof statement === "string" ? statement : statement.sql;
  // `PRAGMA x` reads, `PRAGMA x = y` writes; a `WITH` may end in a write: both are counted as writes.
  return WRITE.test(sql);
}

/** The client, with write transactions taking turns and other writes waiting for the one in progress. */
export function serialiseWrites(client: Client, waitMs = WRITE_WAIT_MS): Client {
  let held: Promise<void> | null = null;

  /**
   * Waits once for the open write transaction to end, or until `deadline`; false once the deadline passed.
   * Callers loop `while (held && await waitOnce(deadline))` and act right after the loop: the last check of
   * `held` and what follows it run without a pause, so no other caller can take the turn in between.
   */
  async function waitOnce(deadline: number): Promise<boolean> {
    const left = deadline - Date.now();
    if (left <= 0 || !held) return false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([held, new Promise<void>((resolve) => (timer = setTimeout(resolve, left)))]);
    clearTimeout(timer);
    return true;
  }

  /** Takes the turn (after the holder's, or after `waitMs` at the most) and returns its release. */
  async function lock(): Promise<() => void> {
    const deadline = Date.now() + waitMs;
    while (held && await waitOnce(deadline));
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    held = mine;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (held === mine) held = null;
      release();
    };
  }

  function guarded(transaction: Transaction, unlock: () => void): Transaction {
    return new Proxy(transaction, {
      get(target, property) {
        const value = Reflect.get(target, property, target);
        if (property === "commit" || property === "rollback") {
          return async () => {
            try {
              return await (value as () => Promise<void>).call(target);
            } finally {
              unlock();
            }
          };
        }
        if (property === "close") {
          return () => {
            try {
              (value as () => void).call(target);
            } finally {
              unlock();
            }
          };
        }
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
  }

  return new Proxy(client, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      switch (property) {
        case "execute":
          return async (statement: InStatement, ...rest: unknown[]) => {
            if (!mayWrite(statement)) {
              return await (value as (...args: unknown[]) => unknown).call(target, statement, ...rest);
            }
            return await retryBusy(async () => {
              const deadline = Date.now() + waitMs;
              while (held && await waitOnce(deadline));
              return await (value as (...args: unknown[]) => unknown).call(target, statement, ...rest);
            });
          };
        case "batch":
        case "migrate":
        case "executeMultiple":
          return async (...args: unknown[]) =>
            await retryBusy(async () => {
              const deadline = Date.now() + waitMs;
              while (held && await waitOnce(deadline));
              return await (value as (...args: unknown[]) => unknown).apply(target, args);
            });
        case "transaction":
          return async (mode: TransactionMode = "write") => {
            if (mode === "read") return await target.transaction(mode);
            const unlock = await lock();
            try {
              return guarded(await retryBusy(() => target.transaction(mode)), unlock);
            } catch (error) {
              unlock();
              throw error;
            }
          };
        default:
          return value.bind(target);
      }
    },
  });
}
