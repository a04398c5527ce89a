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
  /**
   * Called when the provider began to answer (its response headers came): the server's work to ask is done
   * (server/chat/admission.ts). A provider that does not call it has its first part count instead.
   */
  onAsked?: () => void;
}

export type ChatPart =
  | {
    type: "text-delta";
    text: string;
    /**
     * When the provider's deltas came several at once (one read of its stream): each of them, in order, `text`
     * being them joined. A chat stream writes each as a frame of its own, as if they had come one by one.
     */
    pieces?: readonly string[];
  }
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
  /**
   * Native tool calling (agents): the answer's text as it arrives, then the tools the model asks for. Absent
   * where the provider has none here; agents then prompt for tool calls (server/agents/model.ts).
   */
  streamWithTools?(request: ToolChatRequest, signal: AbortSignal): AsyncIterable<ToolChatPart>;
}

/** A tool the model may call: its JSON Schema parameters (an object schema). */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** One call the model asked for; `arguments` is its JSON text, as the model wrote it. */
export interface ToolCallRequest {
  id: string;
  name: string;
  arguments: string;
  /** An opaque token the provider gave with the call and wants back with it (Gemini's `thoughtSignature`). */
  signature?: string;
}

export type ToolChatMessage =
  | { role: "system" | "user"; content: string }
  | { role: "assistant"; content: string; toolCalls?: ToolCallRequest[] }
  | { role: "tool"; toolCallId: string; name: string; content: string; isError?: boolean };

export interface ToolChatRequest {
  messages: ToolChatMessage[];
  tools: ToolSpec[];
  temperature?: number;
  maxTokens?: number;
}

export type ToolChatPart = ChatPart | ({ type: "tool-call" } & ToolCallRequest);

/** One model of a provider's model list (`POST /api/system/custom-models`). */
export interface ModelInfo {
  id: string;
  name: string;
  organization?: string;
}
