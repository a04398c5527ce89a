// aws4fetch and Smithy's event-stream codec load on the first Bedrock call, not with the server.
import { ProviderError } from "../../errors.ts";
import type { ModelInfo } from "./types.ts";
import type { ChatMessage, ChatModel, ChatPart, ChatRequest } from "./types.ts";
import {
  asSentence,
  base64Of,
  errorFromResponse,
  expectContentType,
  providerCall,
  thinkTags,
} from "./wire.ts";

/** AwsBedrockLLMConnectionMethod: long-lived IAM keys, or temporary ones with a session token. */
export type BedrockConnectionMethod = "iam" | "sessionToken";
export const DEFAULT_BEDROCK_REGION = "us-west-2";

export interface BedrockOptions {
  connectionMethod: BedrockConnectionMethod;
  /** AwsBedrockLLMAccessKeyId */
  accessKeyId: string;
  /** AwsBedrockLLMAccessKey (the secret access key). */
  secretAccessKey: string;
  /** AwsBedrockLLMSessionToken, sent (and signed) only with the `sessionToken` method. */
  sessionToken?: string;
  /** AwsBedrockLLMRegion, e.g. us-west-2. */
  region: string;
  /** AwsBedrockLLMModel: a model id, an inference profile id or an ARN. */
  modelId: string;
  contextWindow: number;
  maxTokens: number;
  /** The runtime's address; `https://bedrock-runtime.{region}.amazonaws.com` when not given (tests: the fake). */
  endpoint?: string;
  fetch?: typeof fetch;
  /** How long one answer may take in all. */
  timeoutMs?: number;
}

const NAME = "AWS Bedrock";
/** A region name (`us-west-2`, `ap-southeast-1`, `us-gov-west-1`): nothing that could change the host. */
const REGION = /^[a-z]{2}(?:-[a-z]+)+-\d+$/;
const IMAGE_FORMATS: Record<string, string> = {
  "image/png": "png",
  "image/jpeg": "jpeg",
  "image/jpg": "jpeg",
  "image/gif": "gif",
  "image/webp": "webp",
};
/** Stop reasons for which the answer was cut for what it says. */
const BLOCKED_STOP = new Set(["guardrail_intervened", "content_filtered"]);

type ContentBlock =
  | { text: string }
  | { image: { format: string; source: { bytes: string } } };

/**
 * The Converse request: system prompts apart, turns alternating user/assistant (consecutive turns of one role
 * merged, as Converse refuses two in a row), images as base64 blocks.
 */
export function toConverseRequest(
  messages: ChatMessage[],
  inference: { maxTokens: number; temperature?: number },
) {
  const system = messages.filter((message) => message.role === "system" && message.content)
    .map((message) => ({ text: message.content }));
  const turns: { role: "user" | "assistant"; content: ContentBlock[] }[] = [];
  for (const message of messages) {
    if (message.role === "system") continue;
    const content: ContentBlock[] = [
      ...(message.images ?? []).flatMap((image) => {
        const format = IMAGE_FORMATS[image.mime.toLowerCase()];
        return format ? [{ image: { format, source: { bytes: base64Of(image.dataUrl) } } }] : [];
      }),
      // Converse refuses a blank text block.
      ...(message.content.trim() ? [{ text: message.content }] : []),
    ];
    if (!content.length) continue;
    const last = turns.at(-1);
    if (last?.role === message.role) last.content.push(...content);
    else turns.push({ role: message.role, content });
  }
  return {
    messages: turns,
    ...(system.length ? { system } : {}),
    inferenceConfig: {
      maxTokens: inference.maxTokens,
      // Bedrock's models take 0 to 1.
      ...(inference.temperature === undefined ? {} : { temperature: Math.min(1, inference.temperature) }),
    },
  };
}

/** The credentials to sign with, or a ProviderError naming the missing setting. */
function credentials(
  options: Pick<BedrockOptions, "connectionMethod" | "accessKeyId" | "secretAccessKey" | "sessionToken">,
) {
  if (!options.accessKeyId) {
    throw new ProviderError(`${NAME} is not configured: AwsBedrockLLMAccessKeyId is not set.`);
  }
  if (!options.secretAccessKey) {
    throw new ProviderError(`${NAME} is not configured: AwsBedrockLLMAccessKey is not set.`);
  }
  if (options.connectionMethod === "sessionToken" && !options.sessionToken) {
    throw new ProviderError(`${NAME} is not configured: AwsBedrockLLMSessionToken is not set.`);
  }
  return {
    accessKeyId: options.accessKeyId,
    secretAccessKey: options.secretAccessKey,
    ...(options.connectionMethod === "sessionToken" ? { sessionToken: options.sessionToken } : {}),
  };
}

