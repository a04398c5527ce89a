// The last steps of a chat answer: the model's answer streamed into frames, then kept with its metrics.
import type { Metrics, Source } from "../../shared/api/chat.ts";
import type { Deps } from "../deps.ts";
import { messageOf, ProviderError } from "../errors.ts";
import { tokenCounter } from "../documents/tokens.ts";
import type { ChatMessage } from "../providers/llm/types.ts";
import { autoRenameThread } from "../threads/service.ts";
import { type Frame, frames } from "./frames.ts";
import { keepChat } from "./history.ts";
import { countMessageTokens } from "./prompt.ts";
import type { Turn } from "./turn.ts";
import { logTiming, mark } from "../http/timing.ts";

/** What the model is asked, and what its answer cites. */
export interface AnswerPrompt {
  messages: ChatMessage[];
  maxTokens: number;
  sources: Source[];
  /** The query searched when it was not the message (a rewritten follow-up). */
  searchQuery?: string;
}

/** The answer as it grows, measured and saved with the chat. */
class Draft {
  text = "";
  usage: { inputTokens: number; outputTokens: number } | null = null;
  private readonly startedAt = performance.now();

  constructor(
    private readonly deps: Deps,
    private readonly turn: Turn,
    private readonly prompt: AnswerPrompt,
    private readonly count: (text: string) => number,
  ) {}

  /** The model's own token counts when it gave them, else counted here. */
  metrics(): Metrics {
    const promptTokens = this.usage?.inputTokens ?? countMessageTokens(this.prompt.messages, this.count);
    const completionTokens = this.usage?.outputTokens ?? this.count(this.text);
    const duration = Math.max((performance.now() - this.startedAt) / 1000, 0.001);
    return {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
      outputTps: completionTokens / duration,
      duration,
      model: this.turn.model.modelId,
      provider: this.turn.model.providerId,
      timestamp: new Date().toISOString(),
    };
  }

  /** Saves the chat with the text so far; `stopped` marks an answer cut short. */
  save(metrics: Metrics, stopped = false): Promise<number> {
    return keepChat(this.deps, this.turn, {
      text: this.text,
      sources: this.prompt.sources,
      ...(this.prompt.searchQuery ? { searchQuery: this.prompt.searchQuery } : {}),
      type: this.turn.mode,
      attachments: this.turn.images,
      metrics,
      ...(stopped ? { stopped: true as const } : {}),
    });
  }
}

/**
 * Streams the model's answer as chunk frames, then saves it and sends the closing chunk, `finalizeResponseStream`
 * and, for a thread's first answer, its new name. A failure of the model becomes an abort frame. When `signal`
 * aborts (the client left, or shutdown) the text so far is saved and nothing more is sent. `asked` is called once
 * the model has been asked (its answer began, or at its first part or its end, whichever comes first).
 */
