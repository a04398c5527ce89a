/**
 * A loopback stand-in for a libSQL server (sqld / Turso): it answers the Hrana-over-HTTP protocol's JSON pipeline
 * (`POST /v2/pipeline` and `/v3/pipeline`, with batons so a stream keeps its connection and its transaction
 * across requests) from a local libSQL file. `@libsql/client` speaks to it with an `http://` URL exactly as it
 * speaks to sqld: it probes `GET /v3-protobuf` (absent here), then uses the v2 JSON pipeline.
 *
 * Not served: the protobuf encoding, `/v3/cursor` and the replication endpoints an embedded replica syncs from.
 * The SQL runs synchronously in this process, so a statement that finds the database locked by another stream's
 * transaction is not left to block: the request waits (asynchronously, letting the other stream commit) and
 * runs again.
 */
import Sqlite from "libsql";
import { Buffer } from "node:buffer";

type Connection = InstanceType<typeof Sqlite>;

type HranaValue =
  | { type: "null" }
  | { type: "integer"; value: string }
  | { type: "float"; value: number }
  | { type: "text"; value: string }
  | { type: "blob"; base64: string };

interface Stmt {
  sql?: string;
  sql_id?: number;
  args?: HranaValue[];
  named_args?: { name: string; value: HranaValue }[];
  want_rows?: boolean;
}

type BatchCond =
  | { type: "ok"; step: number }
  | { type: "error"; step: number }
  | { type: "not"; cond: BatchCond }
  | { type: "and"; conds: BatchCond[] }
  | { type: "or"; conds: BatchCond[] }
  | { type: "is_autocommit" };

interface Batch {
  steps: { condition?: BatchCond | null; stmt: Stmt }[];
}

type StreamRequest =
  | { type: "close" }
  | { type: "execute"; stmt: Stmt }
  | { type: "batch"; batch: Batch }
  | { type: "sequence"; sql?: string; sql_id?: number }
  | { type: "describe"; sql?: string; sql_id?: number }
  | { type: "store_sql"; sql_id: number; sql: string }
  | { type: "close_sql"; sql_id: number }
  | { type: "get_autocommit" };

interface StmtResult {
  cols: { name: string; decltype: string | null }[];
  rows: HranaValue[][];
  affected_row_count: number;
  last_insert_rowid: string | null;
  rows_read: number;
  rows_written: number;
  query_duration_ms: number;
}

class HranaError extends Error {
  constructor(message: string, readonly code: string) {
    super(message);
  }
}

interface Stream {
  connection: Connection;
  sqls: Map<number, string>;
  lastUsed: number;
}

