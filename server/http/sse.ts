import type { Deps } from "../deps.ts";
import { messageOf } from "../errors.ts";
import { frames } from "../chat/frames.ts";

export const SSE_HEADERS = {
  "Content-Type": "text/event-stream",
  "Cache-Control": "no-cache",
  "Connection": "keep-alive",
  "Access-Control-Allow-Origin": "*",
  "X-Accel-Buffering": "no",
};

/**
 * An SSE response whose frames come from `produce`, each written as exactly `data: <json>\n\n`
 * (api-contract.md §7.1). The signal given to `produce` aborts when the client goes away (the body is
 * cancelled) or the server stops.
 */
export function sseResponse(
  deps: Deps,
  request: Request,
  produce: (signal: AbortSignal) => AsyncIterable<unknown>,
): Response {
  const controller = deps.streams.open();
  const abort = () => controller.abort(new Error("The client closed the connection"));
  const cleanup = () => deps.streams.close(controller);
  const iterator = produce(controller.signal)[Symbol.asyncIterator]();
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(stream) {
      try {
        const { value, done } = await iterator.next();
        if (done) {
          cleanup();
          stream.close();
          return;
        }
        stream.enqueue(encoder.encode(`data: ${JSON.stringify(value)}\n\n`));
      } catch (error) {
        deps.log.error("The event stream failed", {
          path: new URL(request.url).pathname,
          error: messageOf(error),
        });
        cleanup();
        if (!controller.signal.aborted) {
          const frame = frames.abort(crypto.randomUUID(), "An unexpected error ended this response.");
          stream.enqueue(encoder.encode(`data: ${JSON.stringify(frame)}\n\n`));
        }
        stream.close();
      }
    },
    async cancel() {
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
