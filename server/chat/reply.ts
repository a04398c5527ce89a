import type { Metrics } from "../../shared/api/chat.ts";
import type { Actor } from "../auth/actor.ts";
import type { Deps } from "../deps.ts";
import { messageOf, ProviderError } from "../errors.ts";
import { tokenCounter } from "../documents/tokens.ts";
import type { ChatModel, ImageInput } from "../providers/llm/types.ts";
import type { Embedder } from "../providers/embedders/types.ts";
import type { WorkspaceRow } from "../workspaces/present.ts";
import { DEFAULT_REFUSAL } from "../../shared/api/workspaces.ts";
import { instanceDefaultPrompt } from "../system/default_prompt.ts";
import { customVariableValues } from "../prompt_variables/service.ts";
import { type Frame, frames } from "./frames.ts";
import { retrieve, type Retrieved } from "./retrieve.ts";
import { type ChatScope, chatsInLastDay, parseResponse, recentChats, saveChat } from "./history.ts";
import { findUserById } from "../users/repo.ts";
import { autoRenameThread } from "../threads/service.ts";
import { expandPresets, listPresets } from "../presets/service.ts";
import { resetMemory } from "./actions.ts";
import { buildMessages, countMessageTokens, expandVariables, fitPrompt } from "./prompt.ts";

export interface ReplyInput {
  actor: Actor;
  workspace: WorkspaceRow;
  threadId: number | null;
  message: string;
  /** Images for vision models, already checked (chat/attachments.ts). */
  attachments?: ImageInput[];
}

/** `/reset` at the start of a message, in any case (docs/api-compat.md#chat-stream-sequences). */
const RESET = /^\/reset(\s|$)/i;

/** The user's daily limit when they reached it; admins have none. */
async function dailyQuotaReached(deps: Deps, actor: Actor): Promise<number | null> {
  if (!actor.multiUser || actor.userId === null || actor.role === "admin") return null;
  const user = await findUserById(deps, actor.userId);
  const limit = user?.dailyMessageLimit;
  if (!limit) return null;
  return (await chatsInLastDay(deps, actor.userId)) >= limit ? limit : null;
}

/** `chat` answers from general knowledge too; `query` refuses without context; `automatic` is `chat`. */
function chatModeOf(workspace: WorkspaceRow): "chat" | "query" {
  return workspace.chatMode === "query" ? "query" : "chat";
}

function metricsOf(
  model: ChatModel,
  promptTokens: number,
  completionTokens: number,
  startedAt: number,
): Metrics {
  const duration = Math.max((performance.now() - startedAt) / 1000, 0.001);
  return {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
    outputTps: completionTokens / duration,
    duration,
    model: model.modelId,
    provider: model.providerId,
    timestamp: new Date().toISOString(),
  };
}

/**
 * One answer as SSE frames (docs/api-compat.md#chat-stream-sequences): retrieval, prompt, streamed tokens,
 * the closing chunk with citations, the saved chat and `finalizeResponseStream`. Failures become an `abort`
 * frame with the provider's message. When `signal` aborts (the client left, or shutdown) the text so far is
 * saved and nothing more is sent.
 */
