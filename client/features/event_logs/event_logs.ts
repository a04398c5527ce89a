import type { EventLogExportType } from "../../../shared/api/event_logs.ts";

/** The calls of the event logs screen. */
export const eventLogPaths = {
  page: "/system/event-logs",
  clear: "/system/event-logs",
  export: (type: EventLogExportType) => `/system/event-logs/export?type=${type}`,
};

/**
 * An event's metadata as an object to show, or null when there is nothing to show (none, `{}`, or text that is
 * not a JSON object, which is shown as it is under the key `value`).
 */
export function metadataOf(text: string | null): Record<string, unknown> | null {
  if (text === null || text.trim() === "") return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { value: text };
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    return parsed === null ? null : { value: parsed };
  }
  return Object.keys(parsed).length > 0 ? parsed as Record<string, unknown> : null;
}

/** How an event's badge looks, as the reference colours them: failures and deletions, updates, logins, the rest. */
export type EventTone = "danger" | "update" | "login" | "info";

export function eventTone(event: string): EventTone {
  if (event.startsWith("failed_") || /deleted|removed|cleared|disabled/.test(event)) return "danger";
  if (event === "login_event" || event === "sso_login") return "login";
  if (event.includes("update")) return "update";
  return "info";
}

/** The file name an export is saved under: `event-logs-<date>.<type>`. */
export function exportFileName(type: EventLogExportType, now = new Date()): string {
  return `event-logs-${now.toISOString().slice(0, 10)}.${type}`;
}

/** The rows shown on a page, as "first–last of total" figures (1-based); null for an empty page. */
export function pageRange(
  offset: number,
  pageSize: number,
  shown: number,
  total: number,
): { first: number; last: number; total: number } | null {
  if (shown === 0) return null;
  const first = offset * pageSize + 1;
  return { first, last: first + shown - 1, total };
}
