import * as z from "zod";
import { jsonObject } from "./body.ts";

/** Rows per page of the event logs screen (the reference's default `limit`). */
export const EVENT_LOGS_PAGE_SIZE = 10;
/** The most rows one page may ask for. */
export const MAX_EVENT_LOGS_PAGE_SIZE = 100;

/**
 * `POST /api/system/event-logs`: `offset` is a page number, as the reference reads it (rows skipped: offset ×
 * limit); `limit` rows per page. A field that is missing or not a number takes its default.
 */
const wholeNumber = (message: string, min: number, max = Number.MAX_SAFE_INTEGER) =>
  z.number({ error: message }).int({ error: message }).min(min, { error: message }).max(max, {
    error: message,
  });

export const EventLogsInput = jsonObject({
  offset: wholeNumber("offset must be a whole number, 0 or more.", 0).default(0),
  limit: wholeNumber(
    `limit must be a whole number from 1 to ${MAX_EVENT_LOGS_PAGE_SIZE}.`,
    1,
    MAX_EVENT_LOGS_PAGE_SIZE,
  )
    .default(EVENT_LOGS_PAGE_SIZE),
});

/** One event as the list answers it: the reference's row (metadata as JSON text) with the user's name. */
export const EventLog = z.object({
  id: z.number(),
  event: z.string(),
  /** A JSON object, as text (the reference's column). */
  metadata: z.string().nullable(),
  userId: z.number().nullable(),
  occurredAt: z.string(),
  /** null when the event has no user, or their account is gone. */
  user: z.object({ username: z.string().nullable() }),
});
export type EventLog = z.infer<typeof EventLog>;

export const EventLogsPage = z.object({
  logs: z.array(EventLog),
  hasPages: z.boolean(),
  totalLogs: z.number(),
});
export type EventLogsPage = z.infer<typeof EventLogsPage>;

/** `GET /api/system/event-logs/export?type=`: the file formats. */
export const EVENT_LOG_EXPORT_TYPES = ["csv", "json"] as const;
export type EventLogExportType = (typeof EVENT_LOG_EXPORT_TYPES)[number];

/** The columns of the CSV export, in order. */
export const EVENT_LOG_CSV_COLUMNS = ["id", "event", "username", "userId", "occurredAt", "metadata"] as const;
