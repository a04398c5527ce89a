import type OpenAI from "openai";
import { messageOf, ProviderError } from "../../errors.ts";
import { mark } from "../../http/timing.ts";
import { SseEventReader } from "./sse_reader.ts";
import { ContentDeltas } from "./content_deltas.ts";
import type { EventSourceMessage } from "eventsource-parser";
import type {
  ChatModel,
  ChatPart,
  ChatRequest,
  ToolCallRequest,
  ToolChatMessage,
  ToolChatPart,
  ToolChatRequest,
} from "./types.ts";

export interface OpenAiCompatibleOptions {
  providerId: string;
  /** The provider's name, which its errors carry ("Together AI answered with an error: …"). */
  providerName?: string;
  baseURL: string;
  apiKey?: string;
  modelId: string;
  contextWindow: number;
  maxTokens: number;
  /** Azure OpenAI: `baseURL` is the resource endpoint and `modelId` the deployment. */
  azure?: { apiVersion: string };
  /** Headers every request carries (OpenRouter's attribution). */
  headers?: Readonly<Record<string, string>>;
  /**
   * Milliseconds of quiet after which a stream that already yielded something is taken as complete: some
   * models behind OpenRouter and Novita never send a finish reason (the reference's OPENROUTER_TIMEOUT_MS).
   */
  staleCloseMs?: number;
  /** Asks for the token counts at the end of the stream (hosted vendors; local servers send them unasked). */
  requestUsage?: boolean;
  fetch?: typeof fetch;
}

type Sdk = typeof import("openai");
let sdk: Promise<Sdk> | null = null;
// The SDK loads on the first provider call, not at start.
const loadSdk = () => (sdk ??= import("openai"));

/** Turns an SDK failure into the provider's own message, the text the abort frame carries. */
export function providerErrorFrom(
  module: Sdk,
  error: unknown,
  baseURL: string,
  providerName?: string,
): Error {
  const { APIConnectionError, APIError, APIUserAbortError } = module.default;
  if (error instanceof APIUserAbortError) return error;
  if (error instanceof APIConnectionError) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : "";
    return new ProviderError(`Could not connect to ${baseURL}${cause}`, undefined, { cause: error });
  }
  if (error instanceof APIError) {
    if (!providerName) return new ProviderError(error.message, error.status, { cause: error });
    const text = /[.!?]$/.test(error.message) ? error.message : `${error.message}.`;
    return new ProviderError(`${providerName} answered with an error: ${text}`, error.status, {
      cause: error,
    });
  }
  return error instanceof Error ? error : new ProviderError(String(error));
}

/**
 * Under this key of a request's `fetchOptions`, a function called when the SDK hands the request to fetch: its
 * own work to build the request is then done (ChatRequest.onAsked, server/chat/admission.ts). The SDK copies
 * the request's fetch options into the fetch call's init; if it ever stops, the response's headers count instead.
 */
const ON_FETCH: unique symbol = Symbol("on-fetch");

/** `fetch` (the given one, or the global one at call time) calling the request's ON_FETCH first. */
function announcingFetch(own: typeof fetch | undefined): typeof fetch {
  return (input, init) => {
    (init as { [ON_FETCH]?: () => void } | undefined)?.[ON_FETCH]?.();
    return (own ?? fetch)(input, init);
  };
}

/** One SDK client per configuration, created on first use; calls run through `call` with errors mapped. */
export function lazyOpenAiClient(
  options: {
    baseURL: string;
    apiKey?: string;
    fetch?: typeof fetch;
    azure?: { apiVersion: string; deployment: string };
    headers?: Readonly<Record<string, string>>;
    providerName?: string;
  },
) {
  let client: OpenAI | null = null;
  return async function call<T>(work: (client: OpenAI) => Promise<T>): Promise<T> {
    const module = await loadSdk();
    const common = {
      // Local servers take any key; the SDK insists on one.
      apiKey: options.apiKey || "not-needed",
      maxRetries: 1,
      timeout: 10 * 60 * 1000,
      fetch: announcingFetch(options.fetch),
      defaultHeaders: options.headers,
    };
    client ??= options.azure
      ? new module.AzureOpenAI({
        ...common,
        endpoint: options.baseURL,
        apiVersion: options.azure.apiVersion,
        deployment: options.azure.deployment,
      })
      : new module.default({ ...common, baseURL: options.baseURL });
    try {
      return await work(client);
    } catch (error) {
      throw providerErrorFrom(module, error, options.baseURL, options.providerName);
    }
  };
}

/** Text, or text and images as content parts (the OpenAI vision format). */
function toOpenAiMessage(message: ChatRequest["messages"][number]) {
  if (!message.images?.length || message.role !== "user") {
    return { role: message.role, content: message.content };
  }
  return {
    role: "user" as const,
    content: [
      { type: "text" as const, text: message.content },
      ...message.images.map((image) => ({ type: "image_url" as const, image_url: { url: image.dataUrl } })),
    ],
  };
}

