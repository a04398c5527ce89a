import * as z from "zod";
import { jsonObject } from "./body.ts";
import { MAX_MESSAGE_CHARS } from "./chat_actions.ts";
import { MAX_MESSAGE_CHARS_SHOWN } from "../limits.ts";

/**
 * A citation: the chunk's document metadata, its text and its similarity score
 * (docs/api-compat.md#retrieval-pipeline).
 */
export const Source = z.looseObject({
  id: z.string().optional(),
  title: z.string().optional(),
  url: z.string().optional(),
  docSource: z.string().optional(),
  chunkSource: z.string().optional(),
  published: z.string().optional(),
  text: z.string(),
  score: z.number().optional(),
});
export type Source = z.infer<typeof Source>;

export const Metrics = z.object({
  prompt_tokens: z.number(),
  completion_tokens: z.number(),
  total_tokens: z.number(),
  outputTps: z.number(),
  duration: z.number(),
  model: z.string().optional(),
  provider: z.string().optional(),
  timestamp: z.string().optional(),
});
export type Metrics = z.infer<typeof Metrics>;

/** The SSE frames of docs/api-compat.md#chat-stream-frames; each is sent as `data: <json>\n\n`. */
export const TextResponseChunk = z.object({
  uuid: z.string(),
  sources: z.array(Source),
  type: z.literal("textResponseChunk"),
  textResponse: z.string(),
  close: z.boolean(),
  error: z.literal(false),
  /** Lectern's, on the closing chunk: the query searched when it was not the message (a rewritten follow-up). */
  searchQuery: z.string().optional(),
});
export const FinalizeResponseStream = z.object({
  uuid: z.string(),
  type: z.literal("finalizeResponseStream"),
  close: z.literal(true),
  error: z.literal(false),
  chatId: z.number().optional(),
  metrics: Metrics.optional(),
});
export const TextResponse = z.object({
  id: z.string(),
  uuid: z.string(),
  type: z.literal("textResponse"),
  textResponse: z.string(),
  sources: z.array(Source),
  close: z.literal(true),
  error: z.union([z.null(), z.literal(false)]),
  chatId: z.number().optional(),
  /** `reset_chat` on the answer to /reset. */
  action: z.literal("reset_chat").optional(),
});
export const Abort = z.object({
  id: z.string(),
  uuid: z.string(),
  type: z.literal("abort"),
  textResponse: z.null(),
  sources: z.array(Source),
  close: z.literal(true),
  error: z.string(),
});
/** `@agent`: the client opens `ws(s)://host/api/agent-invocation/<websocketUUID>` (docs/api-compat.md). */
export const AgentInitWebsocketConnection = z.object({
  id: z.string(),
  uuid: z.string(),
  type: z.literal("agentInitWebsocketConnection"),
  textResponse: z.null(),
  sources: z.array(Source),
  close: z.literal(false),
  error: z.null(),
  websocketUUID: z.string(),
});
/** A status line (the agent hand-off). */
export const StatusResponse = z.object({
  id: z.string(),
  uuid: z.string(),
  type: z.literal("statusResponse"),
  textResponse: z.string(),
  sources: z.array(Source),
  close: z.literal(true),
  error: z.null(),
  animate: z.boolean(),
});
export const ChatFrame = z.discriminatedUnion("type", [
  TextResponseChunk,
  FinalizeResponseStream,
  TextResponse,
  Abort,
  AgentInitWebsocketConnection,
  StatusResponse,
]);
export type ChatFrame = z.infer<typeof ChatFrame>;

/**
 * One entry of `GET /api/workspace/:slug/chats`; each chat row gives two
 * (docs/api-compat.md#chat-history-shape).
 */
export const HistoryEntry = z.union([
  z.object({
    role: z.literal("user"),
    content: z.string(),
    sentAt: z.number(),
    attachments: z.array(z.unknown()),
    chatId: z.number(),
  }),
  z.object({
    type: z.string(),
    role: z.literal("assistant"),
    content: z.string(),
    sources: z.array(Source),
    chatId: z.number(),
    sentAt: z.number(),
    feedbackScore: z.boolean().nullable(),
    metrics: z.record(z.string(), z.unknown()),
    /** Lectern's own addition: present (true) only on an answer whose generation was stopped. */
    stopped: z.literal(true).optional(),
    /** Lectern's: the query searched when it was not the message (a rewritten follow-up). */
    searchQuery: z.string().optional(),
  }),
]);
export type HistoryEntry = z.infer<typeof HistoryEntry>;
export const History = z.object({ history: z.array(HistoryEntry) });

/** At most this many images go with one message, each at most MAX_ATTACHMENT_BYTES once decoded. */
export const MAX_ATTACHMENTS = 5;
export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;
const IMAGE_DATA_URL = /^data:(image\/(?:png|jpeg|webp|gif));base64,([A-Za-z0-9+/]+={0,2})$/;

/** An image sent with a message, as the model receives it. */
export interface ChatImage {
  name: string;
  mime: string;
  dataUrl: string;
}

/**
 * The images of a chat request (`attachments: [{name, mime, contentString}]`): at most 5 PNG, JPEG, WebP or
 * GIF data URLs of at most 10 MB each. A missing name becomes `image-<n>`.
 */