/** The request signed with Signature V4 for the `bedrock` service (aws4fetch's signer). */
async function signRequest(
  options: Pick<BedrockOptions, "connectionMethod" | "accessKeyId" | "secretAccessKey" | "sessionToken">,
  region: string,
  url: string,
  init: { method: "GET" | "POST"; headers: Record<string, string>; body?: string },
) {
  const { AwsV4Signer } = await import("aws4fetch");
  return await new AwsV4Signer({ url, ...init, ...credentials(options), service: "bedrock", region }).sign();
}

/** The runtime's address for `region`, or the one given. */
export function bedrockRuntimeEndpoint(region: string, endpoint?: string): string {
  if (endpoint) return endpoint.replace(/\/+$/, "");
  if (!REGION.test(region)) throw new ProviderError(`${NAME}: "${region}" is not the name of an AWS region.`);
  return `https://bedrock-runtime.${region}.amazonaws.com`;
}

/** AWS's error text: `message` (or `Message`), with its type from the x-amzn-ErrorType header. */
async function awsError(response: Response): Promise<ProviderError> {
  const type = response.headers.get("x-amzn-errortype")?.split(":")[0];
  const error = await errorFromResponse(NAME, response, (body) => body.message ?? body.Message);
  return type
    ? new ProviderError(
      error.message.replace(`answered ${response.status}:`, `answered ${response.status} (${type}):`),
      error.status,
    )
    : error;
}

interface ConverseEvent {
  delta?: { text?: string; reasoningContent?: { text?: string } };
  stopReason?: string;
  usage?: { inputTokens?: number; outputTokens?: number };
  message?: string;
  Message?: string;
}

/**
 * AWS Bedrock's Converse API, streamed (`POST /model/{modelId}/converse-stream`): the request signed with
 * Signature V4 (aws4fetch), the answer read as application/vnd.amazon.eventstream frames (Smithy's codec, which
 * checks each frame's CRCs).
 */
export function bedrockChatModel(options: BedrockOptions): ChatModel {
  const doFetch = options.fetch ?? fetch;
  return {
    providerId: "bedrock",
    modelId: options.modelId,
    contextWindow: options.contextWindow,
    maxTokens: options.maxTokens,
    async *stream(request: ChatRequest, signal: AbortSignal): AsyncIterable<ChatPart> {
      const region = options.region || DEFAULT_BEDROCK_REGION;
      const url = `${bedrockRuntimeEndpoint(region, options.endpoint)}/model/${
        encodeURIComponent(options.modelId)
      }/converse-stream`;
      const body = JSON.stringify(toConverseRequest(request.messages, {
        maxTokens: request.maxTokens ?? options.maxTokens,
        temperature: request.temperature,
      }));
      const signed = await signRequest(options, region, url, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/vnd.amazon.eventstream" },
        body,
      });
      const call = providerCall(NAME, signal, options.timeoutMs);
      let response: Response;
      try {
        response = await doFetch(signed.url.href, {
          method: "POST",
          headers: signed.headers,
          body,
          signal: call.signal,
        });
      } catch (error) {
        throw call.failure(error, "connect");
      }
      if (!response.ok) throw await awsError(response);
      await expectContentType(NAME, response, "application/vnd.amazon.eventstream");
      const [{ EventStreamCodec, getChunkedStream }, { fromUtf8, toUtf8 }] = await Promise.all([
        import("@smithy/core/event-streams"),
        import("@smithy/core/serde"),
      ]);
      const codec = new EventStreamCodec(toUtf8, fromUtf8);
      const think = thinkTags();
      let finished = false;
      let usage: { inputTokens: number; outputTokens: number } | undefined;
      try {
        for await (const frame of getChunkedStream(response.body!)) {
          const message = codec.decode(frame);
          const header = (name: string) => {
            const value = message.headers[name]?.value;
            return typeof value === "string" ? value : undefined;
          };
          const messageType = header(":message-type");
          if (messageType === "error") {
            throw new ProviderError(
              `${NAME} failed (${header(":error-code") ?? "error"}): ${
                asSentence(header(":error-message") ?? "no reason given")
              }`,
            );
          }
          let event: ConverseEvent = {};
          try {
            if (message.body.length) event = JSON.parse(toUtf8(message.body));
          } catch {
            throw new ProviderError(
              `${NAME} sent an event that is not JSON: ${toUtf8(message.body).slice(0, 200)}`,
            );
          }
          if (messageType === "exception") {
            throw new ProviderError(
              `${NAME} failed (${header(":exception-type") ?? "exception"}): ${
                asSentence(event.message ?? event.Message ?? "no reason given")
              }`,
            );
          }
          switch (header(":event-type")) {
            case "contentBlockDelta": {
              const reasoning = event.delta?.reasoningContent?.text;
              if (reasoning) yield { type: "text-delta", text: think.thought(reasoning) };
              if (event.delta?.text) yield { type: "text-delta", text: think.text(event.delta.text) };
              break;
            }
            case "messageStop":
              if (event.stopReason && BLOCKED_STOP.has(event.stopReason)) {
                throw new ProviderError(`${NAME} stopped the answer (${event.stopReason}).`);
              }
              finished = true;
              break;
            case "metadata":
              if (event.usage) {
                usage = {
                  inputTokens: event.usage.inputTokens ?? 0,
                  outputTokens: event.usage.outputTokens ?? 0,
                };
              }
              break;
          }
        }
      } catch (error) {
        if (error instanceof Error && /checksum|message overhead|too short/i.test(error.message)) {
          throw new ProviderError(`${NAME} sent a damaged event stream: ${asSentence(error.message)}`);
        }
        throw call.failure(error, "read");
      }
      const closing = think.close();
      if (closing) yield { type: "text-delta", text: closing };
      if (!finished) throw new ProviderError("The answer from AWS Bedrock ended before it was complete.");
      if (usage) yield { type: "usage", ...usage };
    },
  };
}

