import { API_BASE } from "../../lib/api.ts";
import { BROWSER_EXTENSION_EVENT, connectionString } from "../../../shared/api/browser_extension.ts";

/** The API base the extension calls: this page's origin and `/api` (the reference's `fullApiUrl()`). */
export function apiBaseOf(origin: string): string {
  return `${origin}${API_BASE}`;
}

/** The connection string of a new key for this page's instance. */
export function connectionFor(origin: string, key: string): string {
  return connectionString(apiBaseOf(origin), key);
}

/** The window message the extension's content script listens for (the reference's page posts the same). */
export function connectionMessage(connection: string) {
  return { type: BROWSER_EXTENSION_EVENT, apiKey: connection };
}

/** Whether a window message is a connection event posted in this page (by the screen or the extension). */
export function isConnectionEvent(data: unknown): boolean {
  return typeof data === "object" && data !== null &&
    (data as { type?: unknown }).type === BROWSER_EXTENSION_EVENT;
}
