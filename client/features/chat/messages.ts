import type { HistoryEntry, Source } from "../../../shared/api/chat.ts";
import type { StreamEvent } from "../../lib/chat_stream.ts";

/** An image sent with a prompt, kept as a data URL (history entries carry `{name, mime, dataUrl}`). */
export interface ChatAttachment {
  name: string;
  mime: string;
  dataUrl: string;
}

/** A chat message on the client. */
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
  attachments?: ChatAttachment[];
  /** Thumbs up (true), down (false) or none; answers only. */
  feedbackScore?: boolean | null;
  /** An answer whose generation was stopped before it ended: its text is what came until then. */
  stopped?: boolean;
  /** The query the search used when it was not the prompt (a follow-up rewritten with the conversation). */
  searchQuery?: string;
}

/** The events the message list understands: the stream's frames plus the local stop. */
export type ChatEvent = StreamEvent | { type: "stopGeneration" };

function attachmentsOf(value: unknown[]): ChatAttachment[] {
  const images: ChatAttachment[] = [];
  for (const item of value) {
    const entry = item as Partial<ChatAttachment> | null;
    if (entry && typeof entry.dataUrl === "string" && entry.dataUrl.startsWith("data:image/")) {
      images.push({
        name: typeof entry.name === "string" ? entry.name : "image",
        mime: typeof entry.mime === "string" ? entry.mime : "image/png",
        dataUrl: entry.dataUrl,
      });
    }
  }
  return images;
}

export function fromHistory(entries: HistoryEntry[]): ChatMessage[] {
  return entries.map((entry) => {
    const message: ChatMessage = {
      uuid: `${entry.chatId}-${entry.role}`,
      content: entry.content,
      role: entry.role,
      sources: entry.role === "assistant" ? entry.sources : [],
      closed: true,
      error: null,
      animate: false,
      pending: false,
      chatId: entry.chatId,
    };
    if (entry.role === "assistant") {
      message.type = entry.type;
      message.feedbackScore = entry.feedbackScore;
      if (entry.stopped) message.stopped = true;
      if (entry.searchQuery) message.searchQuery = entry.searchQuery;
    } else {
      const attachments = attachmentsOf(entry.attachments);
      if (attachments.length > 0) message.attachments = attachments;
    }
    return message;
  });
}

/** The user's prompt and the placeholder shown until the first frame comes. */
export function outgoing(text: string, attachments: ChatAttachment[] = []): ChatMessage[] {
  const prompt: ChatMessage = {
    uuid: crypto.randomUUID(),
    content: text,
    role: "user",
    sources: [],
    closed: true,
    error: null,
    animate: false,
    pending: false,
  };
  if (attachments.length > 0) prompt.attachments = attachments;
  return [prompt, {
    uuid: crypto.randomUUID(),
    content: "",
    role: "assistant",
    sources: [],
    closed: false,
    error: null,
    animate: true,
    pending: true,
  }];
}

/** True when the event ends the wait for an answer (the stop button and loading state go away). */
export function endsLoading(event: ChatEvent): boolean {
  return event.type === "abort" || event.type === "statusResponse" || event.type === "textResponse" ||
    event.type === "finalizeResponseStream" || event.type === "stopGeneration";
}

function lastIndexWhere(messages: ChatMessage[], test: (message: ChatMessage) => boolean): number {
  for (let index = messages.length - 1; index >= 0; index--) if (test(messages[index])) return index;
  return -1;
}

/** Copies `messages` with the entries at the given positions replaced; every other object stays the same. */
function replaced(messages: ChatMessage[], changes: Map<number, ChatMessage>): ChatMessage[] {
  if (changes.size === 0) return messages;
  const copy = messages.slice();
  for (const [index, message] of changes) copy[index] = message;
  return copy;
}

/** Gives the prompt just before `index` the answer's chatId, which edit and regenerate need. */
function withPromptId(
  messages: ChatMessage[],
  index: number,
  chatId: number | undefined,
  changes: Map<number, ChatMessage>,
) {
  if (chatId === undefined || index < 1) return;
  const prompt = messages[index - 1];
  if (prompt.role === "user" && prompt.chatId !== chatId) changes.set(index - 1, { ...prompt, chatId });
}

/**
 * Applies one stream event to the message list as docs/api-compat.md#client-behaviour describes each type. It
 * is pure and shares structure: every message the event does not touch is the same object afterwards, so
 * memoized rows of a long thread do not render again while an answer streams.
 */