export async function* streamReply(
  deps: Deps,
  input: ReplyInput,
  signal: AbortSignal,
): AsyncGenerator<Frame> {
  const { workspace, message } = input;
  const images = input.attachments ?? [];
  const uuid = crypto.randomUUID();
  const scope: ChatScope = { workspaceId: workspace.id, threadId: input.threadId, actor: input.actor };
  const mode = chatModeOf(workspace);

  const quota = await dailyQuotaReached(deps, input.actor);
  if (quota !== null) {
    yield frames.abort(
      uuid,
      `You have met your maximum 24 hour chat quota of ${quota} chats. Try again later.`,
    );
    return;
  }
  if (RESET.test(message)) {
    await resetMemory(deps, scope);
    yield frames.resetChat(uuid);
    return;
  }
  // The stored prompt stays as typed; retrieval and the model see the presets expanded.
  const expanded = expandPresets(message, await listPresets(deps, input.actor));

  let model: ChatModel;
  let embedder: Embedder;
  try {
    model = deps.providers.chatModel({ provider: workspace.chatProvider, model: workspace.chatModel });
    embedder = deps.providers.embedder();
  } catch (error) {
    yield frames.abort(uuid, messageOf(error));
    return;
  }

  const historyRows = await recentChats(deps, scope, workspace.openAiHistory);
  const history = historyRows.flatMap((row) => {
    const response = parseResponse(row);
    return response ? [{ row, response }] : [];
  });

  let retrieved: Retrieved;
  try {
    retrieved = await retrieve(
      deps,
      workspace,
      embedder,
      expanded,
      history.map((turn) => turn.response),
      signal,
      {
        attachments: {
          workspaceId: workspace.id,
          threadId: input.threadId,
          userId: input.actor.multiUser ? input.actor.userId : null,
        },
      },
    );
  } catch (error) {
    if (signal.aborted) return;
    deps.log.warn("Vector search failed", { workspace: workspace.slug, error: messageOf(error) });
    yield frames.abort(uuid, `Vector search failed: ${messageOf(error)}`);
    return;
  }

  if (mode === "query" && retrieved.contextTexts.length === 0) {
    const refusal = workspace.queryRefusalResponse || DEFAULT_REFUSAL;
    const chatId = await saveChat(deps, scope, message, {
      text: refusal,
      sources: [],
      type: mode,
      attachments: images,
      metrics: {},
    }, false);
    yield frames.textResponse(uuid, refusal, [], chatId);
    return;
  }

  const user = input.actor.userId === null ? null : await findUserById(deps, input.actor.userId);
  const prompt = expandVariables(workspace.openAiPrompt || instanceDefaultPrompt(deps.settings), {
    now: new Date(),
    user: { id: input.actor.userId, name: user?.username ?? null, bio: user?.bio ?? null },
    workspace: { id: workspace.id, name: workspace.name },
    custom: await customVariableValues(deps),
  });
  const maxTokens = Math.min(model.maxTokens, model.contextWindow);
  const parts = await fitPrompt(
    {
      system: prompt,
      contexts: retrieved.contextTexts,
      history: history.map(({ row, response }) => ({
        prompt: row.prompt,
        response: response.text,
        images: imagesOf(response.attachments),
      })),
      message: expanded,
      images,
    },
    model.contextWindow,
    maxTokens,
  );
  const messages = buildMessages(parts);
  const count = await tokenCounter();

  const startedAt = performance.now();
  let text = "";
  let usage: { inputTokens: number; outputTokens: number } | null = null;
  const finish = () =>
    metricsOf(
      model,
      usage?.inputTokens ?? countMessageTokens(messages, count),
      usage?.outputTokens ?? count(text),
      startedAt,
    );
  const save = (metrics: Metrics, stopped = false) =>
    saveChat(deps, scope, message, {
      text,
      sources: retrieved.sources,
      type: mode,
      attachments: images,
      metrics,
      ...(stopped ? { stopped: true as const } : {}),
    });

  let settled = false;
  // Stops the model when it goes quiet for too long; the client leaving stops it too.
  const quiet = new AbortController();
  try {
    try {
      const request = { messages, temperature: workspace.openAiTemp ?? 0.7, maxTokens };
      const parts = model.stream(request, AbortSignal.any([signal, quiet.signal]));
      for await (const part of withinTimeout(parts, deps.config.llmTimeoutSeconds, quiet)) {
        if (part.type === "text-delta") {
          text += part.text;
          yield frames.chunk(uuid, part.text);
        } else usage = { inputTokens: part.inputTokens, outputTokens: part.outputTokens };
      }
    } catch (error) {
      if (signal.aborted) return;
      deps.log.warn("The LLM failed", { workspace: workspace.slug, error: messageOf(error) });
      const metrics = finish();
      const chatId = text ? await save(metrics) : undefined;
      settled = true;
      yield frames.abort(uuid, messageOf(error));
      // Before the first token the abort alone ends the answer; after it, finalize follows.
      if (text) yield frames.finalize(uuid, chatId, metrics);
      return;
    }
    if (signal.aborted) return;
    const metrics = finish();
    const chatId = text ? await save(metrics) : undefined;
    settled = true;
    yield frames.closingChunk(uuid, retrieved.sources);
    yield frames.finalize(uuid, chatId, metrics);
    if (chatId !== undefined && input.threadId !== null) {
      const renamed = await autoRenameThread(deps, input.threadId, message);
      if (renamed) yield frames.renameThread(renamed.slug, renamed.name);
    }
  } finally {
    // The client left (or the server is stopping) mid-answer: keep what was generated.
    if (!settled && text) {
      await save(finish(), true).catch((error) =>
        deps.log.error("Cannot save the partial answer", {
          workspace: workspace.slug,
          error: messageOf(error),
        })
      );
    }
  }
}

/**
 * The model's parts, each within `seconds` of the one before (the first within `seconds` of the request). When
 * the model goes quiet, `quiet` is aborted (closing its connection) and a ProviderError says what happened.
 */
async function* withinTimeout<T>(
  parts: AsyncIterable<T>,
  seconds: number,
  quiet: AbortController,
): AsyncGenerator<T> {
  const iterator = parts[Symbol.asyncIterator]();
  const span = `${seconds} second${seconds === 1 ? "" : "s"}`;
  let ended = false;
  try {
    for (let first = true;; first = false) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          const error = new ProviderError(
            first
              ? `The language model did not answer within ${span}; try again, or ask the administrator to check it.`
              : `The language model stopped answering: nothing came for ${span}, so the answer was stopped.`,
          );
          quiet.abort(error);
          reject(error);
        }, seconds * 1000);
      });
      const pending = iterator.next();
      // After a time-out the model's own call ends with an abort error nobody waits for.
      pending.catch(() => {});
      let next: IteratorResult<T>;
      try {
        next = await Promise.race([pending, timeout]);
      } finally {
        clearTimeout(timer);
      }
      if (next.done) {
        ended = true;
        return;
      }
      yield next.value;
    }
  } finally {
    // Left early (the client went, or a time-out): the model's stream is closed too.
    if (!ended) iterator.return?.().catch(() => {});
  }
}

/** Images kept with an earlier chat, re-sent to vision models with the history. */
function imagesOf(attachments: unknown[] | undefined): ImageInput[] | undefined {
  const images = (attachments ?? []).filter((item): item is ImageInput =>
    typeof item === "object" && item !== null && typeof (item as ImageInput).dataUrl === "string"
  );
  return images.length > 0 ? images : undefined;
}
