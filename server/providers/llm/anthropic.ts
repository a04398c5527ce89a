import type Anthropic from "@anthropic-ai/sdk";
import { ProviderError } from "../../errors.ts";
import type {
  ChatMessage,
  ChatModel,
  ChatPart,
  ChatRequest,
  ToolCallRequest,
  ToolChatMessage,
  ToolChatPart,
  ToolChatRequest,
} from "./types.ts";

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

type ToolTurn = Anthropic.MessageParam;
type ToolBlock = Anthropic.ToolUseBlockParam | Anthropic.ToolResultBlockParam | Anthropic.TextBlockParam;

/**
 * A tool-calling conversation as Messages API turns: the system prompt apart, a call as a `tool_use` block of
 * the assistant's turn, its result as a `tool_result` block of the next user turn (the results of one turn's
 * calls together, as the API wants them).
 */
export function toAnthropicToolTurns(messages: ToolChatMessage[]): { system: string; turns: ToolTurn[] } {
  const system = messages.filter((message) => message.role === "system").map((message) => message.content)
    .join("\n\n");
  const turns: ToolTurn[] = [];
  const push = (role: "user" | "assistant", blocks: ToolBlock[]) => {
    const last = turns.at(-1);
    if (last && last.role === role && Array.isArray(last.content)) {
      (last.content as ToolBlock[]).push(...blocks);
    } else turns.push({ role, content: blocks });
  };
  for (const message of messages) {
    if (message.role === "system") continue;
    if (message.role === "tool") {
      push("user", [{
        type: "tool_result",
        tool_use_id: message.toolCallId,
        content: message.content,
        ...(message.isError ? { is_error: true } : {}),
      }]);
    } else if (message.role === "assistant") {
      const blocks: ToolBlock[] = message.content ? [{ type: "text", text: message.content }] : [];
      for (const call of message.toolCalls ?? []) {
        blocks.push({ type: "tool_use", id: call.id, name: call.name, input: parseInput(call.arguments) });
      }
      if (blocks.length) push("assistant", blocks);
    } else if (message.content) push("user", [{ type: "text", text: message.content }]);
  }
  return { system, turns };
}

function parseInput(text: string): unknown {
  try {
    const value = JSON.parse(text || "{}");
    return typeof value === "object" && value !== null && !Array.isArray(value) ? value : {};
  } catch {
    return {};
  }
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
  const clientOf = (module: Sdk) =>
    client ??= new module.default({
      apiKey: options.apiKey,
      baseURL: options.baseURL,
      maxRetries: 1,
      fetch: options.fetch,
    });
  return {
    providerId: "anthropic",
    modelId: options.modelId,
    contextWindow: options.contextWindow,
    maxTokens: options.maxTokens,
    /** Tool calls as the Messages API streams them: `tool_use` blocks, their input in `input_json_delta` pieces. */
    async *streamWithTools(request: ToolChatRequest, signal: AbortSignal): AsyncIterable<ToolChatPart> {
      const module = await loadSdk();
      const sdk = clientOf(module);
      const { system, turns } = toAnthropicToolTurns(request.messages);
      const calls = new Map<number, ToolCallRequest>();
      try {
        const stream = sdk.messages.stream({
          model: options.modelId,
          max_tokens: request.maxTokens ?? options.maxTokens,
          system: system || undefined,
          messages: turns,
          tools: request.tools.map((tool) => ({
            name: tool.name,
            description: tool.description,
            input_schema: { type: "object" as const, ...tool.parameters },
          })),
          ...(request.temperature === undefined ? {} : { temperature: Math.min(1, request.temperature) }),
        }, { signal });
        let inputTokens = 0;
        for await (const event of stream) {
          if (event.type === "message_start") inputTokens = event.message.usage.input_tokens;
          if (event.type === "content_block_start" && event.content_block.type === "tool_use") {
            const block = event.content_block;
            calls.set(event.index, { id: block.id, name: block.name, arguments: "" });
          }
          if (event.type === "content_block_delta") {
            if (event.delta.type === "text_delta") yield { type: "text-delta", text: event.delta.text };
            else if (event.delta.type === "input_json_delta") {
              const call = calls.get(event.index);
              if (call) call.arguments += event.delta.partial_json;
            }
          }
          if (event.type === "message_delta") {
            yield { type: "usage", inputTokens, outputTokens: event.usage.output_tokens };
          }
        }
      } catch (error) {
        throw providerError(module, error);
      }
      for (const [, call] of [...calls.entries()].sort(([a], [b]) => a - b)) {
        yield { type: "tool-call", ...call, arguments: call.arguments || "{}" };
      }
    },
    async *stream(request: ChatRequest, signal: AbortSignal): AsyncIterable<ChatPart> {
      const module = await loadSdk();
      const client = clientOf(module);
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
