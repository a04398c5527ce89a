// The SQL skill (sql-agent): read-only queries on the SQLite/libSQL database files an admin configured.
import { resolve } from "node:path";
import { sqlConnections } from "../settings.ts";
import type { AgentTool } from "../loop.ts";
import { type SkillContext, textArg } from "./context.ts";
import type { SqlAnswer, SqlJob } from "./sql_db.ts";
import { sqlitePath, sqliteProblem } from "./sql_db.ts";
import { fromRoot } from "../../app_root.ts";

export { sqliteProblem };

/** The most rows a query gives the model. */
export const SQL_MAX_ROWS = 200;
/** How long a query may run before its worker is ended. */
export const SQL_TIMEOUT_MS = 15_000;

/** The worker's first message (sql_worker.ts): it is loaded and takes the query. */
const READY = "ready";

/**
 * Runs the query in a worker, ended at the time limit (a query SQLite is stuck in cannot be stopped otherwise).
 * The clock starts when the worker says it is ready: its start (slow on a busy machine) is not the query's time.
 * `startWorker` is for tests (a worker slow to start).
 */
export function runSqlQuery(
  job: SqlJob,
  signal: AbortSignal,
  timeoutMs = SQL_TIMEOUT_MS,
  startWorker: () => Worker = () =>
    new Worker(fromRoot("server/agents/skills/sql_worker.ts"), { type: "module" }),
): Promise<SqlAnswer> {
  return new Promise((resolveAnswer, reject) => {
    if (signal.aborted) {
      reject(signal.reason ?? new Error("The query was stopped."));
      return;
    }
    const worker = startWorker();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const finish = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", aborted);
      worker.terminate();
    };
    const aborted = () => {
      finish();
      reject(signal.reason ?? new Error("The query was stopped."));
    };
    signal.addEventListener("abort", aborted, { once: true });
    worker.onmessage = (event: MessageEvent<SqlAnswer | typeof READY>) => {
      if (event.data === READY) {
        timer = setTimeout(() => {
          finish();
          const seconds = Math.max(1, Math.round(timeoutMs / 1000));
          reject(
            new Error(
              `The query ran longer than ${seconds} second${seconds === 1 ? "" : "s"} and was stopped.`,
            ),
          );
        }, timeoutMs);
        worker.postMessage(job);
        return;
      }
      finish();
      resolveAnswer(event.data);
    };
    worker.onerror = (event) => {
      event.preventDefault();
      finish();
      reject(new Error(`The query could not be run: ${event.message}.`));
    };
  });
}

export async function sqlTool(context: SkillContext): Promise<AgentTool> {
  const connections = await sqlConnections(context.deps);
  const names = connections.map((connection) => connection.database_id);
  return {
    name: "sql-query",
    description: [
      "Runs one read-only SQL query (SQLite dialect) on a configured database and returns at most",
      `${SQL_MAX_ROWS} rows as JSON. The databases: ${names.join(", ")}.`,
      "List the tables with: SELECT name, sql FROM sqlite_schema WHERE type = 'table'.",
    ].join(" "),
    parameters: {
      type: "object",
      properties: {
        database_id: { type: "string", enum: names, description: "The database to query." },
        sql: { type: "string", description: "One SELECT statement." },
      },
      required: ["database_id", "sql"],
    },
    describe: (args) => `Querying the database ${String(args.database_id ?? "")}.`,
    async run(args, signal) {
      const id = textArg(args, "database_id");
      const sql = textArg(args, "sql");
      const connection = connections.find((entry) => entry.database_id === id);
      if (!connection?.connectionString) throw new Error(`There is no database called ${id}.`);
      const problem = sqliteProblem(context.deps, connection.connectionString);
      if (problem) throw new Error(problem);
      const answer = await runSqlQuery(
        { path: resolve(sqlitePath(connection.connectionString)), sql, maxRows: SQL_MAX_ROWS },
        signal,
      );
      if (!answer.ok) {
        throw new Error(
          `The query failed: ${/[.!?]$/.test(answer.error) ? answer.error : `${answer.error}.`}`,
        );
      }
      return JSON.stringify({
        columns: answer.columns,
        rows: answer.rows,
        ...(answer.truncated ? { note: `Only the first ${SQL_MAX_ROWS} rows are shown.` } : {}),
      });
    },
  };
}
