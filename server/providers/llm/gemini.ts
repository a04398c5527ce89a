import { ProviderError } from "../../errors.ts";
import type { ModelInfo } from "./types.ts";
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
import {
  asSentence,
  base64Of,
  errorFromResponse,
  expectContentType,
  getJsonList,
  providerCall,
  sseJson,
  thinkTags,
} from "./wire.ts";

export const GEMINI_BASE_URL = "https://generativelanguage.googleapis.com";

/** The values of GeminiSafetySetting (spec 02 §3), applied to every harm category. */
export const GEMINI_SAFETY_SETTINGS = [
  "BLOCK_NONE",
  "BLOCK_ONLY_HIGH",
  "BLOCK_MEDIUM_AND_ABOVE",
  "BLOCK_LOW_AND_ABOVE",
] as const;
export type GeminiSafetySetting = typeof GEMINI_SAFETY_SETTINGS[number];
export const DEFAULT_GEMINI_SAFETY_SETTING: GeminiSafetySetting = "BLOCK_MEDIUM_AND_ABOVE";

/** The harm categories the Gemini API lets a caller set a threshold for. */
export const GEMINI_HARM_CATEGORIES = [
  "HARM_CATEGORY_HARASSMENT",
  "HARM_CATEGORY_HATE_SPEECH",
  "HARM_CATEGORY_SEXUALLY_EXPLICIT",
  "HARM_CATEGORY_DANGEROUS_CONTENT",
] as const;

/** Models that refuse a system instruction: it is sent as a first user turn instead (as the reference does). */
const NO_SYSTEM_INSTRUCTION = new Set(["gemma-3-1b-it", "gemma-3-4b-it", "gemma-3-12b-it", "gemma-3-27b-it"]);

/** Models that think: their thoughts are asked for and shown in `<think>`. */
const THINKING_MODEL = /^gemini-(?:2\.5|[3-9])|thinking/;

/** Reasons for which Gemini stops an answer because of what it says, not because it is done. */
const BLOCKED_FINISH = new Set([
  "SAFETY",
  "RECITATION",
  "BLOCKLIST",
  "PROHIBITED_CONTENT",
  "SPII",
  "IMAGE_SAFETY",
  "LANGUAGE",
]);

export interface GeminiOptions {
  apiKey: string;
  /** `gemini-2.5-flash` (a leading `models/` is dropped). */
  modelId: string;
  contextWindow: number;
  maxTokens: number;
  /** GeminiSafetySetting; BLOCK_MEDIUM_AND_ABOVE when not given. */
  safetySetting?: GeminiSafetySetting;
  /** Ask for the model's thoughts (shown in `<think>`); by default for the models known to think. */
  includeThoughts?: boolean;
  /** The API's address without a version (tests: the loopback fake). */
  baseURL?: string;
  fetch?: typeof fetch;
  /** How long one answer may take in all. */
  timeoutMs?: number;
}

type GeminiPart = { text: string } | { inline_data: { mime_type: string; data: string } };
interface GeminiContent {
  role: "user" | "model";
  parts: GeminiPart[];
}

const NAME = "Gemini";
const geminiErrorText = (body: Record<string, unknown>) =>
  (body.error as { message?: unknown } | undefined)?.message;
