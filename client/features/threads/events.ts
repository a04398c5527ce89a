import { z } from "zod";
import { Thread } from "./api.ts";

/**
 * Window events through which other islands tell the sidebar's thread list about threads: the chat
 * dispatches THREAD_RENAMED when the server's rename_thread frame arrives, and THREAD_CREATED after a fork.
 */
export const THREAD_RENAMED = "lectern:thread-renamed";
export const THREAD_CREATED = "lectern:thread-created";

export const ThreadRenamedDetail = z.object({ slug: z.string(), name: z.string() });
export type ThreadRenamedDetail = z.infer<typeof ThreadRenamedDetail>;

/** The created thread needs a slug; a missing name reads as the server's default name. */
export const ThreadCreatedDetail = z.object({
  thread: Thread.partial().extend({ slug: z.string(), name: z.string().default("Thread") }),
});
export type ThreadCreatedDetail = z.input<typeof ThreadCreatedDetail>;

export function announceThreadRenamed(detail: ThreadRenamedDetail) {
  globalThis.dispatchEvent(new CustomEvent(THREAD_RENAMED, { detail }));
}

export function announceThreadCreated(detail: ThreadCreatedDetail) {
  globalThis.dispatchEvent(new CustomEvent(THREAD_CREATED, { detail }));
}
