// The agent loop: ask the model, run the tools it asks for, give it their results, until it answers.
import type { Source } from "../../shared/api/chat.ts";
import { messageOf } from "../errors.ts";
import type { ChatModel, ToolChatMessage, ToolSpec } from "../providers/llm/types.ts";
import { modelStep } from "./model.ts";

/** What a tool gives back: text for the model, and what the person sees beside the answer. */
export interface ToolOutput {
  /** What the model reads. */
  text: string;
  /** Citations to show with the answer. */
  sources?: Source[];
  /** Markdown added to the answer as it is shown and kept (a chart block, a download link). */
  attach?: string;
}

/** A tool of a skill (or of an MCP server). */
export interface AgentTool extends ToolSpec {
  /** The status line shown when it runs. */
  describe?(args: Record<string, unknown>): string;
  run(args: Record<string, unknown>, signal: AbortSignal): Promise<ToolOutput | string>;
}

/** What the loop reports as it goes. */
export type AgentEvent =
  | { kind: "status"; text: string }
  | { kind: "tool-call"; id: string; name: string; arguments: string }
  | { kind: "tool-result"; id: string; name: string; ok: boolean; text: string }
  | { kind: "text"; delta: string };

export interface AgentRun {
  model: ChatModel;
  tools: AgentTool[];
  /** The conversation so far, system prompt first; the loop appends to it. */
  messages: ToolChatMessage[];
  maxSteps: number;
  signal: AbortSignal;
  temperature?: number;
  emit(event: AgentEvent): void;
}

export interface AgentAnswer {
  text: string;
  sources: Source[];
  /** Markdown the tools added (charts, links), already appended to `text`. */
  attachments: string[];
  stoppedAtLimit: boolean;
}

/** The largest tool result the model is given. */
const MAX_RESULT_CHARS = 16_000;

export function stepLimitMessage(limit: number): string {
  return `The agent stopped after ${limit} step${
    limit === 1 ? "" : "s"
  } without finishing. Ask again more precisely, or raise the step limit in the agent settings.`;
}

/** Runs the loop to the model's answer, or to the step limit. Model failures are thrown to the caller. */
export async function runAgent(run: AgentRun): Promise<AgentAnswer> {
  const sources: Source[] = [];
  const attachments: string[] = [];
  const byName = new Map(run.tools.map((tool) => [tool.name, tool]));
  for (let step = 0; step < run.maxSteps; step++) {
    const result = await modelStep(run.model, run.messages, run.tools, run.signal, {
      temperature: run.temperature,
      onText: (delta) => run.emit({ kind: "text", delta }),
    });
    if (result.toolCalls.length === 0) {
      run.messages.push({ role: "assistant", content: result.text });
      const text = [result.text, ...attachments].filter(Boolean).join("\n\n");
      return { text, sources, attachments, stoppedAtLimit: false };
    }
    run.messages.push({ role: "assistant", content: result.text, toolCalls: result.toolCalls });
    for (const call of result.toolCalls) {
      run.emit({ kind: "tool-call", id: call.id, name: call.name, arguments: call.arguments });
      const tool = byName.get(call.name);
      let ok = true;
      let text: string;
      try {
        if (!tool) throw new Error(`There is no tool called ${call.name}.`);
        let args: unknown;
        try {
          args = call.arguments.trim() ? JSON.parse(call.arguments) : {};
        } catch {
          throw new Error(`The arguments of ${call.name} are not valid JSON.`);
        }
        if (typeof args !== "object" || args === null || Array.isArray(args)) {
          throw new Error(`The arguments of ${call.name} must be a JSON object.`);
        }
        run.emit({
          kind: "status",
          text: tool.describe?.(args as Record<string, unknown>) ?? `Using ${tool.name}.`,
        });
        const output = await tool.run(args as Record<string, unknown>, run.signal);
        const value = typeof output === "string" ? { text: output } : output;
        text = value.text;
        if (value.sources) sources.push(...value.sources);
        if (value.attach) attachments.push(value.attach);
      } catch (error) {
        if (run.signal.aborted) throw error;
        ok = false;
        text = `Error: ${messageOf(error)}`;
        run.emit({ kind: "status", text: `${call.name} failed: ${messageOf(error)}` });
      }
      const clipped = text.length > MAX_RESULT_CHARS
        ? `${text.slice(0, MAX_RESULT_CHARS)}\n[cut short]`
        : text;
      run.emit({ kind: "tool-result", id: call.id, name: call.name, ok, text: clipped.slice(0, 2000) });
      run.messages.push({
        role: "tool",
        toolCallId: call.id,
        name: call.name,
        content: clipped,
        ...(ok ? {} : { isError: true }),
      });
    }
  }
  const text = [stepLimitMessage(run.maxSteps), ...attachments].join("\n\n");
  run.emit({ kind: "status", text: stepLimitMessage(run.maxSteps) });
  return { text, sources, attachments, stoppedAtLimit: true };
}
