import { ProviderError } from "../../errors.ts";
import type { ModelInfo } from "./types.ts";
import type { ChatMessage, ChatModel, ChatPart, ChatRequest } from "./types.ts";
import {
  asSentence,
  errorFromResponse,
  expectContentType,
  getJsonList,
  providerCall,
  sseJson,
  thinkTags,
} from "./wire.ts";

export const COHERE_BASE_URL = "https://api.cohere.com";

export interface CohereOptions {
  apiKey: string;
  /** `command-r` and the like. */
  modelId: string;
  contextWindow: number;
  maxTokens: number;
  /** The API's address without a version (tests: the loopback fake). */
  baseURL?: string;
  fetch?: typeof fetch;
  /** How long one answer may take in all. */
  timeoutMs?: number;
}

const NAME = "Cohere";
const cohereErrorText = (body: Record<string, unknown>) => body.message;

/** Cohere v2 messages: the same three roles; a user turn with images becomes text and image_url parts. */
export function toCohereMessages(messages: ChatMessage[]) {
  return messages.map((message) => {
    if (!message.images?.length || message.role !== "user") {
      return { role: message.role, content: message.content };
    }
    return {
      role: message.role,
      content: [
        { type: "text", text: message.content },
        ...message.images.map((image) => ({ type: "image_url", image_url: { url: image.dataUrl } })),
      ],
    };
  });
}

interface CohereEvent {
  type?: string;
  delta?: {
    message?: { content?: { text?: string; thinking?: string } };
    finish_reason?: string;
    usage?: {
      tokens?: { input_tokens?: number; output_tokens?: number };
      billed_units?: { input_tokens?: number; output_tokens?: number };
    };
    error?: string;
  };
  message?: string;
}

/** Cohere's v2 Chat API, streamed as server-sent events (`content-delta` … `message-end`). */
export function cohereChatModel(options: CohereOptions): ChatModel {
  const baseURL = (options.baseURL ?? COHERE_BASE_URL).replace(/\/+$/, "");
  const doFetch = options.fetch ?? fetch;
  return {
    providerId: "cohere",
    modelId: options.modelId,
    contextWindow: options.contextWindow,
    maxTokens: options.maxTokens,
    async *stream(request: ChatRequest, signal: AbortSignal): AsyncIterable<ChatPart> {
      const call = providerCall(NAME, signal, options.timeoutMs);
      let response: Response;
      try {
        response = await doFetch(`${baseURL}/v2/chat`, {
          method: "POST",
          headers: {
            "Content-Type": "application/json",
            Accept: "text/event-stream",
            Authorization: `Bearer ${options.apiKey}`,
          },
          body: JSON.stringify({
            model: options.modelId,
            messages: toCohereMessages(request.messages),
            stream: true,
            max_tokens: request.maxTokens ?? options.maxTokens,
            ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
          }),
          signal: call.signal,
        });
      } catch (error) {
        throw call.failure(error, "connect");
      }
      if (!response.ok) throw await errorFromResponse(NAME, response, cohereErrorText);
      await expectContentType(NAME, response, "text/event-stream");
      const think = thinkTags();
      let finished = false;
      let usage: { inputTokens: number; outputTokens: number } | undefined;
      try {
        for await (const { event, data } of sseJson(NAME, response.body!)) {
          const part = data as CohereEvent;
          const type = part.type ?? event;
          if (type === "content-delta") {
            const content = part.delta?.message?.content;
            if (content?.thinking) yield { type: "text-delta", text: think.thought(content.thinking) };
            if (content?.text) yield { type: "text-delta", text: think.text(content.text) };
          } else if (type === "message-end") {
            const reason = part.delta?.finish_reason;
            if (reason === "ERROR") {
              throw new ProviderError(
                `Cohere could not finish the answer: ${asSentence(part.delta?.error ?? "no reason given")}`,
              );
            }
            const counts = part.delta?.usage?.tokens ?? part.delta?.usage?.billed_units;
            if (counts) {
              usage = { inputTokens: counts.input_tokens ?? 0, outputTokens: counts.output_tokens ?? 0 };
            }
            finished = true;
          } else if (type === "error") {
            throw new ProviderError(`Cohere failed: ${asSentence(part.message ?? "no reason given")}`);
          }
        }
      } catch (error) {
        throw call.failure(error, "read");
      }
      const closing = think.close();
      if (closing) yield { type: "text-delta", text: closing };
      if (!finished) throw new ProviderError("The answer from Cohere ended before it was complete.");
      if (usage) yield { type: "usage", ...usage };
    },
  };
}

export interface CohereModelInfo extends ModelInfo {
  contextWindow?: number;
}

export interface CohereLookupOptions {
  /** The key typed in or stored; no key, no list. */
  apiKey?: string;
  baseURL?: string;
  fetch?: typeof fetch;
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** The models that serve the chat endpoint (`GET /v1/models?endpoint=chat`), with their context lengths. */
export async function cohereModels(options: CohereLookupOptions): Promise<CohereModelInfo[]> {
  if (!options.apiKey) return [];
  const baseURL = (options.baseURL ?? COHERE_BASE_URL).replace(/\/+$/, "");
  const body = await getJsonList(
    NAME,
    `${baseURL}/v1/models?page_size=1000&endpoint=chat`,
    { Authorization: `Bearer ${options.apiKey}` },
    options,
    cohereErrorText,
  );
  const models = Array.isArray(body.models)
    ? body.models as { name?: unknown; context_length?: unknown }[]
    : [];
  return models.filter((model) => typeof model.name === "string").map((model) => ({
    id: model.name as string,
    name: model.name as string,
    ...(typeof model.context_length === "number" ? { contextWindow: model.context_length } : {}),
  }));
}
