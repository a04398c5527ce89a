import type { StreamEvent } from "./stream_frames.ts";
import { API_BASE, authHeaders } from "./api.ts";
import { t } from "./i18n.ts";
import { abortEvent } from "./stream_abort.ts";

export type { AgentInitEvent, RenameThreadEvent, StatusResponseEvent, StreamEvent } from "./stream_frames.ts";

/**
 * POSTs a message and reports each SSE frame. Failures become an `abort` event with the texts of
 * docs/api-compat.md#client-behaviour; aborting `signal` (the stop button) ends quietly.
 */
export async function streamChat(
  path: string,
  body: { message: string; attachments?: { name: string; mime: string; contentString: string }[] },
  onEvent: (event: StreamEvent) => void,
  signal: AbortSignal,
): Promise<void> {
  // The frames' schemas (zod) and the SSE parser are not in the page's first load: they come alongside the
  // request.
  const frames = import("./stream_frames.ts");
  frames.catch(() => {});
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
  let toStreamEvent: (data: unknown) => StreamEvent;
  let createParser: typeof import("eventsource-parser").createParser;
  try {
    ({ toStreamEvent, createParser } = await frames);
  } catch (error) {
    await response.body.cancel().catch(() => {});
    if (signal.aborted) return;
    onEvent(abortEvent(t("chat.errors.unknown", { error: (error as Error).message })));
    return;
  }
  const parser = createParser({
    onEvent(message) {
      let data: unknown;
      try {
        data = JSON.parse(message.data);
      } catch (error) {
        onEvent(abortEvent(t("chat.errors.inStream", { message: (error as Error).message })));
        return;
      }
      onEvent(toStreamEvent(data));
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
