import * as z from "zod";
import { ChatFrame, Source } from "../../shared/api/chat.ts";
import { abortEvent } from "./stream_abort.ts";
import { t } from "./i18n.ts";

// The chat stream's frame schemas and its SSE parser, loaded with the first stream (client/lib/chat_stream.ts),
// not in the page's first load.
export { createParser } from "eventsource-parser";

/** Agent hand-off status: a whole, closed message. */
const StatusResponse = z.object({
  type: z.literal("statusResponse"),
  id: z.string().optional(),
  uuid: z.string().optional(),
  textResponse: z.string().nullable().default(null),
  sources: z.array(Source).default([]),
  error: z.union([z.string(), z.null(), z.literal(false)]).optional(),
  animate: z.boolean().optional(),
});
const AgentInit = z.object({
  type: z.literal("agentInitWebsocketConnection"),
  websocketUUID: z.string(),
});
/** The frame without a type that follows the first answer of a thread. */
const RenameThread = z.object({
  action: z.literal("rename_thread"),
  thread: z.object({ slug: z.string(), name: z.string() }),
});
/**
 * Whole-message frames of other servers that carry only `id` or only `uuid`
 * (docs/api-compat.md#chat-stream-frames).
 */
const LooseSingle = z.object({
  type: z.enum(["textResponse", "abort"]),
  id: z.string().optional(),
  uuid: z.string().optional(),
  textResponse: z.string().nullable().default(null),
  sources: z.array(Source).default([]),
  error: z.union([z.string(), z.null(), z.literal(false)]).optional(),
  chatId: z.number().optional(),
});

export type StatusResponseEvent = z.infer<typeof StatusResponse>;
export type AgentInitEvent = z.infer<typeof AgentInit>;
export type RenameThreadEvent = {
  type?: undefined;
  action: "rename_thread";
  thread: { slug: string; name: string };
};

/**
 * A frame of the chat stream (docs/api-compat.md#chat-stream-frames); `reset_chat` comes as the `action` of a
 * `textResponse`. Frames this client does not know are passed on as `{type: "unknown"}`.
 */
export type StreamEvent =
  | ChatFrame
  | StatusResponseEvent
  | AgentInitEvent
  | RenameThreadEvent
  | { type: "unknown"; data: unknown };

/** Turns one parsed `data:` JSON value into a stream event. */
export function toStreamEvent(data: unknown): StreamEvent {
  const raw = (data ?? {}) as { action?: unknown };
  const action = raw.action === "reset_chat" ? "reset_chat" as const : undefined;
  const frame = ChatFrame.safeParse(data);
  if (frame.success) return frame.data;
  const status = StatusResponse.safeParse(data);
  if (status.success) return status.data;
  const agent = AgentInit.safeParse(data);
  if (agent.success) return agent.data;
  const rename = RenameThread.safeParse(data);
  if (rename.success) return rename.data;
  const loose = LooseSingle.safeParse(data);
  if (loose.success) {
    const id = loose.data.id ?? loose.data.uuid ?? crypto.randomUUID();
    const uuid = loose.data.uuid ?? id;
    if (loose.data.type === "abort") {
      return {
        ...abortEvent(
          typeof loose.data.error === "string" ? loose.data.error : t("chat.errors.unknownError"),
        ),
        id,
        uuid,
      };
    }
    return {
      id,
      uuid,
      type: "textResponse",
      textResponse: loose.data.textResponse ?? "",
      sources: loose.data.sources,
      close: true,
      error: null,
      chatId: loose.data.chatId,
      action,
    };
  }
  return { type: "unknown", data };
}