export const ChatAttachments = z.unknown().optional().transform((value, context): ChatImage[] => {
  const problem = (message: string) => {
    context.addIssue({ code: "custom", message });
    return z.NEVER;
  };
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) return problem("attachments must be a list.");
  if (value.length > MAX_ATTACHMENTS) {
    return problem(`At most ${MAX_ATTACHMENTS} images can be attached to a message.`);
  }
  const images: ChatImage[] = [];
  for (const [index, item] of value.entries()) {
    const entry = (item ?? {}) as { name?: unknown; contentString?: unknown };
    const name = typeof entry.name === "string" && entry.name.trim()
      ? entry.name.trim().slice(0, 255)
      : `image-${index + 1}`;
    const match = typeof entry.contentString === "string" ? IMAGE_DATA_URL.exec(entry.contentString) : null;
    if (!match) return problem(`${name} is not a PNG, JPEG, WebP or GIF image sent as a data URL.`);
    if (Math.floor(match[2].length * 3 / 4) > MAX_ATTACHMENT_BYTES) {
      return problem(`${name} is too large: images can be at most 10 MB.`);
    }
    images.push({ name, mime: match[1], dataUrl: entry.contentString as string });
  }
  return images;
});

/**
 * `POST /api/workspace/:slug/stream-chat` (and a thread's): the message, not blank and at most
 * MAX_MESSAGE_CHARS long (longer is a 413), and its pictures. A message that is not text reads as empty.
 */
export const StreamChatInput = jsonObject({
  message: z.unknown().optional().transform((value, context) => {
    const message = typeof value === "string" ? value : "";
    if (message.trim() === "") {
      context.addIssue({ code: "custom", message: "Message is empty." });
      return z.NEVER;
    }
    if (message.length > MAX_MESSAGE_CHARS) {
      context.addIssue({
        code: "custom",
        message:
          `The message is too long: at most ${MAX_MESSAGE_CHARS_SHOWN} characters. Add long text to the workspace as a document instead.`,
        params: { code: "too_large" },
      });
      return z.NEVER;
    }
    return message;
  }),
  attachments: ChatAttachments,
});

/** The developer API's chat modes; `automatic` is `chat` (the reference's tool calling is not offered). */
export const API_CHAT_MODES = ["automatic", "chat", "query"] as const;
export const MAX_SESSION_ID_CHARS = 255;

/** A text field that may also be sent as a number (the reference takes `String(value)`); "" and null are none. */
const idText = (field: string, max: number) =>
  z.unknown().optional().transform((value, context): string | undefined => {
    if (value === undefined || value === null || value === "" || value === false) return undefined;
    if (typeof value !== "string" && typeof value !== "number") {
      context.addIssue({ code: "custom", message: `${field} must be text.` });
      return z.NEVER;
    }
    const text = String(value);
    if (text.length > max) {
      context.addIssue({ code: "custom", message: `${field} must be at most ${max} characters.` });
      return z.NEVER;
    }
    return text;
  });

/**
 * `POST /api/v1/workspace/:slug/chat` and `stream-chat` (and a thread's): the message (empty only with
 * `reset`), the mode (else the workspace's), the session that keeps API chats apart, images and `reset`.
 * A thread's call may name the user the chat is kept for (`userId`, full-access keys only). Messages are the
 * reference's, with a period.
 */
export const ApiChatInput = jsonObject({
  message: z.unknown().optional().meta({
    type: "string",
    description: "The message (empty only with reset).",
  })
    .transform((value) => typeof value === "string" ? value : ""),
  mode: z.unknown().optional().meta({
    type: "string",
    enum: [...API_CHAT_MODES],
    description: "The chat mode; the workspace's when left out.",
  }),
  sessionId: idText("sessionId", MAX_SESSION_ID_CHARS).meta({
    type: "string",
    description: "Keeps the API's chats of one conversation together (and out of the UI).",
  }),
  attachments: ChatAttachments.meta({
    type: "array",
    description: "Images: [{name, mime, contentString: data URL}], at most 5 of 10 MB.",
  }),
  reset: z.unknown().optional().meta({ type: "boolean", description: "Forget the session's history first." })
    .transform((value) => value === true || value === "true"),
  userId: z.unknown().optional().meta({
    type: "integer",
    description: "A thread's chat only: the user it is kept for (full-access keys).",
  }).transform((value, context): number | undefined => {
    if (value === undefined || value === null || value === "") return undefined;
    const id = Number(value);
    if (!Number.isInteger(id) || id <= 0) {
      context.addIssue({ code: "custom", message: "userId must be the id of a user." });
      return z.NEVER;
    }
    return id;
  }),
}).superRefine((body, context) => {
  if (body.message.trim() === "" && !body.reset) {
    context.addIssue({ code: "custom", message: "Message is empty." });
  } else if (body.message.length > MAX_MESSAGE_CHARS) {
    context.addIssue({
      code: "custom",
      message:
        `The message is too long: at most ${MAX_MESSAGE_CHARS_SHOWN} characters. Add long text to the workspace as a document instead.`,
      params: { code: "too_large" },
    });
  } else if (
    body.mode !== undefined && body.mode !== null &&
    !(API_CHAT_MODES as readonly unknown[]).includes(body.mode)
  ) {
    context.addIssue({ code: "custom", message: `${String(body.mode)} is not a valid mode.` });
  }
}).transform(({ mode, ...body }) => ({
  ...body,
  /** `automatic` is `chat`; none means the workspace's. */
  mode: mode === "query"
    ? "query" as const
    : mode === "chat" || mode === "automatic"
    ? "chat" as const
    : undefined,
}));
export type ApiChatInput = z.output<typeof ApiChatInput>;

/** The developer API's whole chat answer (api-contract §11). */
export const ApiChatResult = z.object({
  id: z.string(),
  type: z.enum(["textResponse", "abort"]),
  textResponse: z.string().nullable(),
  sources: z.array(Source),
  close: z.literal(true),
  error: z.string().nullable(),
  chatId: z.number().optional(),
  metrics: Metrics.partial(),
});