const bareModelId = (id: string) => id.replace(/^models\//, "");

/** The request body: system instruction apart, roles user/model, images as inline data. */
export function toGeminiRequest(
  messages: ChatMessage[],
  options: { modelId: string; safetySetting: GeminiSafetySetting; includeThoughts: boolean },
  request: { temperature?: number; maxTokens: number },
) {
  const system = messages.filter((message) => message.role === "system").map((message) => message.content)
    .filter(Boolean).join("\n\n");
  const contents: GeminiContent[] = [];
  const emulateSystem = Boolean(system) && NO_SYSTEM_INSTRUCTION.has(options.modelId);
  if (emulateSystem) {
    contents.push({ role: "user", parts: [{ text: system }] }, { role: "model", parts: [{ text: "Okay." }] });
  }
  for (const message of messages) {
    if (message.role === "system") continue;
    const parts: GeminiPart[] = [
      ...(message.images ?? []).map((image) => ({
        inline_data: { mime_type: image.mime, data: base64Of(image.dataUrl) },
      })),
      ...(message.content ? [{ text: message.content }] : []),
    ];
    if (parts.length) contents.push({ role: message.role === "assistant" ? "model" : "user", parts });
  }
  return {
    contents,
    ...(system && !emulateSystem ? { systemInstruction: { parts: [{ text: system }] } } : {}),
    ...requestSettings(options, request),
  };
}

function requestSettings(
  options: { safetySetting: GeminiSafetySetting; includeThoughts: boolean },
  request: { temperature?: number; maxTokens: number },
) {
  return {
    safetySettings: GEMINI_HARM_CATEGORIES.map((category) => ({
      category,
      threshold: options.safetySetting,
    })),
    generationConfig: {
      maxOutputTokens: request.maxTokens,
      ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
      ...(options.includeThoughts ? { thinkingConfig: { includeThoughts: true } } : {}),
    },
  };
}

/** Ids this adapter made up for calls Gemini gave none: never sent back to it. */
const MADE_UP_ID = "lectern-call-";

type GeminiToolPart =
  | { text: string }
  | { functionCall: { name: string; args: unknown; id?: string }; thoughtSignature?: string }
  | { functionResponse: { name: string; response: Record<string, unknown>; id?: string } };

/**
 * A tool-calling conversation as `generateContent` contents: the tools as `functionDeclarations` (their JSON
 * Schema as `parametersJsonSchema`), a call as a `functionCall` part of the model's turn (with its thought
 * signature), its result as a `functionResponse` part of the next user turn.
 */
export function toGeminiToolRequest(
  request: ToolChatRequest,
  options: { modelId: string; safetySetting: GeminiSafetySetting },
  maxTokens: number,
) {
  const system = request.messages.filter((message) => message.role === "system").map((message) =>
    message.content
  ).filter(Boolean).join("\n\n");
  const contents: { role: "user" | "model"; parts: GeminiToolPart[] }[] = [];
  const push = (role: "user" | "model", parts: GeminiToolPart[]) => {
    const last = contents.at(-1);
    if (last?.role === role) last.parts.push(...parts);
    else contents.push({ role, parts });
  };
  const emulateSystem = Boolean(system) && NO_SYSTEM_INSTRUCTION.has(options.modelId);
  if (emulateSystem) push("user", [{ text: system }]);
  for (const message of request.messages as ToolChatMessage[]) {
    if (message.role === "system") continue;
    if (message.role === "tool") {
      const id = message.toolCallId.startsWith(MADE_UP_ID) ? {} : { id: message.toolCallId };
      push("user", [{
        functionResponse: {
          name: message.name,
          response: message.isError ? { error: message.content } : { result: message.content },
          ...id,
        },
      }]);
    } else if (message.role === "assistant") {
      const parts: GeminiToolPart[] = message.content ? [{ text: message.content }] : [];
      for (const call of message.toolCalls ?? []) {
        let args: unknown = {};
        try {
          args = JSON.parse(call.arguments || "{}");
        } catch {
          // sent as no arguments
        }
        parts.push({
          functionCall: {
            name: call.name,
            args,
            ...(call.id.startsWith(MADE_UP_ID) ? {} : { id: call.id }),
          },
          ...(call.signature ? { thoughtSignature: call.signature } : {}),
        });
      }
      if (parts.length) push("model", parts);
    } else if (message.content) push("user", [{ text: message.content }]);
  }
  return {
    contents,
    ...(system && !emulateSystem ? { systemInstruction: { parts: [{ text: system }] } } : {}),
    tools: [{
      functionDeclarations: request.tools.map((tool) => ({
        name: tool.name,
        description: tool.description,
        parametersJsonSchema: tool.parameters,
      })),
    }],
    ...requestSettings({ safetySetting: options.safetySetting, includeThoughts: false }, {
      temperature: request.temperature,
      maxTokens,
    }),
  };
}

interface StreamChunk {
  candidates?: {
    content?: {
      parts?: {
        text?: string;
        thought?: boolean;
        functionCall?: { name?: string; args?: unknown; id?: string };
        thoughtSignature?: string;
      }[];
    };
    finishReason?: string;
  }[];
  promptFeedback?: { blockReason?: string };
  usageMetadata?: { promptTokenCount?: number; candidatesTokenCount?: number; thoughtsTokenCount?: number };
  error?: { message?: string };
}

/** Google's Generative Language API, `streamGenerateContent` as server-sent events. */
export function geminiChatModel(options: GeminiOptions): ChatModel {
  const modelId = bareModelId(options.modelId);
  const baseURL = (options.baseURL ?? GEMINI_BASE_URL).replace(/\/+$/, "");
  const doFetch = options.fetch ?? fetch;
  const safetySetting = options.safetySetting ?? DEFAULT_GEMINI_SAFETY_SETTING;
  const includeThoughts = options.includeThoughts ?? THINKING_MODEL.test(modelId);

  /** The answer's events, checked: a refusal or a cut-off answer throws; the last event ends the answer. */
  async function* chunks(body: unknown, signal: AbortSignal): AsyncGenerator<StreamChunk> {
    const call = providerCall(NAME, signal, options.timeoutMs);
    let response: Response;
    try {
      response = await doFetch(
        `${baseURL}/v1beta/models/${encodeURIComponent(modelId)}:streamGenerateContent?alt=sse`,
        {
          method: "POST",
          headers: { "Content-Type": "application/json", "x-goog-api-key": options.apiKey },
          body: JSON.stringify(body),
          signal: call.signal,
        },
      );
    } catch (error) {
      throw call.failure(error, "connect");
    }
    if (!response.ok) throw await errorFromResponse(NAME, response, geminiErrorText);
    await expectContentType(NAME, response, "text/event-stream");
    let finished = false;
    try {
      for await (const { data } of sseJson(NAME, response.body!)) {
        const chunk = data as StreamChunk;
        if (chunk.error) {
          throw new ProviderError(
            `Gemini failed: ${asSentence(String(chunk.error.message ?? "no reason given"))}`,
          );
        }
        const blocked = chunk.promptFeedback?.blockReason;
        if (blocked && !chunk.candidates?.length) {
          throw new ProviderError(
            `Gemini refused the prompt (${blocked}); the safety setting decides what it blocks.`,
          );
        }
        const reason = chunk.candidates?.[0]?.finishReason;
        if (reason && BLOCKED_FINISH.has(reason)) {
          // What came with the refusal is not shown.
          throw new ProviderError(
            `Gemini stopped the answer (${reason}); the safety setting decides what it blocks.`,
          );
        }
        yield chunk;
        if (reason) finished = true;
      }
    } catch (error) {
      throw call.failure(error, "read");
    }
    if (!finished) throw new ProviderError("The answer from Gemini ended before it was complete.");
  }

  const usagePart = (usage: StreamChunk["usageMetadata"]) =>
    usage
      ? [{
        type: "usage" as const,
        inputTokens: usage.promptTokenCount ?? 0,
        outputTokens: (usage.candidatesTokenCount ?? 0) + (usage.thoughtsTokenCount ?? 0),
      }]
      : [];

  return {
    providerId: "gemini",
    modelId,
    contextWindow: options.contextWindow,
    maxTokens: options.maxTokens,
    async *stream(request: ChatRequest, signal: AbortSignal): AsyncIterable<ChatPart> {
      const body = toGeminiRequest(request.messages, { modelId, safetySetting, includeThoughts }, {
        temperature: request.temperature,
        maxTokens: request.maxTokens ?? options.maxTokens,
      });
      const think = thinkTags();
      let usage: StreamChunk["usageMetadata"];
      for await (const chunk of chunks(body, signal)) {
        if (chunk.usageMetadata) usage = chunk.usageMetadata;
        const candidate = chunk.candidates?.[0];
        for (const part of candidate?.content?.parts ?? []) {
          if (!part.text) continue;
          yield {
            type: "text-delta",
            text: part.thought ? think.thought(part.text) : think.text(part.text),
          };
        }
      }
      const closing = think.close();
      if (closing) yield { type: "text-delta", text: closing };
      yield* usagePart(usage);
    },
    /** Tool calls as Gemini streams them: whole `functionCall` parts, each with its thought signature. */
    async *streamWithTools(request: ToolChatRequest, signal: AbortSignal): AsyncIterable<ToolChatPart> {
      const body = toGeminiToolRequest(
        request,
        { modelId, safetySetting },
        request.maxTokens ?? options.maxTokens,
      );
      let usage: StreamChunk["usageMetadata"];
      const calls: ToolCallRequest[] = [];
      for await (const chunk of chunks(body, signal)) {
        if (chunk.usageMetadata) usage = chunk.usageMetadata;
        for (const part of chunk.candidates?.[0]?.content?.parts ?? []) {
          if (part.functionCall?.name) {
            calls.push({
              id: part.functionCall.id || `${MADE_UP_ID}${calls.length}`,
              name: part.functionCall.name,
              arguments: JSON.stringify(part.functionCall.args ?? {}),
              ...(part.thoughtSignature ? { signature: part.thoughtSignature } : {}),
            });
          } else if (part.text && !part.thought) yield { type: "text-delta", text: part.text };
        }
      }
      yield* usagePart(usage);
      for (const call of calls) yield { type: "tool-call", ...call };
    },
  };
}

export interface GeminiModelInfo extends ModelInfo {
  /** "Stable" or "Experimental", the groups of the model list. */
  organization: string;
  contextWindow?: number;
  experimental: boolean;
}

export interface GeminiLookupOptions {
  /** The key typed in or stored; no key, no list. */
  apiKey?: string;
  baseURL?: string;
  fetch?: typeof fetch;
  signal?: AbortSignal;
  timeoutMs?: number;
}

interface GeminiApiModel {
  name?: string;
  displayName?: string;
  description?: string;
  inputTokenLimit?: number;
  supportedGenerationMethods?: string[];
}

/** Every page of `GET /{version}/models`. */
async function listModels(version: "v1" | "v1beta", options: GeminiLookupOptions): Promise<GeminiApiModel[]> {
  const baseURL = (options.baseURL ?? GEMINI_BASE_URL).replace(/\/+$/, "");
  const models: GeminiApiModel[] = [];
  let pageToken: string | undefined;
  // A thousand models a page: one page today; ten at most, whatever the API says.
  for (let page = 0; page < 10; page++) {
    const url = new URL(`${baseURL}/${version}/models`);
    url.searchParams.set("pageSize", "1000");
    if (pageToken) url.searchParams.set("pageToken", pageToken);
    const body = await getJsonList(
      NAME,
      url.href,
      { "x-goog-api-key": options.apiKey! },
      options,
      geminiErrorText,
    );
    if (Array.isArray(body.models)) models.push(...body.models as GeminiApiModel[]);
    pageToken = typeof body.nextPageToken === "string" && body.nextPageToken ? body.nextPageToken : undefined;
    if (!pageToken) break;
  }
  return models;
}

/** Chat models only: those that generate content, neither tuning models nor deprecated ones. */
const isChatModel = (model: GeminiApiModel) =>
  typeof model.name === "string" &&
  !model.displayName?.toLowerCase().includes("tuning") &&
  !model.description?.toLowerCase().includes("deprecated") &&
  (model.supportedGenerationMethods ?? []).includes("generateContent");

/**
 * The chat models the key may use, Stable first and then Experimental, as the reference's form groups them: a
 * model served by the v1 API is stable, one only the v1beta API serves is experimental. When the v1 list cannot
 * be read, a model is experimental when its name says so (`exp`, `preview`).
 */
export async function geminiModels(options: GeminiLookupOptions): Promise<GeminiModelInfo[]> {
  if (!options.apiKey) return [];
  const [stable, all] = await Promise.all([
    listModels("v1", options).then((models) => models, () => null),
    listModels("v1beta", options),
  ]);
  const stableNames = stable ? new Set(stable.filter(isChatModel).map((model) => model.name!)) : null;
  const seen = new Set<string>();
  const models: GeminiModelInfo[] = [];
  for (const model of [...(stable ?? []), ...all].filter(isChatModel)) {
    if (seen.has(model.name!)) continue;
    seen.add(model.name!);
    const id = bareModelId(model.name!);
    const experimental = stableNames ? !stableNames.has(model.name!) : /exp|preview/.test(id);
    models.push({
      id,
      name: model.displayName || id,
      organization: experimental ? "Experimental" : "Stable",
      contextWindow: model.inputTokenLimit,
      experimental,
    });
  }
  return [...models.filter((model) => !model.experimental), ...models.filter((model) => model.experimental)];
}
