import { z } from "zod";

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
export const ChatFrame = z.discriminatedUnion("type", [
  TextResponseChunk,
  FinalizeResponseStream,
  TextResponse,
  Abort,
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
  }),
]);
export type HistoryEntry = z.infer<typeof HistoryEntry>;
export const History = z.object({ history: z.array(HistoryEntry) });