export interface BedrockLookupOptions {
  connectionMethod: BedrockConnectionMethod;
  accessKeyId?: string;
  secretAccessKey?: string;
  sessionToken?: string;
  region?: string;
  /** The control plane's address; `https://bedrock.{region}.amazonaws.com` when not given (tests: the fake). */
  endpoint?: string;
  fetch?: typeof fetch;
  signal?: AbortSignal;
  timeoutMs?: number;
}

interface FoundationModel {
  modelId?: string;
  modelName?: string;
  providerName?: string;
  outputModalities?: string[];
  inferenceTypesSupported?: string[];
  responseStreamingSupported?: boolean;
  modelLifecycle?: { status?: string };
}

/**
 * The text models the keys may call on demand with streaming (ListFoundationModels, signed like a chat), grouped
 * by their maker. AwsBedrockLLMModel stays free text: inference profiles and ARNs are not listed here.
 */
export async function bedrockModels(options: BedrockLookupOptions): Promise<ModelInfo[]> {
  if (!options.accessKeyId || !options.secretAccessKey) return [];
  if (options.connectionMethod === "sessionToken" && !options.sessionToken) return [];
  const region = options.region || DEFAULT_BEDROCK_REGION;
  let base = options.endpoint?.replace(/\/+$/, "");
  if (!base) {
    if (!REGION.test(region)) {
      throw new ProviderError(`${NAME}: "${region}" is not the name of an AWS region.`);
    }
    base = `https://bedrock.${region}.amazonaws.com`;
  }
  const signed = await signRequest(
    {
      connectionMethod: options.connectionMethod,
      accessKeyId: options.accessKeyId,
      secretAccessKey: options.secretAccessKey,
      sessionToken: options.sessionToken,
    },
    region,
    `${base}/foundation-models?byOutputModality=TEXT`,
    { method: "GET", headers: { Accept: "application/json" } },
  );
  const call = providerCall(
    NAME,
    options.signal ?? new AbortController().signal,
    options.timeoutMs ?? 10_000,
  );
  let response: Response;
  try {
    response = await (options.fetch ?? fetch)(signed.url.href, {
      headers: signed.headers,
      signal: call.signal,
    });
  } catch (error) {
    throw call.failure(error, "connect");
  }
  if (!response.ok) throw await awsError(response);
  let body: { modelSummaries?: FoundationModel[] };
  try {
    body = await response.json();
  } catch (error) {
    throw call.failure(error, "read");
  }
  return (body.modelSummaries ?? [])
    .filter((model) =>
      typeof model.modelId === "string" &&
      (model.outputModalities ?? ["TEXT"]).includes("TEXT") &&
      (model.inferenceTypesSupported ?? ["ON_DEMAND"]).includes("ON_DEMAND") &&
      model.responseStreamingSupported !== false &&
      (model.modelLifecycle?.status ?? "ACTIVE") === "ACTIVE"
    )
    .map((model) => ({
      id: model.modelId!,
      name: model.modelName || model.modelId!,
      organization: model.providerName || "AWS Bedrock",
    }))
    .sort((a, b) => a.organization.localeCompare(b.organization) || a.name.localeCompare(b.name));
}