export function applyEvent(messages: ChatMessage[], event: ChatEvent): ChatMessage[] {
  const next = messages.some((message) => message.pending)
    ? messages.filter((message) => !message.pending)
    : messages;
  switch (event.type) {
    case "abort":
    case "statusResponse": {
      const uuid = event.uuid ?? event.id ?? crypto.randomUUID();
      const changes = new Map<number, ChatMessage>();
      // An error in the middle of an answer: the text so far stays, closed; the error comes after it.
      const partial = lastIndexWhere(next, (message) => message.uuid === uuid);
      if (partial !== -1) {
        changes.set(partial, { ...next[partial], closed: true, animate: false });
      }
      const error = typeof event.error === "string" && event.error ? event.error : null;
      const appended: ChatMessage = {
        uuid: partial === -1 ? uuid : `${uuid}:${event.type}`,
        content: event.textResponse ?? "",
        role: "assistant",
        sources: event.sources ?? [],
        closed: true,
        error,
        animate: false,
        pending: false,
        type: event.type,
      };
      return [...replaced(next, changes), appended];
    }
    case "textResponse": {
      const message: ChatMessage = {
        uuid: event.uuid ?? event.id,
        content: event.textResponse,
        role: "assistant",
        sources: event.sources,
        closed: true,
        error: null,
        animate: false,
        pending: false,
        chatId: event.chatId,
      };
      // `/reset`: the conversation is gone; only the reset notice stays.
      if (event.action === "reset_chat") return [message];
      const changes = new Map<number, ChatMessage>();
      const all = [...next, message];
      withPromptId(all, all.length - 1, event.chatId, changes);
      return replaced(all, changes);
    }
    case "textResponseChunk": {
      const index = lastIndexWhere(next, (message) => message.uuid === event.uuid);
      if (index === -1) {
        return [...next, {
          uuid: event.uuid,
          content: event.textResponse,
          role: "assistant",
          sources: event.sources,
          closed: event.close,
          error: null,
          animate: !event.close,
          pending: false,
          ...(event.searchQuery ? { searchQuery: event.searchQuery } : {}),
        }];
      }
      const current = next[index];
      const updated: ChatMessage = {
        ...current,
        content: current.content + event.textResponse,
        sources: event.close ? event.sources : current.sources,
        closed: event.close,
        animate: !event.close,
        ...(event.searchQuery ? { searchQuery: event.searchQuery } : {}),
      };
      return replaced(next, new Map([[index, updated]]));
    }
    case "finalizeResponseStream": {
      // The answer with this uuid and its prompt; with no such answer, the last two messages.
      let index = lastIndexWhere(next, (message) => message.uuid === event.uuid);
      if (index === -1) index = next.length - 1;
      if (index < 0) return next;
      const changes = new Map<number, ChatMessage>();
      const answer = next[index];
      changes.set(index, { ...answer, chatId: event.chatId ?? answer.chatId, closed: true, animate: false });
      withPromptId(next, index, event.chatId, changes);
      return replaced(next, changes);
    }
    case "stopGeneration": {
      const last = next.length - 1;
      if (last < 0 || next[last].role !== "assistant") return next;
      return replaced(
        next,
        new Map([[last, { ...next[last], closed: true, animate: false, pending: false, stopped: true }]]),
      );
    }
    default:
      return messages;
  }
}

/**
 * After the stop button the server saves the text generated so far but
 * sends no chatId, and the citations came only with the closing frame that never arrived. Once the history
 * holds that chat, the stopped answer and its prompt take its id, text, citations and stopped mark, so the
 * answer reads as it will after a reload. Returns null while the history does not have it yet.
 */
export function adoptSavedChat(messages: ChatMessage[], history: HistoryEntry[]): ChatMessage[] | null {
  const last = messages.length - 1;
  const answer = messages[last];
  const prompt = messages[last - 1];
  if (!answer || !prompt || answer.role !== "assistant" || answer.chatId !== undefined) return null;
  if (prompt.role !== "user" || prompt.chatId !== undefined) return null;
  const known = new Set(messages.map((message) => message.chatId));
  const saved = history.at(-1);
  if (!saved || saved.role !== "assistant" || known.has(saved.chatId)) return null;
  const copy = messages.slice();
  copy[last - 1] = { ...prompt, chatId: saved.chatId };
  copy[last] = {
    ...answer,
    chatId: saved.chatId,
    content: saved.content,
    sources: saved.sources,
    stopped: saved.stopped === true,
    ...(saved.searchQuery ? { searchQuery: saved.searchQuery } : {}),
  };
  return copy;
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

/** The pages a document's cited chunks come from, in order, without repeats (paged formats such as PDF). */
export function citedPages(chunks: Source[]): number[] {
  const pages = new Set<number>();
  for (const chunk of chunks) {
    const page = (chunk as { page?: unknown }).page;
    if (typeof page === "number" && Number.isInteger(page) && page > 0) pages.add(page);
  }
  return [...pages].sort((a, b) => a - b);
}

/** The chunk text without the metadata header the embedder saw. */
export function chunkBody(text: string): string {
  return text.replace(/^<document_metadata>[\s\S]*?<\/document_metadata>\s*/, "");
}
