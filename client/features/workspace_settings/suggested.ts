import { MAX_SUGGESTED_MESSAGES, type SuggestedMessage } from "./api.ts";

/** The messages as they are saved: heading and message trimmed. */
export function trimmedMessages(rows: readonly SuggestedMessage[]): SuggestedMessage[] {
  return rows.map(({ heading, message }) => ({ heading: heading.trim(), message: message.trim() }));
}

/** The 1-based number of the first message without text (the server needs one), or null. */
export function firstBlankMessage(messages: readonly SuggestedMessage[]): number | null {
  const blank = messages.findIndex((entry) => entry.message === "");
  return blank >= 0 ? blank + 1 : null;
}

/** Whether the list differs from what was saved (`saved` is its JSON). */
export function messagesChanged(messages: readonly SuggestedMessage[], saved: string): boolean {
  return JSON.stringify(messages) !== saved;
}

/** Whether the list holds as many messages as the server keeps. */
export function messagesFull(count: number): boolean {
  return count >= MAX_SUGGESTED_MESSAGES;
}
