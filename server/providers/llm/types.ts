/** An image sent with a message, as a data URL (`data:image/png;base64,…`). */
export interface ImageInput {
  name: string;
  mime: string;
  dataUrl: string;
}

export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
  /** Images for vision models; providers that take none ignore them. */
  images?: ImageInput[];
}

export interface ChatRequest {
  messages: ChatMessage[];
  temperature?: number;
  maxTokens?: number;
}

export type ChatPart =
  | { type: "text-delta"; text: string }
  | { type: "usage"; inputTokens: number; outputTokens: number };

/** One provider configuration and model; `stream` is the only method. */
/** A workspace's own provider and model (null: the instance's). */
export interface ModelOverride {
  provider: string | null;
  model: string | null;
}

export interface ChatModel {
  readonly providerId: string;
  readonly modelId: string;
  /** The model's context window in tokens. */
  readonly contextWindow: number;
  /** The most tokens one answer may use. */
  readonly maxTokens: number;
  /** Yields the answer as it arrives; throws ProviderError with the provider's own message on failure. */
  stream(request: ChatRequest, signal: AbortSignal): AsyncIterable<ChatPart>;
}

/** One model of a provider's model list (`POST /api/system/custom-models`). */
export interface ModelInfo {
  id: string;
  name: string;
  organization?: string;
}
