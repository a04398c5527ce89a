import { createParser } from "eventsource-parser";
import { ChatFrame } from "../../shared/api/chat.ts";
import { API_BASE, authHeaders } from "./api.ts";
import { t } from "./i18n.ts";

/** A frame of the chat stream, or an unknown frame passed through as it came (e.g. `rename_thread`). */
export type StreamEvent = ChatFrame | ({ type?: undefined } & Record<string, unknown>);

function abortEvent(message: string): ChatFrame {
  const id = crypto.randomUUID();
  return { id, uuid: id, type: "abort", textResponse: null, sources: [], close: true, error: message };
}

/**
 * POSTs a message and reports each SSE frame. Failures become an `abort` event with the texts of spec 01 §8;
 * aborting `signal` (the stop button) ends quietly.
 */
export async function streamChat(
  path: string,
  body: { message: string; attachments?: unknown[] },
  onEvent: (event: StreamEvent) => void,
  signal: AbortSignal,
): Promise<void> {
  let response: Response;
  try {
    response = await fetch(API_BASE + path, {
      method: "POST",
      headers: authHeaders(),
      body: JSON.stringify(body),
      signal,
    });
  } catch (error) {
    if (signal.aborted) return;
    onEvent(abortEvent(t("chat.errors.unknown", { error: (error as Error).message })));
    return;
  }
  const type = response.headers.get("content-type") ?? "";
  if (!response.ok || !type.includes("text/event-stream") || !response.body) {
    const status = response.status;
    const message = status >= 400 && status < 500 && status !== 429
      ? t("chat.errors.code", { status })
      : t("chat.errors.unknownError");
    onEvent(abortEvent(message));
    return;
  }
  const parser = createParser({
    onEvent(message) {
      try {
        const data = JSON.parse(message.data);
        const parsed = ChatFrame.safeParse(data);
        onEvent(parsed.success ? parsed.data : data);
      } catch (error) {
        onEvent(abortEvent(t("chat.errors.inStream", { message: (error as Error).message })));
      }
    },
  });
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  try {
    while (true) {
      const { value, done } = await reader.read();
      if (done) break;
      parser.feed(value);
    }
  } catch (error) {
    if (signal.aborted) return;
    onEvent(abortEvent(t("chat.errors.inStream", { message: (error as Error).message })));
  }
}
