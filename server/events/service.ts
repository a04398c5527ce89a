import { asc, count, desc, eq, gt } from "drizzle-orm";
import { eventLogs, users } from "../../db/schema.ts";
import type { Deps } from "../deps.ts";
import {
  EVENT_LOG_CSV_COLUMNS,
  type EventLog,
  type EventLogExportType,
  type EventLogsPage,
} from "../../shared/api/event_logs.ts";

type DbDeps = Pick<Deps, "db">;

const columns = {
  id: eventLogs.id,
  event: eventLogs.event,
  metadata: eventLogs.metadata,
  userId: eventLogs.userId,
  occurredAt: eventLogs.occurredAt,
  username: users.username,
};
type Row = {
  id: number;
  event: string;
  metadata: string | null;
  userId: number | null;
  occurredAt: Date;
  username: string | null;
};

function present(row: Row): EventLog {
  return {
    id: row.id,
    event: row.event,
    metadata: row.metadata,
    userId: row.userId,
    occurredAt: row.occurredAt.toISOString(),
    user: { username: row.username ?? null },
  };
}

/**
 * One page of the event logs, newest first (`POST /api/system/event-logs`): `offset` is a page number, as the
 * reference reads it; `hasPages` says whether a further page exists.
 */
export async function eventLogsPage(
  deps: DbDeps,
  page: { offset: number; limit: number },
): Promise<EventLogsPage> {
  const rows = await deps.db.select(columns).from(eventLogs).leftJoin(users, eq(users.id, eventLogs.userId))
    .orderBy(desc(eventLogs.id)).limit(page.limit).offset(page.offset * page.limit);
  const [{ total }] = await deps.db.select({ total: count() }).from(eventLogs);
  return { logs: rows.map(present), hasPages: total > (page.offset + 1) * page.limit, totalLogs: total };
}

/** Deletes every event log row; returns how many there were. */
export async function clearEventLogs(deps: DbDeps): Promise<number> {
  const removed = await deps.db.delete(eventLogs).returning({ id: eventLogs.id });
  return removed.length;
}

/** Rows read per database query while an export streams. */
export const EXPORT_BATCH = 500;

/** The rows of the log oldest first, read in batches by id so that no more than one batch is held at a time. */
async function* allRows(deps: DbDeps, batch = EXPORT_BATCH): AsyncGenerator<Row> {
  let after = 0;
  while (true) {
    const rows = await deps.db.select(columns).from(eventLogs).leftJoin(users, eq(users.id, eventLogs.userId))
      .where(gt(eventLogs.id, after)).orderBy(asc(eventLogs.id)).limit(batch);
    yield* rows;
    if (rows.length < batch) return;
    after = rows[rows.length - 1].id;
  }
}

/**
 * A CSV field: quoted when it holds a separator, a quote or a line break; a text that a spreadsheet would run as
 * a formula (`=`, `+`, `-`, `@`, tab, CR first) is prefixed with `'`.
 */
export function csvField(value: string | number | null): string {
  if (value === null) return "";
  let text = String(value);
  if (typeof value === "string" && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function parsedMetadata(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The export's lines: CSV with a header row (only the header for an empty log), or a JSON list (`[]`). */
export async function* exportLines(
  deps: DbDeps,
  type: EventLogExportType,
  batch = EXPORT_BATCH,
): AsyncGenerator<string> {
  if (type === "csv") {
    yield `${EVENT_LOG_CSV_COLUMNS.join(",")}\r\n`;
    for await (const row of allRows(deps, batch)) {
      const cells = [
        row.id,
        row.event,
        row.username,
        row.userId,
        row.occurredAt.toISOString(),
        row.metadata,
      ];
      yield `${cells.map(csvField).join(",")}\r\n`;
    }
    return;
  }
  let first = true;
  for await (const row of allRows(deps, batch)) {
    const entry = {
      id: row.id,
      event: row.event,
      username: row.username,
      userId: row.userId,
      occurredAt: row.occurredAt.toISOString(),
      metadata: parsedMetadata(row.metadata),
    };
    yield `${first ? "[\n" : ",\n"}${JSON.stringify(entry)}`;
    first = false;
  }
  yield first ? "[]" : "\n]";
}

/** The export as a byte stream that reads the next batch only when the client has taken the previous one. */
export function exportStream(deps: DbDeps, type: EventLogExportType): ReadableStream<Uint8Array> {
  const lines = exportLines(deps, type);
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const parts: string[] = [];
      let size = 0;
      while (size < 64 * 1024) {
        const next = await lines.next();
        if (next.done) {
          if (parts.length > 0) controller.enqueue(encoder.encode(parts.join("")));
          controller.close();
          return;
        }
        parts.push(next.value);
        size += next.value.length;
      }
      controller.enqueue(encoder.encode(parts.join("")));
    },
    async cancel() {
      await lines.return(undefined);
    },
  });
}
