import { toSources, type WidgetFrame, type WidgetSource } from "./frames.ts";

/** One message in the widget's window. */
export interface WidgetMessage {
  /** The widget's own id (stable while the message is shown). */
  id: string;
  role: "user" | "assistant";
  content: string;
  sources: WidgetSource[];
  /** Waiting for the first part of the answer. */
  pending: boolean;
  /** The answer is still arriving. */
  streaming: boolean;
  /** The server's (or the widget's) reason the answer failed. */
  error: string | null;
  /** The server's id of the answer, once a frame named it. */
  uuid: string | null;
}

export interface ChatState {
  messages: WidgetMessage[];
  /** A question is being answered: the composer sends nothing else until it ends. */
  busy: boolean;
  /** The chat was reset: a history asked for before then, arriving late, is the conversation just cleared. */
  cleared?: boolean;
}

export type ChatAction =
  | { type: "history"; entries: unknown[] }
  | { type: "send"; text: string; userId: string; replyId: string }
  | { type: "frame"; frame: WidgetFrame }
  /** The stream ended (or was stopped): whatever is still open is closed as it stands. */
  | { type: "ended" }
  | { type: "reset" };

export const EMPTY_CHAT: ChatState = { messages: [], busy: false };

/**
 * The messages of `GET /api/embed/:embedId/:sessionId` (the reference's convertToChatHistory: a user entry and
 * an assistant entry per chat). Entries that are not messages are skipped.
 */
export function historyMessages(entries: unknown[]): WidgetMessage[] {
  const messages: WidgetMessage[] = [];
  entries.forEach((entry, index) => {
    if (typeof entry !== "object" || entry === null) return;
    const raw = entry as Record<string, unknown>;
    if ((raw.role !== "user" && raw.role !== "assistant") || typeof raw.content !== "string") return;
    messages.push({
      id: `history-${index}`,
      role: raw.role,
      content: raw.content,
      sources: raw.role === "assistant" ? toSources(raw.sources) : [],
      pending: false,
      streaming: false,
      error: null,
      uuid: null,
    });
  });
  return messages;
}

/** The answer a frame belongs to: the one it names, else the last answer still waiting for its first frame. */
function target(messages: WidgetMessage[], frame: WidgetFrame): number {
  if (frame.uuid !== null) {
    const named = messages.findIndex((message) =>
      message.role === "assistant" && message.uuid === frame.uuid
    );
    if (named !== -1) return named;
  }
  const last = messages.length - 1;
  const open = messages[last];
  if (open?.role === "assistant" && (open.pending || open.streaming) && open.uuid === null) return last;
  if (open?.role === "assistant" && (open.pending || open.streaming) && frame.type === "abort") return last;
  return -1;
}

function applyFrame(state: ChatState, frame: WidgetFrame): ChatState {
  const messages = state.messages.slice();
  let index = target(messages, frame);
  if (index === -1) {
    // A frame for an answer the widget does not hold (a second answer of the same request): a new message.
    if (frame.type === "finalizeResponseStream") return state;
    messages.push({
      id: `frame-${frame.uuid ?? messages.length}`,
      role: "assistant",
      content: "",
      sources: [],
      pending: true,
      streaming: true,
      error: null,
      uuid: null,
    });
    index = messages.length - 1;
  }
  const current = { ...messages[index], uuid: messages[index].uuid ?? frame.uuid, pending: false };
  switch (frame.type) {
    case "textResponseChunk":
      current.content += frame.textResponse;
      if (frame.sources.length > 0) current.sources = frame.sources;
      current.streaming = !frame.close;
      break;
    case "textResponse":
      current.content = frame.textResponse;
      current.sources = frame.sources;
      current.streaming = false;
      break;
    case "finalizeResponseStream":
      current.streaming = false;
      break;
    case "abort":
      current.streaming = false;
      current.error = frame.error ?? "";
      if (frame.textResponse) current.content = frame.textResponse;
      break;
  }
  messages[index] = current;
  const busy = frame.type === "abort" || frame.type === "finalizeResponseStream" ||
      frame.type === "textResponse"
    ? false
    : state.busy;
  return { messages, busy };
}

export function chatReducer(state: ChatState, action: ChatAction): ChatState {
  switch (action.type) {
    case "history":
      // History that arrives after a question was asked does not replace it, nor does it bring back a reset chat.
      if (state.messages.length > 0 || state.cleared) return state;
      return { messages: historyMessages(action.entries), busy: false };
    case "send": {
      const text = action.text.trim();
      if (text === "" || state.busy) return state;
      const base = { sources: [], error: null, uuid: null };
      return {
        busy: true,
        messages: [
          ...state.messages,
          { ...base, id: action.userId, role: "user", content: text, pending: false, streaming: false },
          { ...base, id: action.replyId, role: "assistant", content: "", pending: true, streaming: true },
        ],
      };
    }
    case "frame":
      return applyFrame(state, action.frame);
    case "ended":
      return {
        busy: false,
        messages: state.messages.map((message) =>
          message.pending || message.streaming ? { ...message, pending: false, streaming: false } : message
        ),
      };
    case "reset":
      return { ...EMPTY_CHAT, cleared: true };
  }
}

/** The shown text of an answer: `<think>` blocks are taken out (and given back separately, for showThoughts). */
export function splitThoughts(content: string): { text: string; thoughts: string[] } {
  const thoughts: string[] = [];
  let text = content.replace(/<think>([\s\S]*?)<\/think>/g, (_whole, inner: string) => {
    if (inner.trim()) thoughts.push(inner.trim());
    return "";
  });
  // While it streams, an open <think> has no end yet: everything after it is still thought.
  const open = text.indexOf("<think>");
  if (open !== -1) {
    const inner = text.slice(open + "<think>".length).trim();
    if (inner) thoughts.push(inner);
    text = text.slice(0, open);
  }
  return { text: text.trim(), thoughts };
}
