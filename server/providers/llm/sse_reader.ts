// The server-sent events of a streamed answer, read with little work per token: with hundreds of answers
// streaming at once, the OpenAI SDK's own reader (a 64 KiB buffer allocated for every read of the body, then
// five layers of async generators and a race per event) was most of the server's work per chunk.
import { createParser, type EventSourceMessage } from "eventsource-parser";

/** Bytes read at most at once; the buffer is reused for every read of one body. */
const READ_BYTES = 16 * 1024;
const STREAMING = { stream: true };

/**
 * The events of `body` as they arrive (eventsource-parser splits them). A byte stream (a fetch body) is read
 * into one buffer of its own, handed back and forth, rather than a new one per read. When `signal` aborts, the
 * body is cancelled and the events end.
 */
export async function* sseEvents(
  body: ReadableStream<Uint8Array>,
  signal: AbortSignal,
): AsyncGenerator<EventSourceMessage> {
  const events: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (event) => void events.push(event) });
  const decoder = new TextDecoder();
  let byob: ReadableStreamBYOBReader | null = null;
  let reader: ReadableStreamDefaultReader<Uint8Array> | null = null;
  try {
    byob = body.getReader({ mode: "byob" });
  } catch {
    reader = body.getReader(); // not a byte stream (a test's own fetch): read as it comes
  }
  const cancel = () => void (byob ?? reader)!.cancel().catch(() => {});
  if (signal.aborted) cancel();
  signal.addEventListener("abort", cancel, { once: true });
  let buffer = new Uint8Array(READ_BYTES);
  try {
    while (true) {
      let chunk: Uint8Array | undefined;
      if (byob) {
        const { value, done } = await byob.read(buffer);
        if (done || !value) break;
        chunk = value;
        buffer = new Uint8Array(value.buffer);
      } else {
        const { value, done } = await reader!.read();
        if (done) break;
        chunk = value;
      }
      parser.feed(decoder.decode(chunk, STREAMING));
      while (events.length > 0) yield events.shift()!;
    }
    // An event without its closing blank line is not dispatched (nor was it by the SDK's reader).
  } finally {
    signal.removeEventListener("abort", cancel);
    cancel();
  }
}
