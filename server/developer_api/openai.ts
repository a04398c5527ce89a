import type { Context } from "hono";
import { asc, count, eq } from "drizzle-orm";
import { workspaceDocuments, workspaces } from "../../db/schema.ts";
import { jsonObject, textOr } from "../../shared/api/body.ts";
import { ChatAttachments, type Metrics, type Source } from "../../shared/api/chat.ts";
import {
  type ContentPart,
  OpenAiChatInput,
  OpenAiCompletion,
  OpenAiEmbeddings,
  OpenAiEmbeddingsInput,
  type OpenAiMessage,
  OpenAiModels,
  OpenAiVectorStores,
} from "../../shared/api/openai.ts";
import type { Deps } from "../deps.ts";
import { fail } from "../errors.ts";
import type { AppEnv } from "../http/env.ts";
import { parseJson } from "../http/body.ts";
import { sseResponse } from "../http/sse.ts";
import { tokenCounter } from "../documents/tokens.ts";
import { collectReply } from "../chat/collect.ts";
import { type Frame, frames } from "../chat/frames.ts";
import type { HistoryTurn } from "../chat/prompt.ts";
import { type ReplyInput, streamReply } from "../chat/reply.ts";
import type { WorkspaceRow } from "../workspaces/present.ts";
import { needs, visibleWorkspaceIds } from "./access.ts";
import { requireWorkspaceAccess, type V1Router } from "./router.ts";

/** The model a completion names, read first so that the key is checked on it before anything else. */
const NamedModel = jsonObject({ model: textOr("") });

const NO_USER_PROMPT = "No user prompt found. Must be last element in message array with 'user' role.";

/** The reference's abort JSON, the answer of a refused completion. */
const abortBody = (message: string) => frames.abort(crypto.randomUUID(), message);

/** The workspaces a key may see, by name. */
async function visibleWorkspaces(deps: Deps, c: Context<AppEnv>): Promise<WorkspaceRow[]> {
  const visible = visibleWorkspaceIds(c.var.apiKey);
  const rows = await deps.db.select().from(workspaces).orderBy(asc(workspaces.name), asc(workspaces.id));
  return visible ? rows.filter((row) => visible.has(row.id)) : rows;
}

/** A message's text: its text parts joined by new lines (openai/helpers.js of the reference). */
export function textOf(content: OpenAiMessage["content"]): string {
  if (typeof content === "string") return content;
  return (content ?? []).filter((part) => part.type === "text").map((part) => part.text ?? "").join("\n");
}

/** A message's images (`image_url` parts with data URLs), in the chat's attachment form. */
function imagesOf(content: OpenAiMessage["content"]) {
  const parts: ContentPart[] = Array.isArray(content) ? content : [];
  return parts.filter((part) => part.type === "image_url").map((part, index) => ({
    name: `uploaded_image_${index}`,
    contentString: part.image_url?.url,
  }));
}

/**
 * The conversation before the last message as the prompt's turns: each user message opens a turn, an assistant
 * message closes it (or stands alone); other roles are left out.
 */
export function turnsOf(messages: OpenAiMessage[]): HistoryTurn[] {
  const turns: HistoryTurn[] = [];
  let open: HistoryTurn | null = null;
  for (const message of messages) {
    if (message.role === "user") {
      if (open) turns.push(open);
      open = { prompt: textOf(message.content), response: "" };
    } else if (message.role === "assistant") {
      turns.push({ prompt: open?.prompt ?? "", response: textOf(message.content) });
      open = null;
    }
  }
  if (open) turns.push(open);
  return turns;
}