export interface FakeLibsqlServer {
  /** The `http://127.0.0.1:PORT` URL to give as DATABASE_URL. */
  url: string;
  /** The file the SQL runs on. */
  path: string;
  /** Pipeline requests answered so far, by path (`/v2/pipeline`, …). */
  requests: Map<string, number>;
  /** Open streams (each holds a connection; a transaction spans requests of one stream). */
  streamCount(): number;
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** How long a stream the client forgot stays open (sqld's is 10 s). */
const STREAM_IDLE_MS = 10_000;
/** How long a request waits for another stream's write lock before it answers SQLITE_BUSY. */
const BUSY_WAIT_MS = 15_000;

function toSql(value: HranaValue): unknown {
  switch (value.type) {
    case "null":
      return null;
    case "integer":
      return BigInt(value.value);
    case "float":
      return Number(value.value);
    case "text":
      return value.value;
    case "blob":
      return Buffer.from(value.base64, "base64");
  }
}

function fromSql(value: unknown): HranaValue {
  if (value === null || value === undefined) return { type: "null" };
  if (typeof value === "bigint") return { type: "integer", value: value.toString() };
  if (typeof value === "number") return { type: "float", value };
  if (typeof value === "string") return { type: "text", value };
  if (value instanceof Uint8Array) return { type: "blob", base64: Buffer.from(value).toString("base64") };
  if (value instanceof ArrayBuffer) {
    return { type: "blob", base64: Buffer.from(new Uint8Array(value)).toString("base64") };
  }
  return { type: "text", value: String(value) };
}

function errorOf(error: unknown): HranaError {
  if (error instanceof HranaError) return error;
  const code = (error as { code?: unknown })?.code;
  const message = error instanceof Error ? error.message : String(error);
  return new HranaError(message, typeof code === "string" ? code : "SQLITE_ERROR");
}

const isBusy = (error: HranaError) =>
  /^SQLITE_(BUSY|LOCKED)/.test(error.code) || /database is locked/.test(error.message);

/** Starts the fake on 127.0.0.1 (a free port) over the libSQL file at `path` (created when missing). */
export function startFakeLibsql(path: string, options: { authToken?: string } = {}): FakeLibsqlServer {
  const setup = new Sqlite(path);
  setup.exec("PRAGMA journal_mode = WAL");
  setup.close();

  const streams = new Map<string, Stream>();
  const idle: Connection[] = [];
  const requests = new Map<string, number>();

  const open = (): Connection => {
    const reused = idle.pop();
    if (reused) return reused;
    const connection = new Sqlite(path);
    connection.exec("PRAGMA busy_timeout = 0");
    connection.exec("PRAGMA foreign_keys = ON");
    return connection;
  };

  const release = (stream: Stream) => {
    if (stream.connection.inTransaction) {
      try {
        stream.connection.exec("ROLLBACK");
      } catch {
        // nothing to roll back
      }
    }
    if (idle.length < 8) idle.push(stream.connection);
    else stream.connection.close();
  };

  const sweep = setInterval(() => {
    const cutoff = Date.now() - STREAM_IDLE_MS;
    for (const [baton, stream] of streams) {
      if (stream.lastUsed < cutoff) {
        streams.delete(baton);
        release(stream);
      }
    }
  }, 1000);

  const sqlOf = (stream: Stream, sql: string | undefined, sqlId: number | undefined): string => {
    if (sql !== undefined && sql !== null) return sql;
    if (sqlId !== undefined && sqlId !== null) {
      const stored = stream.sqls.get(sqlId);
      if (stored === undefined) throw new HranaError(`SQL text ${sqlId} is not stored.`, "SQL_NOT_FOUND");
      return stored;
    }
    throw new HranaError("The statement has neither sql nor sql_id.", "SQL_NO_STATEMENT");
  };

  const execute = (stream: Stream, stmt: Stmt): StmtResult => {
    const started = performance.now();
    const sql = sqlOf(stream, stmt.sql, stmt.sql_id);
    const connection = stream.connection;
    try {
      const prepared = connection.prepare(sql);
      prepared.safeIntegers(true);
      let returnsRows = true;
      try {
        prepared.raw(true);
      } catch {
        returnsRows = false;
      }
      let bind: unknown[] | Record<string, unknown> = (stmt.args ?? []).map(toSql);
      if (stmt.named_args?.length) {
        const named: Record<string, unknown> = {};
        for (const { name, value } of stmt.named_args) named[name.replace(/^[:@$]/, "")] = toSql(value);
        bind = named;
      }
      const totalChanges = () =>
        Number((connection.prepare("SELECT total_changes()").raw(true).get() as [number])[0]);
      const before = totalChanges();
      if (returnsRows) {
        const columns = prepared.columns() as { name: string; type: string | null }[];
        const rows = (prepared.all(bind) as unknown[][]).map((row) => row.map(fromSql));
        const after = totalChanges();
        const [rowid] = connection.prepare("SELECT last_insert_rowid()").raw(true).safeIntegers(true)
          .get() as [bigint];
        return {
          cols: columns.map((column) => ({ name: column.name, decltype: column.type ?? null })),
          rows: stmt.want_rows === false ? [] : rows,
          affected_row_count: after - before,
          last_insert_rowid: after > before ? String(rowid) : null,
          rows_read: rows.length,
          rows_written: after - before,
          query_duration_ms: performance.now() - started,
        };
      }
      const info = prepared.run(bind) as { changes: number; lastInsertRowid: number | bigint };
      return {
        cols: [],
        rows: [],
        affected_row_count: Number(info.changes),
        last_insert_rowid: String(info.lastInsertRowid),
        rows_read: 0,
        rows_written: Number(info.changes),
        query_duration_ms: performance.now() - started,
      };
    } catch (error) {
      throw errorOf(error);
    }
  };

  const holds = (
    cond: BatchCond,
    results: (StmtResult | null)[],
    errors: (unknown | null)[],
    stream: Stream,
  ) => {
    const check = (c: BatchCond): boolean => {
      switch (c.type) {
        case "ok":
          return results[c.step] !== null && results[c.step] !== undefined;
        case "error":
          return errors[c.step] !== null && errors[c.step] !== undefined;
        case "not":
          return !check(c.cond);
        case "and":
          return c.conds.every(check);
        case "or":
          return c.conds.some(check);
        case "is_autocommit":
          return !stream.connection.inTransaction;
      }
    };
    return check(cond);
  };

  const runBatch = (stream: Stream, batch: Batch) => {
    const results: (StmtResult | null)[] = [];
    const errors: ({ message: string; code: string } | null)[] = [];
    for (const step of batch.steps) {
      if (step.condition && !holds(step.condition, results, errors, stream)) {
        results.push(null);
        errors.push(null);
        continue;
      }
      try {
        results.push(execute(stream, step.stmt));
        errors.push(null);
      } catch (error) {
        const failure = errorOf(error);
        if (isBusy(failure)) throw failure;
        results.push(null);
        errors.push({ message: failure.message, code: failure.code });
      }
    }
    return { step_results: results, step_errors: errors };
  };

  const handle = (stream: Stream, request: StreamRequest): Record<string, unknown> => {
    switch (request.type) {
      case "close":
        return { type: "close" };
      case "execute":
        return { type: "execute", result: execute(stream, request.stmt) };
      case "batch":
        return { type: "batch", result: runBatch(stream, request.batch) };
      case "sequence":
        try {
          stream.connection.exec(sqlOf(stream, request.sql, request.sql_id));
        } catch (error) {
          throw errorOf(error);
        }
        return { type: "sequence" };
      case "describe": {
        const sql = sqlOf(stream, request.sql, request.sql_id);
        try {
          const prepared = stream.connection.prepare(sql);
          let columns: { name: string; type: string | null }[] = [];
          try {
            prepared.raw(true);
            columns = prepared.columns() as typeof columns;
          } catch {
            // no rows
          }
          return {
            type: "describe",
            result: {
              params: [],
              cols: columns.map((column) => ({ name: column.name, decltype: column.type ?? null })),
              is_explain: /^\s*explain\b/i.test(sql),
              is_readonly: /^\s*(select|explain|with)\b/i.test(sql),
            },
          };
        } catch (error) {
          throw errorOf(error);
        }
      }
      case "store_sql":
        stream.sqls.set(request.sql_id, request.sql);
        return { type: "store_sql" };
      case "close_sql":
        stream.sqls.delete(request.sql_id);
        return { type: "close_sql" };
      case "get_autocommit":
        return { type: "get_autocommit", is_autocommit: !stream.connection.inTransaction };
      default:
        throw new HranaError(`Unknown request type.`, "PROTOCOL");
    }
  };

  /** One request, waited for and run again while another stream holds the write lock. */
  const handleWaiting = async (stream: Stream, request: StreamRequest) => {
    const deadline = Date.now() + BUSY_WAIT_MS;
    while (true) {
      const autocommit = !stream.connection.inTransaction;
      try {
        return handle(stream, request);
      } catch (error) {
        const failure = errorOf(error);
        if (!isBusy(failure) || Date.now() > deadline) throw failure;
        // A request begun outside a transaction is undone whole (a batch carries its own BEGIN) and run again.
        if (autocommit && stream.connection.inTransaction) stream.connection.exec("ROLLBACK");
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    }
  };

  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (request) => {
    const { pathname } = new URL(request.url);
    if (options.authToken && request.headers.get("authorization") !== `Bearer ${options.authToken}`) {
      return Response.json({ error: "Unauthorized" }, { status: 401 });
    }
    if (request.method === "GET" && (pathname === "/v2" || pathname === "/v3" || pathname === "/health")) {
      return new Response("");
    }
    if (request.method !== "POST" || (pathname !== "/v2/pipeline" && pathname !== "/v3/pipeline")) {
      return new Response("Not Found", { status: 404 });
    }
    requests.set(pathname, (requests.get(pathname) ?? 0) + 1);
    let body: { baton?: string | null; requests?: StreamRequest[] };
    try {
      body = await request.json();
    } catch {
      return Response.json({ error: "The body is not JSON." }, { status: 400 });
    }
    let baton = body.baton ?? null;
    let stream: Stream | undefined;
    if (baton !== null) {
      stream = streams.get(baton);
      if (!stream) {
        return Response.json({ message: "Invalid baton.", code: "STREAM_EXPIRED" }, { status: 400 });
      }
      streams.delete(baton);
    } else {
      stream = { connection: open(), sqls: new Map(), lastUsed: Date.now() };
    }
    const results = [];
    let closed = false;
    for (const entry of body.requests ?? []) {
      if (closed) {
        results.push({ type: "error", error: { message: "The stream is closed.", code: "STREAM_CLOSED" } });
        continue;
      }
      try {
        results.push({ type: "ok", response: await handleWaiting(stream, entry) });
      } catch (error) {
        const failure = errorOf(error);
        results.push({ type: "error", error: { message: failure.message, code: failure.code } });
      }
      if (entry.type === "close") closed = true;
    }
    if (closed) {
      release(stream);
      baton = null;
    } else {
      baton = crypto.randomUUID();
      stream.lastUsed = Date.now();
      streams.set(baton, stream);
    }
    return Response.json({ baton, base_url: null, results });
  });

  const url = `http://127.0.0.1:${server.addr.port}`;
  const close = async () => {
    clearInterval(sweep);
    await server.shutdown();
    for (const stream of streams.values()) release(stream);
    streams.clear();
    for (const connection of idle.splice(0)) connection.close();
  };
  return {
    url,
    path,
    requests,
    streamCount: () => streams.size,
    close,
    [Symbol.asyncDispose]: close,
  };
}
