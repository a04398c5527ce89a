import OpenAI from "openai";
import { ProviderError } from "../../errors.ts";
import type { ChatModel, ChatPart, ChatRequest } from "./types.ts";

export interface OpenAiCompatibleOptions {
  providerId: string;
  baseURL: string;
  apiKey?: string;
  modelId: string;
  contextWindow: number;
  maxTokens?: number;
  fetch?: typeof fetch;
}

/** Turns an SDK failure into the provider's own message, the text the abort frame carries. */
export function providerErrorFrom(error: unknown, baseURL: string): Error {
  if (error instanceof OpenAI.APIUserAbortError) return error;
  if (error instanceof OpenAI.APIConnectionError) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : "";
    return new ProviderError(`Could not connect to ${baseURL}${cause}`, undefined, { cause: error });
  }
  if (error instanceof OpenAI.APIError) {
    return new ProviderError(error.message, error.status, { cause: error });
  }
  return error instanceof Error ? error : new ProviderError(String(error));
}

export function openAiClient(options: { baseURL: string; apiKey?: string; fetch?: typeof fetch }): OpenAI {
  return new OpenAI({
    baseURL: options.baseURL,
    // Local servers take any key; the SDK insists on one.
    apiKey: options.apiKey || "not-needed",
    maxRetries: 1,
    timeout: 10 * 60 * 1000,
    fetch: options.fetch,
  });
}

/** A chat model behind any OpenAI-compatible `/chat/completions` endpoint, streamed. */
export function openAiCompatibleChatModel(options: OpenAiCompatibleOptions): ChatModel {
  const client = openAiClient(options);
  return {
    providerId: options.providerId,
    modelId: options.modelId,
    contextWindow: options.contextWindow,
    async *stream(request: ChatRequest, signal: AbortSignal): AsyncIterable<ChatPart> {
      let reasoning = false;
      try {
        const stream = await client.chat.completions.create({
          model: options.modelId,
          messages: request.messages,
          stream: true,
          temperature: request.temperature,
          max_tokens: request.maxTokens ?? options.maxTokens,
        }, { signal });
        for await (const chunk of stream) {
          const delta = chunk.choices?.[0]?.delta as
            | { content?: string | null; reasoning_content?: string | null; reasoning?: string | null }
            | undefined;
          const thought = delta?.reasoning_content ?? delta?.reasoning;
          if (thought) {
            yield { type: "text-delta", text: reasoning ? thought : `<think>${thought}` };
            reasoning = true;
          }
          if (delta?.content) {
            if (reasoning) {
              yield { type: "text-delta", text: "</think>" };
              reasoning = false;
            }
            yield { type: "text-delta", text: delta.content };
          }
          if (chunk.usage) {
            yield {
              type: "usage",
              inputTokens: chunk.usage.prompt_tokens ?? 0,
              outputTokens: chunk.usage.completion_tokens ?? 0,
            };
          }
        }
        if (reasoning) yield { type: "text-delta", text: "</think>" };
      } catch (error) {
        throw providerErrorFrom(error, options.baseURL);
      }
    },
  };
}
