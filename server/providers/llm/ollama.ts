import { ProviderError } from "../../errors.ts";
import type { ChatMessage, ChatModel, ChatPart, ChatRequest } from "./types.ts";

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
  return {
    providerId: "ollama",
    modelId: options.modelId,
    contextWindow,
    maxTokens: Math.min(options.maxTokens, Math.floor(contextWindow / 2)),
    async *stream(request: ChatRequest, signal: AbortSignal): AsyncIterable<ChatPart> {
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
            messages: request.messages.map(toOllamaMessage),
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
        throw new ProviderError(
          `Ollama answered ${response.status}: ${message || response.statusText}`,
          response.status,
        );
      }
      for await (const part of ndjson(response.body)) {
        if (typeof part.error === "string") throw new ProviderError(part.error);
        const content = (part.message as { content?: string } | undefined)?.content;
        if (content) yield { type: "text-delta", text: content };
        if (part.done === true && typeof part.prompt_eval_count === "number") {
          yield {
            type: "usage",
            inputTokens: part.prompt_eval_count,
            outputTokens: Number(part.eval_count ?? 0),
          };
        }
      }
    },
  };
}
