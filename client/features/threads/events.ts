import type { ThreadCreatedDetail, ThreadRenamedDetail } from "./schemas.ts";

// The details' schemas are in schemas.ts, loaded lazily (client/lib/schemas.ts).
export type { ThreadCreatedDetail, ThreadRenamedDetail } from "./schemas.ts";

/**
 * Window events through which other islands tell the sidebar's thread list about threads: the chat
 * dispatches THREAD_RENAMED when the server's rename_thread frame arrives, and THREAD_CREATED after a fork.
 */
export const THREAD_RENAMED = "lectern:thread-renamed";
export const THREAD_CREATED = "lectern:thread-created";

export function announceThreadRenamed(detail: ThreadRenamedDetail) {
  globalThis.dispatchEvent(new CustomEvent(THREAD_RENAMED, { detail }));
}

export function announceThreadCreated(detail: ThreadCreatedDetail) {
  globalThis.dispatchEvent(new CustomEvent(THREAD_CREATED, { detail }));
}
