// The first step of a chat answer: what the request asks for, checked, with the chat model and the history.
import type { Actor } from "../auth/actor.ts";
import type { Deps } from "../deps.ts";
import { messageOf } from "../errors.ts";
import type { ChatModel, ImageInput } from "../providers/llm/types.ts";
import type { Embedder } from "../providers/embedders/types.ts";
import type { WorkspaceRow } from "../workspaces/present.ts";
import { expandPresets, listPresets } from "../presets/service.ts";
import { findUserById } from "../users/repo.ts";
import { resetMemory } from "./actions.ts";
import { type Frame, frames } from "./frames.ts";
import {
  type ChatScope,
  chatsInLastDay,
  type ChatStore,
  recentExchanges,
  type StoredResponse,
} from "./history.ts";
import type { HistoryTurn } from "./prompt.ts";
import { mark } from "../http/timing.ts";
import { workspaceNamespace } from "../providers/vectors/namespace.ts";

export interface ReplyInput {
  actor: Actor;
  workspace: WorkspaceRow;
  threadId: number | null;
  message: string;
  /** Images for vision models, already checked (chat/attachments.ts). */
  attachments?: ImageInput[];
  /** The developer API's `mode`, instead of the workspace's. */
  mode?: "chat" | "query";
  /** A developer API chat's session (history/API_DEFAULT_SESSION without one): kept apart from the UI's. */
  apiSessionId?: string;
  /** The developer API's `reset`: the session's history is forgotten first; without a message that is all. */
  reset?: boolean;
  /**
   * A conversation the caller brings (the OpenAI-compatible call): its history and system prompt replace the
   * stored ones, `/reset` and presets are not read, and the temperature, when given, replaces the workspace's.
   */
  conversation?: Conversation;
  /**
   * An embed widget's session: the history is read from it and the answer kept in it instead of the
   * workspace's chats; no `/reset`, presets, quota or files attached in the chat (they belong to accounts).
   */
  store?: ChatStore;
}

/** The OpenAI-compatible call's own history, system prompt and temperature. */
export interface Conversation {
  system: string | null;
  history: HistoryTurn[];
  temperature?: number;
}

/** One message on its way to an answer, once the request is known to go ahead. */
export interface Turn {
  /** The id of every frame of the answer. */
  uuid: string;
  input: ReplyInput;
  workspace: WorkspaceRow;
  scope: ChatScope;
  mode: "chat" | "query";
  images: ImageInput[];
  /** The message with its presets expanded: what retrieval and the model see. */
  expanded: string;
  /** The workspace's chat model, built once for the whole answer. */
  model: ChatModel;
  embedder: Embedder;
  /**
   * The workspace's vector count (retrieve.ts), asked for while the history is read: a follow-up's rewrite
   * waits for both, and asked after the history the count was one more round trip before it.
   */
  vectorCount: Promise<number>;
  /** The history the model sees, oldest first: the thread's recent chats, or the caller's conversation. */
  history: HistoryTurn[];
  /** The recent stored answers, oldest first, whose citations backfill the context (none for a conversation). */
  recent: StoredResponse[];
  /** The system prompt the caller gave (before the workspace's), or null. */
  system: string | null;
  temperature: number;
}

/** The frame that ends an answer before the model is asked. */
export interface Ended {
  ended: Frame;
}

/** `/reset` at the start of a message, in any case. */
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
function chatModeOf(workspace: WorkspaceRow, mode?: "chat" | "query"): "chat" | "query" {
  return mode ?? (workspace.chatMode === "query" ? "query" : "chat");
}

/** The developer API's answer to `reset` without a message (the reference's text). */
export const HISTORY_RESET = "Chat history was reset!";

/**
 * Checks the user's daily quota, answers `/reset`, expands presets, builds the chat model and the embedder,
 * and reads the thread's history. A request that ends here gets its one frame.
 */
export async function prepareTurn(deps: Deps, input: ReplyInput, uuid: string): Promise<Turn | Ended> {
  const { workspace, message } = input;
  const scope: ChatScope = {
    workspaceId: workspace.id,
    threadId: input.threadId,
    actor: input.actor,
    apiSessionId: input.apiSessionId ?? null,
  };
  const conversation = input.conversation;

  const quota = await dailyQuotaReached(deps, input.actor);
  mark("quota");
  if (quota !== null) {
    return {
      ended: frames.abort(
        uuid,
        `You have met your maximum 24 hour chat quota of ${quota} chats. Try again later.`,
      ),
    };
  }
  if (input.reset) {
    await resetMemory(deps, scope);
    if (message.trim() === "") return { ended: frames.textResponse(uuid, HISTORY_RESET, []) };
  }
  if (!conversation && !input.store && RESET.test(message)) {
    await resetMemory(deps, scope);
    return { ended: frames.resetChat(uuid) };
  }
  // The stored prompt stays as typed; retrieval and the model see the presets expanded.
  const expanded = conversation || input.store
    ? message
    : expandPresets(message, await listPresets(deps, input.actor));
  mark("presets");

  let model: ChatModel;
  let embedder: Embedder;
  try {
    model = deps.providers.chatModel({ provider: workspace.chatProvider, model: workspace.chatModel });
    embedder = deps.providers.embedder();
  } catch (error) {
    return { ended: frames.abort(uuid, messageOf(error)) };
  }
  mark("model");
  const vectorCount = deps.vectors.count(workspaceNamespace(workspace.id, embedder));
  // Read by retrieve; a turn that ends before it (or hands off to the agent) leaves it unread.
  vectorCount.catch(() => {});

  const stored = conversation
    ? []
    : input.store
    ? await input.store.recent()
    : await recentExchanges(deps, scope, workspace.openAiHistory);
  mark("history");
  return {
    uuid,
    input,
    workspace,
    scope,
    mode: chatModeOf(workspace, input.mode),
    images: input.attachments ?? [],
    expanded,
    model,
    embedder,
    vectorCount,
    history: conversation?.history ?? stored.map(({ prompt, response }) => ({
      prompt,
      response: response.text,
      images: imagesOf(response.attachments),
    })),
    recent: stored.map((entry) => entry.response),
    system: conversation?.system ?? null,
    temperature: conversation?.temperature ?? workspace.openAiTemp ?? 0.7,
  };
}

/** Images kept with an earlier chat, re-sent to vision models with the history. */
function imagesOf(attachments: unknown[] | undefined): ImageInput[] | undefined {
  const images = (attachments ?? []).filter((item): item is ImageInput =>
    typeof item === "object" && item !== null && typeof (item as ImageInput).dataUrl === "string"
  );
  return images.length > 0 ? images : undefined;
}