/** A message of a tool-calling conversation in the OpenAI format. */
function toOpenAiToolMessage(message: ToolChatMessage): OpenAI.Chat.Completions.ChatCompletionMessageParam {
  if (message.role === "tool") {
    return { role: "tool", tool_call_id: message.toolCallId, content: message.content };
  }
  if (message.role === "assistant" && message.toolCalls?.length) {
    return {
      role: "assistant",
      content: message.content || null,
      tool_calls: message.toolCalls.map((call) => ({
        id: call.id,
        type: "function" as const,
        function: { name: call.name, arguments: call.arguments },
      })),
    };
  }
  return { role: message.role, content: message.content };
}

type ToolDelta = { index?: number; id?: string; function?: { name?: string; arguments?: string } };

type Delta = { content?: string | null; reasoning_content?: string | null; reasoning?: string | null };

type Chunk = OpenAI.Chat.Completions.ChatCompletionChunk;

/**
 * One event's completion chunk, or null for an event that carries none (a named `thread.*` event). An error
 * event, or a chunk with an `error`, throws the provider's error as the SDK would have (the SDK's APIError,
 * mapped by providerErrorFrom); data that is not JSON throws the SDK's own words.
 */
function chunkOf(
  module: Sdk,
  event: { event?: string; data: string },
  response: Response,
  options: OpenAiCompatibleOptions,
): Chunk | null {
  let data;
  try {
    data = JSON.parse(event.data);
  } catch {
    throw new ProviderError(
      `The answer from ${options.baseURL} broke off: Error reading response: malformed server-sent event JSON.`,
    );
  }
  if (event.event?.startsWith("thread.")) return null;
  if (event.event === "error" || data?.error) {
    const error = new module.default.APIError(
      undefined,
      event.event === "error" ? data?.error ?? data : data.error,
      undefined,
      response.headers,
    );
    throw providerErrorFrom(module, error, options.baseURL, options.providerName);
  }
  return data as Chunk;
}

/** One text part of the texts that came together: their pieces kept apart when there are several. */
function textPart(texts: string[]): ChatPart {
  return texts.length === 1
    ? { type: "text-delta", text: texts[0] }
    : { type: "text-delta", text: texts.join(""), pieces: texts };
}

/** The next chunk, or "stale" when none comes within `ms` (the pending read is left to the abort). */
function staleAfter<T>(next: Promise<T>, ms: number): Promise<T | "stale"> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stale = new Promise<"stale">((resolve) => {
    timer = setTimeout(() => resolve("stale"), ms);
  });
  next.catch(() => {});
  return Promise.race([next, stale]).finally(() => clearTimeout(timer));
}

