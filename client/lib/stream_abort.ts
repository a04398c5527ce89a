import type { ChatFrame } from "../../shared/api/chat.ts";

/** The abort frame the client makes of a failure, with `message` shown. */
export function abortEvent(message: string): Extract<ChatFrame, { type: "abort" }> {
  const id = crypto.randomUUID();
  return { id, uuid: id, type: "abort", textResponse: null, sources: [], close: true, error: message };
}
