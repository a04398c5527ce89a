import type { HistoryEntry, Source } from "../../../shared/api/chat.ts";
import type { StreamEvent } from "../../lib/chat_stream.ts";

/** A chat message on the client (spec 01 §3). */
export interface ChatMessage {
  uuid: string;
  content: string;
  role: "user" | "assistant";
  sources: Source[];
  closed: boolean;
  error: string | null;
  animate: boolean;
  pending: boolean;
  chatId?: number;
  type?: string;
}

export function fromHistory(entries: HistoryEntry[]): ChatMessage[] {
  return entries.map((entry) => ({
    uuid: `${entry.chatId}-${entry.role}`,
    content: entry.content,
    role: entry.role,
    sources: entry.role === "assistant" ? entry.sources : [],
    closed: true,
    error: null,
    animate: false,
    pending: false,
    chatId: entry.chatId,
    type: entry.role === "assistant" ? entry.type : undefined,
  }));
}

export interface ApplyResult {
  messages: ChatMessage[];
  /** True once the stream is over for the UI (abort, full message, finalize, stop). */
  done: boolean;
}

/** Applies one stream event to the message list, as spec 01 §4 describes each type. */
export function applyEvent(
  messages: ChatMessage[],
  event: StreamEvent | { type: "stopGeneration" },
): ApplyResult {
  const next = messages.filter((message) => !message.pending);
  switch (event.type) {
    case "abort":
      return {
        messages: [...next, {
          uuid: event.uuid ?? event.id,
          content: "",
          role: "assistant",
          sources: [],
          closed: true,
          error: event.error,
          animate: false,
          pending: false,
        }],
        done: true,
      };
    case "textResponse":
      return {
        messages: [...next, {
          uuid: event.uuid ?? event.id,
          content: event.textResponse,
          role: "assistant",
          sources: event.sources,
          closed: true,
          error: null,
          animate: false,
          pending: false,
          chatId: event.chatId,
        }],
        done: true,
      };
    case "textResponseChunk": {
      const index = next.findIndex((message) => message.uuid === event.uuid);
      if (index === -1) {
        return {
          messages: [...next, {
            uuid: event.uuid,
            content: event.textResponse,
            role: "assistant",
            sources: event.sources,
            closed: event.close,
            error: null,
            animate: !event.close,
            pending: false,
          }],
          done: false,
        };
      }
      const current = next[index];
      const updated: ChatMessage = {
        ...current,
        content: current.content + event.textResponse,
        sources: event.close ? event.sources : current.sources,
        closed: event.close,
        animate: !event.close,
      };
      return {
        messages: next.map((message, position) => (position === index ? updated : message)),
        done: false,
      };
    }
    case "finalizeResponseStream": {
      const count = next.length;
      return {
        messages: next.map((message, position) =>
          position >= count - 2
            ? { ...message, chatId: event.chatId ?? message.chatId, closed: true, animate: false }
            : message
        ),
        done: true,
      };
    }
    case "stopGeneration": {
      const last = next.length - 1;
      return {
        messages: next.map((message, position) =>
          position === last && message.role === "assistant"
            ? { ...message, closed: true, animate: false, sources: [] }
            : message
        ),
        done: true,
      };
    }
    default:
      return { messages, done: false };
  }
}

/** Citations grouped by document title, each with its chunks (the reference's combineLikeSources). */
export function groupSources(sources: Source[]): { title: string; chunks: Source[] }[] {
  const groups = new Map<string, Source[]>();
  for (const source of sources) {
    const title = source.title ?? "Untitled";
    groups.set(title, [...(groups.get(title) ?? []), source]);
  }
  return [...groups].map(([title, chunks]) => ({ title, chunks }));
}

/** The chunk text without the metadata header the embedder saw. */
export function chunkBody(text: string): string {
  return text.replace(/^<document_metadata>[\s\S]*?<\/document_metadata>\s*/, "");
}
