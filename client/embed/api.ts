import { abortFrame, SseParser, toFrame, type WidgetFrame } from "./frames.ts";
import type { WidgetOptions } from "./options.ts";
import { t } from "./strings.ts";

/**
 * The widget's calls to the server's public embed routes (the reference's server/endpoints/embed/index.js):
 * `POST {base}/{embedId}/stream-chat`, `GET` and `DELETE {base}/{embedId}/{sessionId}`. No cookies go with
 * them; the server checks the page's Origin against the embed's allowed domains.
 */

const sessionUrl = (options: WidgetOptions, session: string) =>
  `${options.baseApiUrl}/${encodeURIComponent(options.embedId)}/${encodeURIComponent(session)}`;

/**
 * The text to show for a refused call: the server's own sentence when its body carries one (`errorMsg` first,
 * as the reference's quota answer puts the sentence there), else one naming the status.
 */
export function refusalText(status: number, body: unknown): string {
  if (typeof body === "object" && body !== null) {
    const raw = body as Record<string, unknown>;
    for (const field of ["errorMsg", "error", "message"]) {
      const value = raw[field];
      if (typeof value === "string" && value.trim() !== "") return value;
    }
  }
  return t("chatWidget.failedCode", { status });
}

async function refusal(response: Response): Promise<string> {
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    // no JSON body
  }
  return refusalText(response.status, body);
}

export type HistoryResult = { ok: true; entries: unknown[] } | { ok: false; error: string };

/** The session's earlier messages, or the reason they could not be read. */
export async function loadHistory(options: WidgetOptions, session: string): Promise<HistoryResult> {
  let response: Response;
  try {
    response = await fetch(sessionUrl(options, session), { credentials: "omit" });
  } catch {
    return { ok: false, error: t("chatWidget.unreachable") };
  }
  if (!response.ok) return { ok: false, error: await refusal(response) };
  try {
    const body = await response.json() as { history?: unknown };
    return { ok: true, entries: Array.isArray(body.history) ? body.history : [] };
  } catch {
    return { ok: false, error: t("chatWidget.unknownError") };
  }
}

/** Forgets the session's messages on the server; null when it did, else the reason. */
export async function resetHistory(options: WidgetOptions, session: string): Promise<string | null> {
  try {
    const response = await fetch(sessionUrl(options, session), { method: "DELETE", credentials: "omit" });
    return response.ok ? null : await refusal(response);
  } catch {
    return t("chatWidget.resetFailed");
  }
}

/**
 * Sends a message and reports each frame of the answer. Every failure (refused, unreachable, broken stream)
 * ends with an abort frame carrying the text to show; stopping through `signal` ends quietly.
 */
export async function streamChat(
  options: WidgetOptions,
  session: string,
  message: string,
  onFrame: (frame: WidgetFrame) => void,
  signal: AbortSignal,
): Promise<void> {
  let response: Response;
  try {
    response = await fetch(`${options.baseApiUrl}/${encodeURIComponent(options.embedId)}/stream-chat`, {
      method: "POST",
      credentials: "omit",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        message,
        sessionId: session,
        username: options.username,
        prompt: options.prompt,
        model: options.model,
        temperature: options.temperature,
      }),
      signal,
    });
  } catch {
    if (!signal.aborted) onFrame(abortFrame(t("chatWidget.unreachable")));
    return;
  }
  const type = response.headers.get("content-type") ?? "";
  if (!response.ok || !type.includes("text/event-stream") || !response.body) {
    onFrame(abortFrame(response.ok ? t("chatWidget.unknownError") : await refusal(response)));
    return;
  }
  const parser = new SseParser();
  let frames = 0;
  const deliver = (events: string[]) => {
    for (const data of events) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(data);
      } catch {
        onFrame(abortFrame(t("chatWidget.badFrame")));
        continue;
      }
      const frame = toFrame(parsed);
      if (frame) {
        frames++;
        onFrame(frame);
      }
    }
  };
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  try {
    while (true) {
      const { value, done } = await reader.read();
      if (done) break;
      deliver(parser.feed(value));
    }
    deliver(parser.end());
    if (frames === 0) onFrame(abortFrame(t("chatWidget.unknownError")));
  } catch (error) {
    if (signal.aborted) return;
    onFrame(abortFrame(t("chatWidget.streamBroken", { message: (error as Error).message || String(error) })));
  }
}
