import * as z from "zod";

// The thread calls' answer shapes and the thread events' details; loaded lazily (client/lib/schemas.ts).

/** A thread as the thread calls return it; other fields pass through. */
export const Thread = z.object({
  id: z.number(),
  name: z.string(),
  slug: z.string(),
}).loose();
export type Thread = z.infer<typeof Thread>;

export const ThreadListAnswer = z.object({
  threads: z.array(Thread),
  defaultThreadChatCount: z.number().optional(),
});
export const ThreadAnswer = z.object({
  thread: Thread.nullable(),
  message: z.string().nullable().optional(),
});
export const DeleteAnswer = z.object({ success: z.boolean(), deleted: z.number().optional() }).loose();

export const ThreadRenamedDetail = z.object({ slug: z.string(), name: z.string() });
export type ThreadRenamedDetail = z.infer<typeof ThreadRenamedDetail>;

/** The created thread needs a slug; a missing name reads as the server's default name. */
export const ThreadCreatedDetail = z.object({
  thread: Thread.partial().extend({ slug: z.string(), name: z.string().default("Thread") }),
});
export type ThreadCreatedDetail = z.input<typeof ThreadCreatedDetail>;
