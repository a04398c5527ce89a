import { ProviderError, ToolsUnsupportedError } from "../../errors.ts";
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

export interface OllamaOptions {
  baseURL: string;
  modelId: string;
  contextWindow: number;
  maxTokens: number;
  /** Seconds Ollama keeps the model loaded after a request; -1 forever, 0 unload at once. */
  keepAliveSeconds: number;
  /** "base" limits the context to 2048 tokens; "maximum" uses the whole window. */
  performanceMode: "base" | "maximum";
  authToken?: string;
  fetch?: typeof fetch;
}

/** Ollama wants the images of a message as bare base64, without the data-URL prefix. */
function toOllamaMessage(message: ChatMessage) {
  const images = message.images?.map((image) => image.dataUrl.replace(/^data:[^,]*,/, ""));
  return images?.length
    ? { role: message.role, content: message.content, images }
    : { role: message.role, content: message.content };
}

/** A tool-calling message as `/api/chat` takes it: calls with their arguments as objects, results by tool name. */
export function toOllamaToolMessage(message: ToolChatMessage) {
  if (message.role === "tool") {
    return { role: "tool", content: message.content, tool_name: message.name };
  }
  if (message.role === "assistant" && message.toolCalls?.length) {
    return {
      role: "assistant",
      content: message.content,
      tool_calls: message.toolCalls.map((call) => {
        let args: unknown = {};
        try {
          args = JSON.parse(call.arguments || "{}");
        } catch {
          // sent as no arguments
        }
        return { function: { name: call.name, arguments: args } };
      }),
    };
  }
  return { role: message.role, content: message.content };
}

/** Reads newline-delimited JSON from a stream, one object per line. */
async function* ndjson(
  body: ReadableStream<Uint8Array<ArrayBuffer>>,
): AsyncGenerator<Record<string, unknown>> {
  let buffer = "";
  for await (const text of body.pipeThrough(new TextDecoderStream())) {
    buffer += text;
    let newline: number;
    while ((newline = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, newline).trim();
      buffer = buffer.slice(newline + 1);
      if (line) yield JSON.parse(line);
    }
  }
  if (buffer.trim()) yield JSON.parse(buffer);
}

/**
 * Ollama through its native `/api/chat`, which (unlike its OpenAI-compatible endpoint) takes `keep_alive` and
 * the context size (`options.num_ctx`).
 */
export function ollamaChatModel(options: OllamaOptions): ChatModel {
  const doFetch = options.fetch ?? fetch;
  const contextWindow = options.performanceMode === "base"
    ? Math.min(2048, options.contextWindow)
    : options.contextWindow;
  /** POSTs to `/api/chat` and returns the answer's stream; an error answer throws its message. */
  async function post(
    fields: Record<string, unknown>,
    request: { temperature?: number; maxTokens?: number },
    signal: AbortSignal,
  ): Promise<ReadableStream<Uint8Array<ArrayBuffer>>> {
    let response: Response;
    try {
      response = await doFetch(`${options.baseURL}/api/chat`, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          ...(options.authToken ? { Authorization: `Bearer ${options.authToken}` } : {}),
        },
        body: JSON.stringify({
          model: options.modelId,
          ...fields,
          stream: true,
          keep_alive: options.keepAliveSeconds,
          options: {
            num_ctx: contextWindow,
            num_predict: request.maxTokens,
            ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
          },
        }),
        signal,
      });
    } catch (error) {
      if (signal.aborted) throw error;
      throw new ProviderError(`Could not connect to ${options.baseURL}: ${(error as Error).message}`);
    }
    if (!response.ok || !response.body) {
      const text = await response.text().catch(() => "");
      let message = text;
      try {
        message = JSON.parse(text).error ?? text;
      } catch {
        // not JSON
      }
      const error = `Ollama answered ${response.status}: ${message || response.statusText}`;
      // A model without tool support: "registry.ollama.ai/library/gemma3:1b does not support tools".
      if (fields.tools && /does not support tools/i.test(message)) {
        throw new ToolsUnsupportedError(error, response.status);
      }
      throw new ProviderError(error, response.status);
    }
    return response.body;
  }

  /** The usage of the answer's last line; an error line throws. */
  function* usageOf(part: Record<string, unknown>): Generator<ChatPart> {
    if (typeof part.error === "string") throw new ProviderError(part.error);
    if (part.done === true && typeof part.prompt_eval_count === "number") {
      yield {
        type: "usage",
        inputTokens: part.prompt_eval_count,
        outputTokens: Number(part.eval_count ?? 0),
      };
    }
  }

  return {
    providerId: "ollama",
    modelId: options.modelId,
    contextWindow,
    maxTokens: Math.min(options.maxTokens, Math.floor(contextWindow / 2)),
    async *stream(request: ChatRequest, signal: AbortSignal): AsyncIterable<ChatPart> {
      const body = await post({ messages: request.messages.map(toOllamaMessage) }, request, signal);
      for await (const part of ndjson(body)) {
        const content = (part.message as { content?: string } | undefined)?.content;
        if (content) yield { type: "text-delta", text: content };
        yield* usageOf(part);
      }
    },
    /** Tool calls as `/api/chat` sends them: whole calls in `message.tool_calls`, their arguments as objects. */
    async *streamWithTools(request: ToolChatRequest, signal: AbortSignal): AsyncIterable<ToolChatPart> {
      const body = await post(
        {
          messages: request.messages.map(toOllamaToolMessage),
          tools: request.tools.map((tool) => ({
            type: "function",
            function: { name: tool.name, description: tool.description, parameters: tool.parameters },
          })),
        },
        request,
        signal,
      );
      const calls: ToolCallRequest[] = [];
      for await (const part of ndjson(body)) {
        const message = part.message as
          | {
            content?: string;
            tool_calls?: { id?: string; function?: { name?: string; arguments?: unknown } }[];
          }
          | undefined;
        if (message?.content) yield { type: "text-delta", text: message.content };
        for (const call of message?.tool_calls ?? []) {
          if (!call.function?.name) continue;
          const args = call.function.arguments;
          calls.push({
            id: call.id || `ollama-call-${calls.length}`,
            name: call.function.name,
            arguments: typeof args === "string" ? args : JSON.stringify(args ?? {}),
          });
        }
        yield* usageOf(part);
      }
      for (const call of calls) yield { type: "tool-call", ...call };
    },
  };
}
