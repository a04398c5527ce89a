import { messageOf } from "../errors.ts";
import type { Logger } from "../log.ts";
import type { StreamRegistry } from "./streams.ts";

/** No CORS header of its own: the CORS middleware adds one for the origins the operator allows (server/http/cors.ts). */
export const SSE_HEADERS = {
  "Content-Type": "text/event-stream",
  "Cache-Control": "no-cache",
  "Connection": "keep-alive",
  "X-Accel-Buffering": "no",
};

/**
 * A frame that writes its own event text: a method under this key (which JSON.stringify does not see) returning
 * `data: <json>\n\n` with the JSON that JSON.stringify would write, with less work; or several such events, in
 * order, when the object stands for several frames that came together (a chunk frame's pieces,
 * server/chat/frames.ts): they are then written at once, one write for them all.
 */
export const SSE_DATA: unique symbol = Symbol("sse-data");

const encoder = new TextEncoder();

/**
 * The events' bytes are written into slices of a shared slab, each slice handed to one stream and never written
 * again; a full slab is left to the slices still in use and a new one taken. Hundreds of streams each writing a
 * frame per token made an ArrayBuffer each (TextEncoder.encode), a malloc'd store the GC must track and free:
 * one per SLAB_BYTES of frames instead. A slab lives as long as its last slice is unsent (a stalled client's few
 * frames keep at most one slab each).
 */
const SLAB_BYTES = 16 * 1024;
let slab = new Uint8Array(SLAB_BYTES);
let slabAt = 0;

/** `text` as UTF-8 bytes of their own. */
export function eventBytes(text: string): Uint8Array {
  // UTF-8 takes at most 3 bytes per UTF-16 unit: room for that, or a slab of its own for a long text.
  const most = text.length * 3;
  if (most > SLAB_BYTES) return encoder.encode(text);
  if (SLAB_BYTES - slabAt < most) {
    slab = new Uint8Array(SLAB_BYTES);
    slabAt = 0;
  }
  const { written } = encoder.encodeInto(text, slab.subarray(slabAt));
  const bytes = slab.subarray(slabAt, slabAt + written);
  slabAt += written;
  return bytes;
}

/** `data: <json>\n\n` of one frame (or of each frame it stands for), as bytes. */
function frameBytes(value: unknown): Uint8Array {
  const own = (value as { [SSE_DATA]?: () => string } | null)?.[SSE_DATA];
  return eventBytes(typeof own === "function" ? own.call(value) : `data: ${JSON.stringify(value)}\n\n`);
}

export interface SseOptions {
  /** The last frame written when `produce` throws (not when the server stops); without it the stream just ends. */
  failureFrame?: () => unknown;
  /** Written as `data: <last>` once the frames have all been sent (the OpenAI stream's `[DONE]`), not on failure. */
  last?: string;
}

/**
 * An SSE response whose frames come from `produce`, each written as exactly `data: <json>\n\n`
 * (docs/api-compat.md#chat-stream-frames). The signal given to `produce` aborts when the client goes away
 * (the body is cancelled) or the server stops. A HEAD request gets the headers alone; nothing is produced.
 */
export function sseResponse(
  deps: { streams: StreamRegistry; log: Logger },
  request: Request,
  produce: (signal: AbortSignal) => AsyncIterable<unknown>,
  options: SseOptions = {},
): Response {
  // Hono answers HEAD with the GET handler and drops the body unread: a stream would never end.
  if (request.method === "HEAD") return new Response(null, { status: 200, headers: SSE_HEADERS });
  const controller = deps.streams.open();
  const abort = () => controller.abort(new Error("The client closed the connection"));
  const cleanup = () => deps.streams.close(controller);
  const iterator = produce(controller.signal)[Symbol.asyncIterator]();
  const path = new URL(request.url).pathname;
  // A client that leaves (the Stop button, a closed tab) cancels the body while a frame is still being
  // produced; that frame, and the end of the stream, then have nowhere to go and are dropped.
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(stream) {
      try {
        const { value, done } = await iterator.next();
        if (cancelled) return;
        if (done) {
          cleanup();
          if (options.last !== undefined) stream.enqueue(eventBytes(`data: ${options.last}\n\n`));
          stream.close();
          return;
        }
        stream.enqueue(frameBytes(value));
      } catch (error) {
        cleanup();
        if (cancelled) return;
        if (controller.signal.aborted) {
          // The server is stopping: an expected end, and no frame for a client about to be cut off.
          deps.log.debug("The event stream ended early", { path, error: messageOf(error) });
        } else {
          deps.log.error("The event stream failed", { path, error: messageOf(error) });
          if (options.failureFrame) {
            stream.enqueue(frameBytes(options.failureFrame()));
          }
        }
        stream.close();
      }
    },
    async cancel() {
      cancelled = true;
      deps.log.debug("The client left the event stream", { path });
      abort();
      try {
        await iterator.return?.(undefined);
      } finally {
        cleanup();
      }
    },
  });
  return new Response(body, { status: 200, headers: SSE_HEADERS });
}
