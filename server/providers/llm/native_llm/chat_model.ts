import type { ChatHistoryItem } from "node-llama-cpp";
import { messageOf, ProviderError } from "../../../errors.ts";
import type { ChatMessage, ChatModel, ChatPart, ChatRequest } from "../types.ts";
import { nativeModelPath } from "./models.ts";
import { acquire, DEFAULT_IDLE_SECONDS, sentence } from "./runtime.ts";

/** The reference's temperature for its local model when the workspace sets none. */
const DEFAULT_TEMPERATURE = 0.7;
const DEFAULT_MAX_TOKENS = 1024;

export interface NativeChatModelOptions {
  /** The folder of the .gguf files: nativeModelsDirectory(storagePaths(...).models). */
  modelsDir: string;
  /** NativeLLMModelPref (or the workspace's override): the file's name in `modelsDir`. */
  modelId: string;
  /** NativeLLMTokenLimit: the context the model is loaded with, in tokens. */
  contextWindow: number;
  /** The most tokens one answer may use (at most half the context). */
  maxTokens?: number;
  /** Seconds the model stays loaded after its last answer; DEFAULT_IDLE_SECONDS (300) when unset. */
  idleSeconds?: number;
}

function toHistory(messages: ChatMessage[]): ChatHistoryItem[] {
  const history: ChatHistoryItem[] = messages.map((message): ChatHistoryItem => {
    switch (message.role) {
      case "system":
        return { type: "system", text: message.content };
      case "user":
        return { type: "user", text: message.content };
      case "assistant":
        return { type: "model", response: [message.content] };
    }
  });
  // The model's turn to write: an empty answer the generation fills.
  history.push({ type: "model", response: [] });
  return history;
}

/**
 * The `native` provider: a GGUF model run inside the server by llama.cpp (node-llama-cpp). The model is loaded on
 * the first answer, stays in memory while answers keep coming and is unloaded `idleSeconds` after the last one;
 * answers are generated one at a time (a second one waits for the first). The chat format is the model's own
 * (its chat template, else one node-llama-cpp picks from the model's name and architecture). Images are ignored.
 */
export function nativeChatModel(options: NativeChatModelOptions): ChatModel {
  const contextWindow = Math.max(1, Math.floor(options.contextWindow));
  const maxTokens = Math.max(
    1,
    Math.min(options.maxTokens ?? DEFAULT_MAX_TOKENS, Math.floor(contextWindow / 2)),
  );
  return {
    providerId: "native",
    modelId: options.modelId,
    contextWindow,
    maxTokens,
    async *stream(request: ChatRequest, signal: AbortSignal): AsyncIterable<ChatPart> {
      const path = await nativeModelPath(options.modelsDir, options.modelId);
      const lease = await acquire({
        path,
        contextSize: contextWindow,
        modelName: options.modelId,
        idleSeconds: options.idleSeconds ?? DEFAULT_IDLE_SECONDS,
      }, signal);
      // Stops the generation when the caller aborts or stops reading.
      const stop = new AbortController();
      const generationSignal = AbortSignal.any([signal, stop.signal]);
      const pending: string[] = [];
      let wake: (() => void) | undefined;
      let outputTokens = 0;
      let generation: Promise<void> | undefined;
      try {
        const history = toHistory(request.messages);
        const inputTokens = lease.chat.chatWrapper.generateContextState({ chatHistory: history }).contextText
          .tokenize(lease.model.tokenizer).length;
        let finished = false;
        let failure: unknown;
        generation = lease.chat.generateResponse(history, {
          signal: generationSignal,
          maxTokens: Math.max(1, Math.min(request.maxTokens ?? maxTokens, maxTokens)),
          temperature: request.temperature ?? DEFAULT_TEMPERATURE,
          onTextChunk(text) {
            if (!text) return;
            pending.push(text);
            wake?.();
          },
          onToken(tokens) {
            outputTokens += tokens.length;
          },
        }).then(
          () => {
            finished = true;
            wake?.();
          },
          (error) => {
            failure = error;
            finished = true;
            wake?.();
          },
        );
        while (true) {
          if (pending.length > 0) {
            yield { type: "text-delta", text: pending.splice(0).join("") };
            continue;
          }
          if (finished) break;
          await new Promise<void>((resolve) => wake = resolve);
          wake = undefined;
        }
        if (signal.aborted) throw signal.reason;
        if (failure !== undefined) {
          throw new ProviderError(
            `The local model ${options.modelId} failed: ${sentence(messageOf(failure))}`,
            undefined,
            { cause: failure },
          );
        }
        yield { type: "usage", inputTokens, outputTokens };
      } finally {
        stop.abort();
        await generation;
        lease.release();
      }
    },
  };
}
