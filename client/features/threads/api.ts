import { api, ApiError } from "../../lib/api.ts";
import { lazySchema } from "../../lib/lazy_schema.ts";
import type { Thread } from "./schemas.ts";

export type { Thread } from "./schemas.ts";

const ThreadListAnswer = lazySchema((s) => s.threads.ThreadListAnswer);
const ThreadAnswer = lazySchema((s) => s.threads.ThreadAnswer);
const DeleteAnswer = lazySchema((s) => s.threads.DeleteAnswer);

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