/** A chat model behind any OpenAI-compatible `/chat/completions` endpoint, streamed. */
export function openAiCompatibleChatModel(options: OpenAiCompatibleOptions): ChatModel {
  const call = lazyOpenAiClient({
    ...options,
    azure: options.azure ? { ...options.azure, deployment: options.modelId } : undefined,
  });
  return {
    providerId: options.providerId,
    modelId: options.modelId,
    contextWindow: options.contextWindow,
    maxTokens: options.maxTokens,
    /** Tool calls as OpenAI streams them: `delta.tool_calls` pieces by index, the arguments in fragments. */
    async *streamWithTools(request: ToolChatRequest, signal: AbortSignal): AsyncIterable<ToolChatPart> {
      const stream = await call((client) =>
        client.chat.completions.create({
          model: options.modelId,
          messages: request.messages.map(toOpenAiToolMessage),
          tools: request.tools.map((tool) => ({
            type: "function" as const,
            function: { name: tool.name, description: tool.description, parameters: tool.parameters },
          })),
          stream: true,
          stream_options: options.requestUsage ? { include_usage: true } : undefined,
          temperature: request.temperature,
          max_tokens: request.maxTokens ?? options.maxTokens,
        }, { signal })
      );
      const iterator = stream[Symbol.asyncIterator]();
      const calls = new Map<number, ToolCallRequest>();
      let finished = false;
      while (true) {
        const next = await call(() => iterator.next());
        if (next.done) break;
        const chunk = next.value;
        if (chunk.choices?.[0]?.finish_reason) finished = true;
        const delta = chunk.choices?.[0]?.delta as (Delta & { tool_calls?: ToolDelta[] }) | undefined;
        if (delta?.content) yield { type: "text-delta", text: delta.content };
        for (const piece of delta?.tool_calls ?? []) {
          const index = piece.index ?? calls.size;
          const known = calls.get(index) ?? { id: "", name: "", arguments: "" };
          if (piece.id) known.id = piece.id;
          if (piece.function?.name) known.name += piece.function.name;
          if (piece.function?.arguments) known.arguments += piece.function.arguments;
          calls.set(index, known);
        }
        if (chunk.usage) {
          yield {
            type: "usage",
            inputTokens: chunk.usage.prompt_tokens ?? 0,
            outputTokens: chunk.usage.completion_tokens ?? 0,
          };
        }
      }
      if (!finished) {
        throw new ProviderError(`The answer from ${options.baseURL} ended before it was complete.`);
      }
      for (const [index, found] of [...calls.entries()].sort(([a], [b]) => a - b)) {
        yield { type: "tool-call", ...found, id: found.id || `call_${index}` };
      }
    },
    async *stream(request: ChatRequest, signal: AbortSignal): AsyncIterable<ChatPart> {
      // The caller's signal as it is, with no signal of this stream's own joined to it (`AbortSignal.any`): a
      // stale stream taken as complete is closed by cancelling its body (batches.close(), below), which ends the
      // connection as an abort would. Hundreds of answers at once each had one more dependent signal for the GC.
      const module = await loadSdk();
      // The SDK sends the request (retries, errors); its body is read here (sse_reader.ts), with less work per token.
      const response = await call((client) =>
        client.chat.completions.create({
          model: options.modelId,
          messages: request.messages.map(toOpenAiMessage),
          stream: true,
          stream_options: options.requestUsage ? { include_usage: true } : undefined,
          temperature: request.temperature,
          max_tokens: request.maxTokens ?? options.maxTokens,
        }, { signal, fetchOptions: { [ON_FETCH]: request.onAsked } as Record<never, never> }).asResponse()
      );
      mark("answer headers");
      request.onAsked?.();
      if (!response.body) {
        throw new ProviderError(`The answer from ${options.baseURL} has no body.`);
      }
      const batches = new SseEventReader(response.body, signal);
      const deltas = new ContentDeltas();
      let reasoning = false;
      // A complete answer ends with a finish reason; a stream that stops without one was cut off.
      let finished = false;
      let yielded = false;
      let ended = false;
      try {
        while (!ended) {
          let next: EventSourceMessage[] | null | "stale";
          try {
            next = await (options.staleCloseMs && yielded
              ? staleAfter(batches.next(), options.staleCloseMs)
              : batches.next());
          } catch (error) {
            if (signal.aborted) throw error;
            const mapped = providerErrorFrom(module, error, options.baseURL, options.providerName);
            if (mapped instanceof ProviderError) throw mapped;
            throw new ProviderError(
              `The answer from ${options.baseURL} broke off: ${messageOf(error)}`,
              undefined,
              { cause: error },
            );
          }
          if (next === "stale") {
            // Taken as complete, as the reference does: the text so far is the answer.
            finished = true;
            break;
          }
          if (next === null) break;
          // The texts of the events that came in one read: one part (its pieces kept apart, each its own chunk
          // frame: server/chat/answer.ts) rather than a part each, so the layers above do their work once.
          let texts: string[] = [];
          let failure: unknown = null;
          for (const event of next) {
            if (event.data === "[DONE]") {
              ended = true;
              break;
            }
            // Most events only bring the next text: read without parsing the whole event (content_deltas.ts).
            const text = event.event === undefined ? deltas.content(event.data) : undefined;
            if (text !== undefined) {
              if (text === "") continue;
              yielded = true;
              if (reasoning) {
                texts.push("</think>");
                reasoning = false;
              }
              texts.push(text);
              continue;
            }
            let chunk: Chunk | null;
            try {
              chunk = chunkOf(module, event, response, options);
            } catch (error) {
              // The texts before it were sent as they came: they still are, then the failure.
              failure = error;
              break;
            }
            if (chunk === null) continue;
            if (event.event === undefined) deltas.learn(event.data, chunk);
            if (chunk.choices?.[0]?.finish_reason) finished = true;
            const delta = chunk.choices?.[0]?.delta as Delta | undefined;
            const thought = delta?.reasoning_content ?? delta?.reasoning;
            if (thought || delta?.content) yielded = true;
            if (thought) {
              texts.push(reasoning ? thought : `<think>${thought}`);
              reasoning = true;
            }
            if (delta?.content) {
              if (reasoning) {
                texts.push("</think>");
                reasoning = false;
              }
              texts.push(delta.content);
            }
            if (chunk.usage) {
              // In order: the texts before it, then the counts (a later text, rare, goes in a part after them).
              if (texts.length > 0) yield textPart(texts);
              texts = [];
              yield {
                type: "usage",
                inputTokens: chunk.usage.prompt_tokens ?? 0,
                outputTokens: chunk.usage.completion_tokens ?? 0,
              };
            }
          }
          if (texts.length > 0) yield textPart(texts);
          if (failure !== null) throw failure;
        }
      } finally {
        // Left early (the client went, a time-out) or done: the body is not read any further.
        batches.close();
      }
      if (reasoning) yield { type: "text-delta", text: "</think>" };
      if (!finished) {
        const type = response.headers.get("content-type")?.split(";")[0].trim();
        if (type !== "text/event-stream") {
          throw new ProviderError(
            `${options.baseURL} answered with ${
              type || "no content type"
            } instead of a stream of tokens: is it an OpenAI-compatible API, and is the base path right?`,
          );
        }
        throw new ProviderError(`The answer from ${options.baseURL} ended before it was complete.`);
      }
    },
  };
}
