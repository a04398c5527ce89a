import type { Deps } from "../deps.ts";
import { messageOf } from "../errors.ts";
import { DEFAULT_REFUSAL } from "../../shared/api/workspaces.ts";
import { instanceDefaultPrompt } from "../system/default_prompt.ts";
import { customVariableValues } from "../prompt_variables/service.ts";
import { findUserById } from "../users/repo.ts";
import { type AnswerPrompt, streamAnswer } from "./answer.ts";
import { type Frame, frames } from "./frames.ts";
import { createInvocation } from "../agents/invocations.ts";
import { agentAvailable } from "../agents/session.ts";
import { keepChat } from "./history.ts";
import { buildMessages, expandVariables, fitPrompt } from "./prompt.ts";
import { retrieve, type Retrieved } from "./retrieve.ts";
import { rewriteQuery } from "./rewrite.ts";
import { mark } from "../http/timing.ts";
import type { StartSlot } from "./admission.ts";
import { type Ended, prepareTurn, type ReplyInput, type Turn } from "./turn.ts";
import { chatStarting } from "../jobs/chat_window.ts";

export type { ReplyInput } from "./turn.ts";

/**
 * One answer as SSE frames (docs/api-compat.md#chat-stream-sequences), in four steps: prepare (turn.ts: quota, `/reset`, presets,
 * the chat model, the history), retrieve the context, fit the prompt, then stream the model's answer into frames
 * and save it (answer.ts). Failures become an `abort` frame with the provider's message. When `signal` aborts
 * (the client left, or shutdown) the text so far is saved and nothing more is sent.
 */
export async function* streamReply(
  deps: Deps,
  input: ReplyInput,
  signal: AbortSignal,
): AsyncGenerator<Frame> {
  // Waits its turn among the chats starting (chat/admission.ts); a client that leaves meanwhile ends it here.
  let slot: StartSlot;
  try {
    slot = await deps.chatStarts.enter(signal);
  } catch (error) {
    if (signal.aborted) return;
    throw error;
  }
  mark("admitted");
  // Until the model is asked, background jobs hold their database writes back (jobs/chat_window.ts).
  const starting = chatStarting();
  try {
    const turn = await prepareTurn(deps, input, crypto.randomUUID());
    if ("ended" in turn) {
      slot.release();
      yield turn.ended;
      return;
    }
    if (isAgentCall(turn)) {
      slot.release();
      yield* agentHandOff(deps, turn);
      return;
    }
    const retrieved = await retrieveFor(deps, turn, slot, signal);
    if (retrieved === null) return;
    if ("ended" in retrieved) {
      slot.release();
      yield retrieved.ended;
      return;
    }
    if (turn.mode === "query" && retrieved.contextTexts.length === 0) {
      const refusal = await refuse(deps, turn);
      slot.release();
      yield refusal;
      return;
    }
    const prompt = await promptFor(deps, turn, retrieved);
    mark("prompt");
    // The slot is given back once the model has been asked, before the answer's first chunk.
    yield* streamAnswer(deps, turn, prompt, signal, () => {
      starting.end();
      slot.release();
    });
  } finally {
    starting.end();
    slot.release();
  }
}

/** A UI chat whose message (presets expanded) starts with `@agent`, case-sensitive (docs/api-compat.md#agent-detection). */
function isAgentCall(turn: Turn): boolean {
  const { input } = turn;
  return turn.expanded.startsWith("@agent") && !input.store && !input.conversation &&
    input.apiSessionId === undefined;
}

/** The hand-off to the agent's socket, or a status saying the agent cannot be called. */
function* agentHandOff(deps: Deps, turn: Turn): Generator<Frame> {
  const { input, workspace } = turn;
  if (!agentAvailable(deps, workspace)) {
    yield frames.status(
      turn.uuid,
      "The agent could not be called: set an LLM provider that the agent can use in the workspace's agent settings.",
      false,
    );
    return;
  }
  const invocation = createInvocation(deps, {
    actor: input.actor,
    workspace,
    threadId: input.threadId,
    prompt: input.message,
  });
  yield frames.agentInit(turn.uuid, invocation.uuid);
  yield frames.status(
    turn.uuid,
    "@agent: Swapping over to agent chat. Type /exit to exit agent execution loop early.",
    true,
  );
}

/**
 * The context of the message (retrieve.ts), within the chat model's context window; a failed search ends the
 * answer with an abort frame, or with nothing when the client has left.
 */
async function retrieveFor(
  deps: Deps,
  turn: Turn,
  slot: StartSlot,
  signal: AbortSignal,
): Promise<Retrieved | Ended | null> {
  const { workspace, input } = turn;
  try {
    return await retrieve(
      deps,
      workspace,
      turn.embedder,
      turn.expanded,
      turn.recent,
      signal,
      {
        contextWindow: turn.model.contextWindow,
        vectorCount: turn.vectorCount,
        // Files attached in the chat belong to an account's thread; an embed's visitor has none.
        attachments: input.store ? undefined : {
          workspaceId: workspace.id,
          threadId: input.threadId,
          userId: input.actor.multiUser ? input.actor.userId : null,
        },
        // A follow-up is searched as rewritten with the conversation, unless the workspace turned that off.
        // Asking the model to rewrite it ends the chat's turn among the starts (chat/admission.ts): what is left
        // of its start after the model's answer (the search, the prompt) goes on without waiting again.
        rewrite: workspace.queryRewrite
          ? () => {
            slot.release();
            return rewriteQuery(deps, {
              model: turn.model,
              history: turn.history,
              message: turn.expanded,
              workspace: workspace.slug,
            }, signal);
          }
          : undefined,
      },
    );
  } catch (error) {
    if (signal.aborted) return null;
    deps.log.warn("Vector search failed", { workspace: workspace.slug, error: messageOf(error) });
    return { ended: frames.abort(turn.uuid, `Vector search failed: ${messageOf(error)}`) };
  }
}

/** A `query` workspace found no context: its refusal is the answer, saved outside the history. */
async function refuse(deps: Deps, turn: Turn): Promise<Frame> {
  const refusal = turn.workspace.queryRefusalResponse || DEFAULT_REFUSAL;
  const chatId = await keepChat(deps, turn, {
    text: refusal,
    sources: [],
    type: turn.mode,
    attachments: turn.images,
    metrics: {},
  }, false);
  return frames.textResponse(turn.uuid, refusal, [], chatId);
}

/** The system prompt with its variables, the context, the history and the message, fitted to the model. */
async function promptFor(deps: Deps, turn: Turn, retrieved: Retrieved): Promise<AnswerPrompt> {
  const { workspace, input, model } = turn;
  const user = input.actor.userId === null ? null : await findUserById(deps, input.actor.userId);
  // A system prompt the caller gave is used as given, as the reference does.
  const system = turn.system ??
    expandVariables(workspace.openAiPrompt || instanceDefaultPrompt(deps.settings), {
      now: new Date(),
      user: { id: input.actor.userId, name: user?.username ?? null, bio: user?.bio ?? null },
      workspace: { id: workspace.id, name: workspace.name },
      custom: await customVariableValues(deps),
    });
  mark("system prompt");
  const maxTokens = Math.min(model.maxTokens, model.contextWindow);
  const parts = await fitPrompt(
    {
      system,
      contexts: retrieved.contextTexts,
      history: turn.history,
      message: turn.expanded,
      images: turn.images,
    },
    model.contextWindow,
    maxTokens,
  );
  return {
    messages: buildMessages(parts),
    maxTokens,
    sources: retrieved.sources,
    searchQuery: retrieved.searchQuery,
  };
}
