/** The name of a new thread until its first message names it (docs/api-compat.md#threads). */
export const DEFAULT_THREAD_NAME = "Thread";
/** The name of a forked thread whose last answer has no text. */
export const FORKED_THREAD_NAME = "Forked Thread";
/** How many characters of a message a thread's automatic name keeps before its ellipsis. */
export const THREAD_NAME_CHARS = 22;

/**
 * The name a thread takes from a message (its first prompt, or the last answer of a fork): the text with its
 * white space folded, cut to THREAD_NAME_CHARS characters and an ellipsis; `fallback` when there is no text.
 * The server names threads with it, and the client shows a forked thread under the same name before it loads.
 */
export function threadNameFrom(text: string, fallback: string = DEFAULT_THREAD_NAME): string {
  const clean = text.replace(/\s+/g, " ").trim();
  if (!clean) return fallback;
  return clean.length > THREAD_NAME_CHARS ? `${clean.slice(0, THREAD_NAME_CHARS)}…` : clean;
}
