import type { Metrics, Source } from "../../shared/api/chat.ts";
import { SSE_JSON } from "../http/sse.ts";

/** The parts of a chunk frame's JSON around its uuid and its text. */
const CHUNK_UUID = '{"uuid":';
const CHUNK_TEXT = ',"sources":[],"type":"textResponseChunk","textResponse":';
const CHUNK_END = ',"close":false,"error":false}';

/**
 * A token's frame. Hundreds of answers streaming at once write one per token: its JSON is its two strings set
 * into the constant parts (byte for byte what JSON.stringify writes: frames_test.ts), not the whole frame walked.
 */
class ChunkFrame {
  // Declared in the reference's field order, which JSON.stringify (collect.ts, tests) follows.
  uuid: string;
  sources: Source[];
  type: "textResponseChunk";
  textResponse: string;
  close: boolean;
  error: false;
  constructor(uuid: string, text: string) {
    this.uuid = uuid;
    this.sources = [];
    this.type = "textResponseChunk";
    this.textResponse = text;
    this.close = false;
    this.error = false;
  }
  [SSE_JSON](): string {
    if (this.sources.length > 0 || this.close !== false) return JSON.stringify(this);
    return CHUNK_UUID + JSON.stringify(this.uuid) + CHUNK_TEXT + JSON.stringify(this.textResponse) +
      CHUNK_END;
  }
}

/** The SSE frames of docs/api-compat.md#chat-stream-frames, field order as the reference writes them. */
export const frames = {
  chunk: (uuid: string, text: string): ChunkFrame => new ChunkFrame(uuid, text),
  /** `searchQuery` (Lectern's): the rewritten follow-up that was searched, when it was not the message. */
  closingChunk: (uuid: string, sources: Source[], searchQuery?: string) => ({
    uuid,
    sources,
    type: "textResponseChunk" as const,
    textResponse: "",
    close: true,
    error: false as const,
    ...(searchQuery ? { searchQuery } : {}),
  }),
  finalize: (uuid: string, chatId: number | undefined, metrics: Metrics) => ({
    uuid,
    type: "finalizeResponseStream" as const,
    close: true as const,
    error: false as const,
    chatId,
    metrics,
  }),
  /** Single-message frames carry both `id` and `uuid` (same value), so clients keyed on either work. */
  abort: (id: string, error: string) => ({
    id,
    uuid: id,
    type: "abort" as const,
    textResponse: null,
    sources: [] as Source[],
    close: true as const,
    error,
  }),
  textResponse: (id: string, text: string, sources: Source[], chatId?: number) => ({
    id,
    uuid: id,
    type: "textResponse" as const,
    textResponse: text,
    sources,
    close: true as const,
    error: null,
    chatId,
  }),
  /** The answer to `/reset`. */
  resetChat: (id: string) => ({
    id,
    uuid: id,
    type: "textResponse" as const,
    textResponse: "Chat memory was reset!",
    sources: [] as Source[],
    close: true as const,
    error: false as const,
    action: "reset_chat" as const,
  }),
  /** `@agent`: the socket to open (docs/api-compat.md#chat-stream-sequences, 7). */
  agentInit: (id: string, websocketUUID: string) => ({
    id,
    uuid: id,
    type: "agentInitWebsocketConnection" as const,
    textResponse: null,
    sources: [] as Source[],
    close: false as const,
    error: null,
    websocketUUID,
  }),
  status: (id: string, text: string, animate: boolean) => ({
    id,
    uuid: id,
    type: "statusResponse" as const,
    textResponse: text,
    sources: [] as Source[],
    close: true as const,
    error: null,
    animate,
  }),
  /** A thread took the name of its first message; this frame has no type. */
  renameThread: (slug: string, name: string) => ({
    action: "rename_thread" as const,
    thread: { slug, name },
  }),
};

/** The frame an event stream ends with when what produces its frames fails unexpectedly (server/http/sse.ts). */
export const streamFailureFrame = () =>
  frames.abort(crypto.randomUUID(), "An unexpected error ended this response.");

export type Frame = ReturnType<(typeof frames)[keyof typeof frames]>;
