// The OpenAI-compatible calls of the developer API (`/api/v1/openai/*`, api-contract §11).
import * as z from "zod";
import { jsonObject } from "./body.ts";
import { Metrics, Source } from "./chat.ts";

/** A part of a message's content: text, or an image as a data URL. */
const ContentPart = z.looseObject({
  type: z.string(),
  text: z.string().optional(),
  image_url: z.looseObject({ url: z.string() }).optional(),
});
export type ContentPart = z.infer<typeof ContentPart>;

const MESSAGES_ERROR = "messages must be a list of {role, content} messages.";
const OpenAiMessage = z.looseObject({
  role: z.string({ error: MESSAGES_ERROR }),
  content: z.union([z.string(), z.array(ContentPart), z.null()], { error: MESSAGES_ERROR }).optional(),
}, { error: MESSAGES_ERROR });
export type OpenAiMessage = z.infer<typeof OpenAiMessage>;

/**
 * `POST /api/v1/openai/chat/completions`: `model` is a workspace's slug, `messages` ends with the user's (the
 * route checks that, in the reference's words), a `system` message replaces the workspace's prompt.
 */
export const OpenAiChatInput = jsonObject({
  model: z.string({ error: "model must be the slug of a workspace." }).min(1, {
    error: "model must be the slug of a workspace.",
  }),
  messages: z.array(OpenAiMessage, { error: MESSAGES_ERROR }),
  stream: z.unknown().optional().transform((value) => value === true || value === "true"),
  temperature: z.unknown().optional().transform((value, context): number | undefined => {
    if (value === undefined || value === null || value === "") return undefined;
    const number = Number(value);
    if (!Number.isFinite(number) || number < 0 || number > 2) {
      context.addIssue({ code: "custom", message: "temperature must be a number from 0 to 2." });
      return z.NEVER;
    }
    return number;
  }),
});
export type OpenAiChatInput = z.output<typeof OpenAiChatInput>;

const Usage = Metrics.partial();

/** The answer without `stream`: OpenAI's chat.completion, with the citations in `sources` (Lectern's addition). */
export const OpenAiCompletion = z.object({
  id: z.string(),
  object: z.literal("chat.completion"),
  created: z.number(),
  model: z.string(),
  choices: z.array(z.object({
    index: z.number(),
    message: z.object({ role: z.literal("assistant"), content: z.string().nullable() }),
    logprobs: z.null(),
    finish_reason: z.string().nullable(),
  })),
  usage: Usage,
  sources: z.array(Source),
});

export const OpenAiModels = z.object({
  object: z.literal("list"),
  data: z.array(z.object({
    id: z.string(),
    object: z.literal("model"),
    created: z.number(),
    owned_by: z.string(),
  })),
});

/** The most texts one embeddings call may carry (OpenAI's own limit). */
export const MAX_EMBEDDING_INPUTS = 2048;
const EMBED_STRINGS_ERROR = "All inputs to be embedded must be strings.";

/**
 * `POST /api/v1/openai/embeddings`: `input` (or the reference's older `inputs`), one text or a list; `model`
 * is ignored (the instance's embedder answers); `encoding_format` "float" (default) or "base64".
 */
export const OpenAiEmbeddingsInput = jsonObject({
  input: z.unknown().optional().meta({
    anyOf: [{ type: "string" }, { type: "array", items: { type: "string" } }],
    description: "One text or a list of texts.",
  }),
  inputs: z.unknown().optional().meta({ description: "The reference's older name of `input`." }),
  model: z.unknown().optional().meta({
    type: "string",
    description: "Ignored: the instance's embedder answers.",
  }),
  encoding_format: z.enum(["float", "base64"], { error: 'encoding_format must be "float" or "base64".' })
    .optional(),
}).transform((body, context) => {
  const raw = body.input || body.inputs || [];
  // As the reference: one value that is not a list is embedded as its text.
  const input = Array.isArray(raw) ? raw : [String(raw)];
  if (input.length === 0) {
    context.addIssue({ code: "custom", message: "Input array cannot be empty." });
    return z.NEVER;
  }
  if (!input.every((text) => typeof text === "string")) {
    context.addIssue({ code: "custom", message: EMBED_STRINGS_ERROR });
    return z.NEVER;
  }
  if (input.length > MAX_EMBEDDING_INPUTS) {
    context.addIssue({
      code: "custom",
      message: `At most ${MAX_EMBEDDING_INPUTS} inputs can be embedded at once.`,
    });
    return z.NEVER;
  }
  return { input: input as string[], encodingFormat: body.encoding_format ?? "float" };
});

export const OpenAiEmbeddings = z.object({
  object: z.literal("list"),
  data: z.array(z.object({
    object: z.literal("embedding"),
    embedding: z.union([z.array(z.number()), z.string()]),
    index: z.number(),
  })),
  model: z.string(),
  usage: z.object({ prompt_tokens: z.number(), total_tokens: z.number() }),
});

export const OpenAiVectorStores = z.object({
  first_id: z.string().optional(),
  last_id: z.string().optional(),
  data: z.array(z.object({
    id: z.string(),
    object: z.literal("vector_store"),
    name: z.string(),
    file_counts: z.object({ total: z.number() }),
    provider: z.string(),
  })),
  has_more: z.literal(false),
});
