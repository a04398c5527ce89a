// A chat answer gathered whole, for the calls that answer once instead of streaming (the developer API's chat,
// the OpenAI-compatible completion without `stream`).
import type { Metrics, Source } from "../../shared/api/chat.ts";
import type { Deps } from "../deps.ts";
import type { Frame } from "./frames.ts";
import { type ReplyInput, streamReply } from "./reply.ts";

/** One whole answer: the developer API's chat result (api-contract §11), before it is sent. */
export interface CollectedReply {
  id: string;
  type: "textResponse" | "abort";
  /** The answer; null when it failed. */
  textResponse: string | null;
  sources: Source[];
  close: true;
  /** Why the answer failed, else null. */
  error: string | null;
  /** The saved chat, when one was saved. */
  chatId?: number;
  metrics: Partial<Metrics>;
}

/** Folds the frames of one answer (server/chat/frames.ts) into its whole. */
export async function collectFrames(stream: AsyncIterable<Frame>): Promise<CollectedReply> {
  let id = "";
  let text = "";
  let sources: Source[] = [];
  let chatId: number | undefined;
  let metrics: Partial<Metrics> = {};
  let error: string | null = null;
  for await (const frame of stream) {
    if (!("type" in frame)) continue; // rename_thread: nothing the whole answer shows
    if ("uuid" in frame) id ||= frame.uuid;
    switch (frame.type) {
      case "textResponseChunk":
        text += frame.textResponse;
        if (frame.close) sources = frame.sources;
        break;
      case "textResponse":
        text = frame.textResponse;
        sources = frame.sources;
        chatId = "chatId" in frame ? frame.chatId : undefined;
        break;
      case "finalizeResponseStream":
        chatId = frame.chatId;
        metrics = frame.metrics;
        break;
      case "abort":
        error = frame.error;
        break;
    }
  }
  return {
    id: id || crypto.randomUUID(),
    type: error === null ? "textResponse" : "abort",
    textResponse: error === null ? text : null,
    sources: error === null ? sources : [],
    close: true,
    error,
    ...(chatId === undefined ? {} : { chatId }),
    metrics,
  };
}

/**
 * One answer, whole: the same pipeline as the streamed chat (reply.ts), its frames gathered. The answer stops
 * (and keeps its text so far) when the caller leaves or the server stops.
 */
export async function collectReply(
  deps: Deps,
  input: ReplyInput,
  signal: AbortSignal,
): Promise<CollectedReply> {
  const controller = deps.streams.open();
  const stop = () => controller.abort(signal.reason);
  if (signal.aborted) stop();
  signal.addEventListener("abort", stop, { once: true });
  try {
    return await collectFrames(streamReply(deps, input, controller.signal));
  } finally {
    signal.removeEventListener("abort", stop);
    deps.streams.close(controller);
  }
}
