// One step of the agent's model: native tool calling where the provider has it, a prompted fallback elsewhere.
import { ToolsUnsupportedError } from "../errors.ts";
import type {
  ChatMessage,
  ChatModel,
  ToolCallRequest,
  ToolChatMessage,
  ToolSpec,
} from "../providers/llm/types.ts";

/** Models whose provider has native tool calling but that refused the tools: prompted instead. */
const promptedModels = new WeakSet<ChatModel>();

export interface StepResult {
  text: string;
  toolCalls: ToolCallRequest[];
  usage: { inputTokens: number; outputTokens: number };
}

export interface StepOptions {
  temperature?: number;
  /** Each piece of answer text as it arrives (native calling only: the fallback's text is known at the end). */
  onText?: (delta: string) => void;
}

/** One model answer to the conversation so far, with the tools it asks for. */
export async function modelStep(
  model: ChatModel,
  messages: ToolChatMessage[],
  tools: ToolSpec[],
  signal: AbortSignal,
  options: StepOptions = {},
): Promise<StepResult> {
  const usage = { inputTokens: 0, outputTokens: 0 };
  if (model.streamWithTools && tools.length > 0 && !promptedModels.has(model)) {
    let text = "";
    const toolCalls: ToolCallRequest[] = [];
    try {
      for await (
        const part of model.streamWithTools({ messages, tools, temperature: options.temperature }, signal)
      ) {
        if (part.type === "text-delta") {
          text += part.text;
          options.onText?.(part.text);
        } else if (part.type === "tool-call") {
          const { type: _type, ...call } = part;
          toolCalls.push(call);
        } else if (part.type === "usage") {
          usage.inputTokens += part.inputTokens;
          usage.outputTokens += part.outputTokens;
        }
      }
      return { text, toolCalls, usage };
    } catch (error) {
      // A model that takes no tools (said before it answers anything) is prompted for them from now on.
      if (!(error instanceof ToolsUnsupportedError) || text) throw error;
      promptedModels.add(model);
    }
  }
  let text = "";
  for await (
    const part of model.stream({
      messages: promptedMessages(messages, tools),
      temperature: options.temperature,
    }, signal)
  ) {
    if (part.type === "text-delta") text += part.text;
    else {
      usage.inputTokens += part.inputTokens;
      usage.outputTokens += part.outputTokens;
    }
  }
  const call = tools.length > 0 ? promptedToolCall(text, tools) : null;
  if (call) return { text: "", toolCalls: [call], usage };
  options.onText?.(text);
  return { text, toolCalls: [], usage };
}

/** How the fallback asks for tool calls: a JSON object alone in the answer. */
function toolInstructions(tools: ToolSpec[]): string {
  const list = tools.map((tool) =>
    `- ${tool.name}: ${tool.description}\n  arguments (JSON Schema): ${JSON.stringify(tool.parameters)}`
  ).join("\n");
  return [
    "You can use these tools:",
    list,
    'To use a tool, answer with only a JSON object and nothing else: {"tool": "<name>", "arguments": {...}}.',
    "You will then get the tool's result. When you need no tool, answer the user directly in plain text.",
  ].join("\n");
}

/** The tool-calling conversation as plain chat messages, the tools described in the system prompt. */
export function promptedMessages(messages: ToolChatMessage[], tools: ToolSpec[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  const instructions = tools.length ? toolInstructions(tools) : "";
  let systemDone = false;
  for (const message of messages) {
    if (message.role === "system") {
      out.push({
        role: "system",
        content: instructions ? `${message.content}\n\n${instructions}` : message.content,
      });
      systemDone = true;
    } else if (message.role === "tool") {
      out.push({ role: "user", content: `Result of the tool ${message.name}:\n${message.content}` });
    } else if (message.role === "assistant") {
      const calls = (message.toolCalls ?? []).map((call) =>
        JSON.stringify({ tool: call.name, arguments: safeJson(call.arguments) })
      );
      out.push({ role: "assistant", content: [message.content, ...calls].filter(Boolean).join("\n") });
    } else out.push({ role: "user", content: message.content });
  }
  if (!systemDone && instructions) out.unshift({ role: "system", content: instructions });
  return out;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The tool call a fallback answer asks for: a JSON object naming a known tool (fenced or bare), or null. */
export function promptedToolCall(text: string, tools: ToolSpec[]): ToolCallRequest | null {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(text)?.[1];
  const candidates = [text.trim(), fenced?.trim(), /\{[\s\S]*\}/.exec(text)?.[0]];
  for (const candidate of candidates) {
    if (!candidate?.startsWith("{")) continue;
    try {
      const value = JSON.parse(candidate) as Record<string, unknown>;
      const name = typeof value.tool === "string"
        ? value.tool
        : typeof value.name === "string"
        ? value.name
        : null;
      if (!name || !tools.some((tool) => tool.name === name)) continue;
      const args = value.arguments ?? value.args ?? {};
      return { id: `prompted_${crypto.randomUUID().slice(0, 8)}`, name, arguments: JSON.stringify(args) };
    } catch {
      // not JSON: the next candidate
    }
  }
  return null;
}