export async function* streamAnswer(
  deps: Deps,
  turn: Turn,
  prompt: AnswerPrompt,
  signal: AbortSignal,
  asked: () => void = () => {},
): AsyncGenerator<Frame> {
  const { uuid, workspace } = turn;
  const draft = new Draft(deps, turn, prompt, await tokenCounter());
  let settled = false;
  // The model's one signal: aborted when it goes quiet for too long (withinTimeout) or when `signal` aborts (the
  // client left, or shutdown), forwarded by a listener removed once the answer ends. One controller per answer
  // rather than an `AbortSignal.any` of the two: with hundreds of answers at once, each dependent signal (its
  // weak links to its sources, their clean-up) was more for the GC to trace and more to abort in a chain.
  const stop = new AbortController();
  const forward = () => stop.abort(signal.reason);
  if (signal.aborted) forward();
  else signal.addEventListener("abort", forward, { once: true });
  try {
    try {
      const request = {
        messages: prompt.messages,
        temperature: turn.temperature,
        maxTokens: prompt.maxTokens,
        onAsked: asked,
      };
      mark("asking");
      const parts = turn.model.stream(request, stop.signal);
      for await (const part of withinTimeout(parts, deps.config.llmTimeoutSeconds, stop)) {
        asked();
        if (part.type === "text-delta") {
          if (!draft.text) {
            mark("first token");
            logTiming(deps.log, workspace.slug);
          }
          draft.text += part.text;
          yield frames.chunk(uuid, part.text, part.pieces);
        } else draft.usage = { inputTokens: part.inputTokens, outputTokens: part.outputTokens };
      }
    } catch (error) {
      asked();
      if (signal.aborted) return;
      deps.log.warn("The LLM failed", { workspace: workspace.slug, error: messageOf(error) });
      const metrics = draft.metrics();
      const chatId = draft.text ? await draft.save(metrics) : undefined;
      settled = true;
      yield frames.abort(uuid, messageOf(error));
      // Before the first token the abort alone ends the answer; after it, finalize follows (docs/api-compat.md#chat-stream-sequences).
      if (draft.text) yield frames.finalize(uuid, chatId, metrics);
      return;
    }
    asked();
    if (signal.aborted) return;
    const metrics = draft.metrics();
    const chatId = draft.text ? await draft.save(metrics) : undefined;
    settled = true;
    yield frames.closingChunk(uuid, prompt.sources, prompt.searchQuery);
    yield frames.finalize(uuid, chatId, metrics);
    // An API chat is not seen in the thread, so it does not name it either.
    if (chatId !== undefined && turn.input.threadId !== null && turn.input.apiSessionId === undefined) {
      const renamed = await autoRenameThread(deps, turn.input.threadId, turn.input.message);
      if (renamed) yield frames.renameThread(renamed.slug, renamed.name);
    }
  } finally {
    signal.removeEventListener("abort", forward);
    // The client left (or the server is stopping) mid-answer: keep what was generated (docs/api-compat.md#where-lectern-differs).
    if (!settled && draft.text) {
      await draft.save(draft.metrics(), true).catch((error) =>
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
 * One timer watches the whole answer (it is pushed back as parts come, rather than a timer made per token):
 * with hundreds of answers streaming at once, a timer and a race per token were a share of the work per chunk.
 * The time the consumer keeps a part (a slow client) does not count: the model is then not being waited for.
 * An iterator of its own rather than an async generator: one layer fewer of promises per token. No race either:
 * the timer rejects the one pending call itself (a race per part left a reaction on a promise that never
 * settles, each holding its part, until the answer ended: a whole answer's parts kept alive, for the GC to copy).
 */
function withinTimeout<T>(
  parts: AsyncIterable<T>,
  seconds: number,
  quiet: AbortController,
): AsyncIterableIterator<T> {
  const iterator = parts[Symbol.asyncIterator]();
  const span = `${seconds} second${seconds === 1 ? "" : "s"}`;
  const limitMs = seconds * 1000;
  let closed = false;
  let first = true;
  let waitingSince = 0;
  /** The pending call's rejection while the model is being waited for, else null. */
  let reject: ((error: unknown) => void) | null = null;
  let failure: ProviderError | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const check = () => {
    const quietMs = reject !== null ? performance.now() - waitingSince : 0;
    if (quietMs < limitMs) {
      timer = setTimeout(check, limitMs - quietMs);
      return;
    }
    failure = new ProviderError(
      first
        ? `The language model did not answer within ${span}; try again, or ask the administrator to check it.`
        : `The language model stopped answering: nothing came for ${span}, so the answer was stopped.`,
    );
    quiet.abort(failure);
    const pending = reject;
    reject = null;
    close(true);
    pending?.(failure);
  };
  timer = setTimeout(check, limitMs);
  /** Ends the watch; `early` (the consumer left, a failure, a time-out): the model's stream is closed too. */
  const close = (early: boolean) => {
    if (closed) return;
    closed = true;
    clearTimeout(timer);
    if (early) iterator.return?.().catch(() => {});
  };
  const done = { done: true, value: undefined } as IteratorReturnResult<undefined>;
  return {
    [Symbol.asyncIterator]() {
      return this;
    },
    next(): Promise<IteratorResult<T>> {
      if (failure !== null) return Promise.reject(failure);
      if (closed) return Promise.resolve(done);
      waitingSince = performance.now();
      return new Promise<IteratorResult<T>>((resolve, rejectCall) => {
        reject = rejectCall;
        // After a time-out the model's own call settles with nobody waiting: what it brings is dropped.
        iterator.next().then((next) => {
          if (reject !== rejectCall) return;
          reject = null;
          first = false;
          if (next.done) close(false);
          resolve(next);
        }, (error) => {
          if (reject !== rejectCall) return;
          reject = null;
          first = false;
          close(true);
          rejectCall(error);
        });
      });
    },
    return(): Promise<IteratorResult<T>> {
      close(true);
      return Promise.resolve(done);
    },
  };
}
