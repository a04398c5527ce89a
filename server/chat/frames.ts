import type { Metrics, Source } from "../../shared/api/chat.ts";
import { SSE_DATA } from "../http/sse.ts";

/** The parts of a chunk frame's event around its uuid and its text. */
const CHUNK_HEAD = 'data: {"uuid":';
const CHUNK_TEXT = ',"sources":[],"type":"textResponseChunk","textResponse":';
const CHUNK_END = ',"close":false,"error":false}\n\n';

/** Under this key, a chunk frame's pieces (not seen by JSON.stringify nor Object.keys). */
export const CHUNK_PIECES: unique symbol = Symbol("chunk-pieces");

/**
 * A token's frame. Hundreds of answers streaming at once write one per token: its JSON is its two strings set
 * into the constant parts (byte for byte what JSON.stringify writes: frames_test.ts), not the whole frame walked.
 * With pieces (the model's deltas that came in one read: ChatPart's `pieces`) it stands for one frame per piece,
 * written as such on the event stream, at once; to whatever reads it as an object (JSON.stringify, a whole
 * answer's text, the OpenAI-compatible chunks) it is one frame of their joined text, its `textResponse`.
 */
class ChunkFrame {
  // Declared in the reference's field order, which JSON.stringify (collect.ts, tests) follows.
  uuid: string;
  sources: Source[];
  type: "textResponseChunk";
  textResponse: string;
  close: boolean;
  error: false;
  [CHUNK_PIECES]: readonly string[] | undefined;
  constructor(uuid: string, text: string, pieces?: readonly string[]) {
    this.uuid = uuid;
    this.sources = [];
    this.type = "textResponseChunk";
    this.textResponse = text;
    this.close = false;
    this.error = false;
    this[CHUNK_PIECES] = pieces;
  }
  [SSE_DATA](): string {
    if (this.sources.length > 0 || this.close !== false) return `data: ${JSON.stringify(this)}\n\n`;
    const head = CHUNK_HEAD + JSON.stringify(this.uuid) + CHUNK_TEXT;
    const pieces = this[CHUNK_PIECES];
    if (pieces === undefined) return head + JSON.stringify(this.textResponse) + CHUNK_END;
    let events = "";
    for (const piece of pieces) events += head + JSON.stringify(piece) + CHUNK_END;
    return events;
  }
}

/** The SSE frames of docs/api-compat.md#chat-stream-frames, field order as the reference writes them. */
export const frames = {
  /** `pieces`: the deltas `text` joins, when several came at once (each its own frame on the event stream). */
  chunk: (uuid: string, text: string, pieces?: readonly string[]): ChunkFrame =>
    new ChunkFrame(uuid, text, pieces),
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
