import type Anthropic from "@anthropic-ai/sdk";
import { ProviderError } from "../../errors.ts";
import type { ChatMessage, ChatModel, ChatPart, ChatRequest } from "./types.ts";

export interface AnthropicOptions {
  apiKey: string;
  modelId: string;
  contextWindow: number;
  maxTokens: number;
  /** For tests: the API's address (the SDK's default is https://api.anthropic.com). */
  baseURL?: string;
  fetch?: typeof fetch;
}

type Sdk = typeof import("@anthropic-ai/sdk");
let sdk: Promise<Sdk> | null = null;
// The SDK loads on the first call, not at start.
const loadSdk = () => (sdk ??= import("@anthropic-ai/sdk"));

/** Anthropic keeps the system prompt apart and takes images as base64 blocks. */
function toAnthropic(messages: ChatMessage[]) {
  const system = messages.filter((message) => message.role === "system").map((message) => message.content)
    .join("\n\n");
  const turns = messages.filter((message) => message.role !== "system").map((message) => {
    if (!message.images?.length) {
      return { role: message.role as "user" | "assistant", content: message.content };
    }
    return {
      role: message.role as "user" | "assistant",
      content: [
        ...message.images.map((image) => ({
          type: "image" as const,
          source: {
            type: "base64" as const,
            media_type: image.mime as "image/png" | "image/jpeg" | "image/gif" | "image/webp",
            data: image.dataUrl.replace(/^data:[^,]*,/, ""),
          },
        })),
        { type: "text" as const, text: message.content },
      ],
    };
  });
  return { system, turns };
}

function providerError(module: Sdk, error: unknown): Error {
  const { APIConnectionError, APIError, APIUserAbortError } = module.default;
  if (error instanceof APIUserAbortError) return error;
  if (error instanceof APIConnectionError) {
    return new ProviderError(`Could not connect to Anthropic: ${error.message}`);
  }
  if (error instanceof APIError) return new ProviderError(error.message, error.status, { cause: error });
  return error instanceof Error ? error : new ProviderError(String(error));
}

/** Anthropic's Messages API, streamed with the official SDK. */
export function anthropicChatModel(options: AnthropicOptions): ChatModel {
  let client: Anthropic | null = null;
  return {
    providerId: "anthropic",
    modelId: options.modelId,
    contextWindow: options.contextWindow,
    maxTokens: options.maxTokens,
    async *stream(request: ChatRequest, signal: AbortSignal): AsyncIterable<ChatPart> {
      const module = await loadSdk();
      client ??= new module.default({
        apiKey: options.apiKey,
        baseURL: options.baseURL,
        maxRetries: 1,
        fetch: options.fetch,
      });
      const { system, turns } = toAnthropic(request.messages);
      try {
        const stream = client.messages.stream({
          model: options.modelId,
          max_tokens: request.maxTokens ?? options.maxTokens,
          system: system || undefined,
          messages: turns,
          ...(request.temperature === undefined ? {} : { temperature: Math.min(1, request.temperature) }),
        }, { signal });
        let inputTokens = 0;
        for await (const event of stream) {
          if (event.type === "message_start") inputTokens = event.message.usage.input_tokens;
          if (event.type === "content_block_delta" && event.delta.type === "text_delta") {
            yield { type: "text-delta", text: event.delta.text };
          }
          if (event.type === "message_delta") {
            yield { type: "usage", inputTokens, outputTokens: event.usage.output_tokens };
          }
        }
      } catch (error) {
        throw providerError(module, error);
      }
    },
  };
}
