import { z } from "zod";
import { api, ApiError } from "../../lib/api.ts";

/** A thread as the thread calls return it; other fields pass through. */
export const Thread = z.object({
  id: z.number(),
  name: z.string(),
  slug: z.string(),
}).loose();
export type Thread = z.infer<typeof Thread>;

const ThreadListAnswer = z.object({
  threads: z.array(Thread),
  defaultThreadChatCount: z.number().optional(),
});
const ThreadAnswer = z.object({ thread: Thread.nullable(), message: z.string().nullable().optional() });
const DeleteAnswer = z.object({ success: z.boolean(), deleted: z.number().optional() }).loose();

const base = (slug: string) => `/workspace/${encodeURIComponent(slug)}`;
const threadBase = (slug: string, threadSlug: string) =>
  `${base(slug)}/thread/${encodeURIComponent(threadSlug)}`;

export async function listThreads(slug: string, signal?: AbortSignal): Promise<Thread[]> {
  const answer = await api(`${base(slug)}/threads`, { schema: ThreadListAnswer, signal });
  return answer.threads;
}

/** A new thread of this workspace; throws with the server's message when there is none. */
export async function createThread(slug: string): Promise<Thread> {
  const answer = await api(`${base(slug)}/thread/new`, { method: "POST", schema: ThreadAnswer });
  if (!answer.thread) throw new ApiError(answer.message ?? "No thread was created.", 400, answer);
  return answer.thread;
}

/** Renames a thread; throws with the server's message (a bad name answers 400 {thread: null, message}). */
export async function renameThread(slug: string, threadSlug: string, name: string): Promise<Thread> {
  const answer = await api(`${threadBase(slug, threadSlug)}/update`, {
    json: { name },
    schema: ThreadAnswer,
  });
  if (!answer.thread) throw new ApiError(answer.message ?? "The thread was not renamed.", 400, answer);
  return answer.thread;
}

export async function deleteThread(slug: string, threadSlug: string): Promise<void> {
  const answer = await api(threadBase(slug, threadSlug), { method: "DELETE", schema: DeleteAnswer });
  if (!answer.success) throw new ApiError("The thread was not deleted.", 400, answer);
}

export async function deleteThreads(slug: string, slugs: string[]): Promise<void> {
  const answer = await api(`${base(slug)}/thread-bulk-delete`, {
    method: "DELETE",
    json: { slugs },
    schema: DeleteAnswer,
  });
  if (!answer.success) throw new ApiError("The threads were not deleted.", 400, answer);
}