/** The completion request as the chat pipeline takes it (`model` is known to be a workspace). */
function replyInput(
  c: Context<AppEnv>,
  workspace: WorkspaceRow,
  body: OpenAiChatInput,
  id: string,
): ReplyInput {
  const messages = [...body.messages];
  const last = messages.pop();
  if (last?.role !== "user") fail("invalid_input", NO_USER_PROMPT, abortBody(NO_USER_PROMPT));
  const images = ChatAttachments.safeParse(imagesOf(last.content));
  if (!images.success) {
    const message = images.error.issues[0]?.message ?? "The images are not valid.";
    fail("invalid_input", message, abortBody(message));
  }
  const text = textOf(last.content);
  if (text.trim() === "" && images.data.length === 0) {
    fail("invalid_input", "Message is empty.", abortBody("Message is empty."));
  }
  const system = messages.find((message) => message.role === "system");
  return {
    actor: c.var.actor,
    workspace,
    threadId: null,
    message: text,
    attachments: images.data,
    // Each completion brings its own history: kept apart from every other chat, and from the UI.
    apiSessionId: `openai:${id}`,
    conversation: {
      system: system ? textOf(system.content) : null,
      history: turnsOf(messages.filter((message) => message.role !== "system")),
      temperature: body.temperature,
    },
  };
}

/** One chunk or answer in OpenAI's shape, as the reference writes it (`object` is "chat.completion" in both). */
function completion(
  id: string,
  model: string,
  content: string | null,
  options: { chunked: boolean; finish: string | null; usage?: Partial<Metrics>; sources?: Source[] },
) {
  return {
    id,
    object: "chat.completion" as const,
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{
      index: 0,
      [options.chunked ? "delta" : "message"]: { role: "assistant" as const, content },
      logprobs: null,
      finish_reason: options.finish,
    }],
    usage: options.usage ?? {},
    ...(options.sources ? { sources: options.sources } : {}),
  };
}

/** A failure in OpenAI's error shape too (`error.message`), so the SDK raises it; `type` marks it as ours. */
const failure = (message: string) => ({ message, type: "server_error", param: null, code: null });

/**
 * The chat frames of one answer as OpenAI chunks: a chunk per text delta, then a last chunk with
 * `finish_reason: "stop"`, the usage and the citations (`sources`). A failure is a chunk with `error`, which
 * the SDK raises; nothing follows it.
 */
export async function* openAiChunks(model: string, stream: AsyncIterable<Frame>) {
  let sources: Source[] = [];
  for await (const frame of stream) {
    if (!("type" in frame)) continue;
    const id = "uuid" in frame ? frame.uuid : crypto.randomUUID();
    const chunk = (content: string | null, finish: string | null, extra: object = {}) => ({
      ...completion(id, model, content, { chunked: true, finish, ...extra }),
    });
    switch (frame.type) {
      case "textResponseChunk":
        if (frame.close) sources = frame.sources;
        else if (frame.textResponse) yield chunk(frame.textResponse, null);
        break;
      case "finalizeResponseStream":
        yield chunk("", "stop", { usage: frame.metrics, sources });
        return;
      case "textResponse":
        yield chunk(frame.textResponse, "stop", { sources: frame.sources });
        return;
      case "abort":
        yield { ...chunk(null, "abort"), error: failure(frame.error) };
        return;
    }
  }
}

/** The OpenAI-compatible calls (docs: /api/docs). */
export function openAiRoutesV1(router: V1Router, deps: Deps): void {
  router.get("/openai/models", needs.any, {
    tag: "OpenAI-compatible",
    summary: "List the workspaces as models",
    description: "Each workspace the key may use is a model named by its slug, owned by its LLM provider.",
    response: OpenAiModels,
  }, async (c) => {
    const fallback = deps.settings.value("LLMProvider") ?? "";
    return c.json({
      object: "list",
      data: (await visibleWorkspaces(deps, c)).map((workspace) => ({
        id: workspace.slug,
        object: "model",
        created: Math.floor(workspace.createdAt.getTime() / 1000),
        owned_by: workspace.chatProvider || fallback,
      })),
    });
  });

  router.post("/openai/chat/completions", needs.workspace("chat", "body"), {
    tag: "OpenAI-compatible",
    summary: "Chat with a workspace as an OpenAI model",
    description:
      "`model` is a workspace's slug; its documents are searched as in its chat. The last message " +
      "must be the user's; a `system` message replaces the workspace's prompt; the other messages are the " +
      "history (nothing stored is). With `stream`, OpenAI's chunks as server-sent events, ending with " +
      "`data: [DONE]`. The answer's citations are in `sources`. An unknown model is a 401 without a body, " +
      "as the reference answers.",
    body: OpenAiChatInput,
    response: OpenAiCompletion,
  }, async (c) => {
    // The key is checked on the named model before the rest of the body.
    const named = await parseJson(c, NamedModel, abortBody, { bareMessages: true });
    await requireWorkspaceAccess(deps, c.var.apiKey, named.model, "chat");
    const body = await parseJson(c, OpenAiChatInput, abortBody, { bareMessages: true });
    const [workspace] = await deps.db.select().from(workspaces).where(eq(workspaces.slug, body.model));
    if (!workspace) return c.body(null, 401);
    const id = crypto.randomUUID();
    const input = replyInput(c, workspace, body, id);
    if (body.stream) {
      return sseResponse(
        deps,
        c.req.raw,
        (signal) => openAiChunks(workspace.slug, streamReply(deps, input, signal)),
        {
          failureFrame: () => ({ error: failure("An unexpected error ended this response.") }),
          last: "[DONE]",
        },
      );
    }
    const result = await collectReply(deps, input, c.req.raw.signal);
    if (result.type === "abort") {
      const answer = completion(result.id, workspace.slug, null, { chunked: false, finish: "abort" });
      return c.json({ ...answer, error: failure(result.error ?? "The answer failed.") }, 502);
    }
    return c.json(completion(result.id, workspace.slug, result.textResponse, {
      chunked: false,
      finish: "stop",
      usage: result.metrics,
      sources: result.sources,
    }));
  });

  router.post("/openai/embeddings", needs.any, {
    tag: "OpenAI-compatible",
    summary: "Embed texts",
    description:
      "The instance's embedder embeds `input` (one text or a list); `model` is ignored. Any valid key " +
      "may call it: it reads and changes no stored data.",
    body: OpenAiEmbeddingsInput,
    response: OpenAiEmbeddings,
  }, async (c) => {
    const { input, encodingFormat } = await parseJson(c, OpenAiEmbeddingsInput, (error) => ({ error }), {
      bareMessages: true,
    });
    const embedder = deps.providers.embedder();
    const vectors: number[][] = [];
    for (let start = 0; start < input.length; start += embedder.maxInputsPerCall) {
      vectors.push(
        ...await embedder.embed(input.slice(start, start + embedder.maxInputsPerCall), c.req.raw.signal),
      );
    }
    const countTokens = await tokenCounter();
    const tokens = input.reduce((total, text) => total + countTokens(text), 0);
    return c.json({
      object: "list",
      data: vectors.map((vector, index) => ({
        object: "embedding",
        embedding: encodingFormat === "base64" ? base64Floats(vector) : vector,
        index,
      })),
      model: embedder.modelId,
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    });
  });

  router.get("/openai/vector_stores", needs.any, {
    tag: "OpenAI-compatible",
    summary: "List the workspaces as vector stores",
    description: "Each workspace the key may use, with its document count. Every store comes in the first " +
      "page: a request with any query parameter (a next page) gets an empty list, as the reference answers.",
    response: OpenAiVectorStores,
  }, async (c) => {
    if (Object.keys(c.req.query()).length > 0) return c.json({ data: [], has_more: false });
    const rows = await visibleWorkspaces(deps, c);
    const counts = new Map(
      (await deps.db.select({ workspaceId: workspaceDocuments.workspaceId, total: count() })
        .from(workspaceDocuments).groupBy(workspaceDocuments.workspaceId))
        .map((row) => [row.workspaceId, row.total]),
    );
    const provider = deps.settings.value("VectorDB") || "lancedb";
    const data = rows.map((workspace) => ({
      id: workspace.slug,
      object: "vector_store",
      name: workspace.name,
      file_counts: { total: counts.get(workspace.id) ?? 0 },
      provider,
    }));
    return c.json({ first_id: data[0]?.id, last_id: data.at(-1)?.id, data, has_more: false });
  });
}

/** A vector as OpenAI's base64 encoding: little-endian 32-bit floats. */
function base64Floats(vector: number[]): string {
  const view = new DataView(new ArrayBuffer(vector.length * 4));
  vector.forEach((value, index) => view.setFloat32(index * 4, value, true));
  const bytes = new Uint8Array(view.buffer);
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}
