// One agent session over its socket: the invoking message, then each message the person sends, until /exit.
import { AGENT_BAIL_COMMANDS, AgentSocketInput, type AgentSocketMessage } from "../../shared/api/agents.ts";
import type { Deps } from "../deps.ts";
import { messageOf } from "../errors.ts";
import type { ChatModel, ToolChatMessage } from "../providers/llm/types.ts";
import type { WorkspaceRow } from "../workspaces/present.ts";
import { type ChatScope, parseResponse, recentChats, saveChat } from "../chat/history.ts";
import { instanceDefaultPrompt } from "../system/default_prompt.ts";
import type { Invocation } from "./invocations.ts";
import { type AgentTool, runAgent } from "./loop.ts";
import { maxSteps, timeoutSeconds } from "./settings.ts";
import { builtInTools } from "./tools.ts";
import { mcpTools } from "./mcp/tools.ts";

/** How long the session waits for the person's next message. */
export const IDLE_TIMEOUT_MS = 5 * 60 * 1000;

export const SESSION_COMPLETE = "Agent session complete.";

export interface SessionTransport {
  send(message: AgentSocketMessage): void;
  close(code?: number, reason?: string): void;
}

/** The workspace's agent model: its agent provider and model, else its chat model, else the instance's. */
export function agentModel(deps: Deps, workspace: WorkspaceRow): ChatModel {
  return deps.providers.chatModel(
    workspace.agentProvider
      ? { provider: workspace.agentProvider, model: workspace.agentModel }
      : { provider: workspace.chatProvider, model: workspace.agentModel ?? workspace.chatModel },
  );
}

/** Whether an agent can run (in this workspace): its model can be built. */
export function agentAvailable(deps: Deps, workspace?: WorkspaceRow): boolean {
  try {
    if (workspace) agentModel(deps, workspace);
    else deps.providers.chatModel();
    return true;
  } catch {
    return false;
  }
}

/** `@agent` and the handles after it are not part of what the agent is asked. */
export function stripHandles(message: string): string {
  return message.replace(/^@agent\b\s*/, "").trim();
}

const AGENT_INSTRUCTIONS = [
  "You are an AI agent in a document-chat workspace. Use the tools when they help answer; answer directly when",
  "they do not. When you use passages from documents, say which documents they came from. Be concise.",
].join(" ");

export class AgentSession {
  private readonly abort = new AbortController();
  private waiting: ((feedback: string | null) => void) | null = null;
  private closed = false;
  private readonly scope: ChatScope;

  constructor(
    private readonly deps: Deps,
    private readonly invocation: Invocation,
    private readonly transport: SessionTransport,
  ) {
    this.scope = {
      workspaceId: invocation.workspace.id,
      threadId: invocation.threadId,
      actor: invocation.actor,
    };
  }

  /** A message from the socket: the next message when one is awaited, a bail command at any time. */
  receive(raw: string): void {
    let parsed;
    try {
      parsed = AgentSocketInput.safeParse(JSON.parse(raw));
    } catch {
      return;
    }
    if (!parsed.success) return;
    const feedback = parsed.data.feedback.trim();
    if (AGENT_BAIL_COMMANDS.includes(feedback)) {
      this.end(SESSION_COMPLETE);
      return;
    }
    const waiting = this.waiting;
    this.waiting = null;
    waiting?.(feedback);
  }

  /** The socket went away: stop whatever runs. */
  gone(): void {
    this.closed = true;
    this.abort.abort();
    this.waiting?.(null);
    this.waiting = null;
  }

  private send(message: AgentSocketMessage): void {
    if (!this.closed) this.transport.send(message);
  }

  private end(reason: string, code = 1000): void {
    if (this.closed) return;
    this.send({ type: "statusResponse", content: reason, animate: false });
    this.closed = true;
    this.abort.abort();
    this.waiting?.(null);
    this.waiting = null;
    this.transport.close(code, reason);
  }

  private fail(message: string): void {
    this.send({ type: "wssFailure", content: message });
    this.end(message, 1011);
  }

  private nextMessage(): Promise<string | null> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting = null;
        resolve(null);
      }, IDLE_TIMEOUT_MS);
      this.waiting = (feedback) => {
        clearTimeout(timer);
        resolve(feedback);
      };
    });
  }

  /** Runs the session to its end. */
  async run(): Promise<void> {
    const { deps, invocation } = this;
    let model: ChatModel;
    let tools: AgentTool[];
    try {
      model = agentModel(deps, invocation.workspace);
      const context = { deps, actor: invocation.actor, workspace: invocation.workspace, model };
      tools = await builtInTools(context);
      // The MCP servers that are on are started now; one that cannot start is told and left out.
      tools.push(
        ...await mcpTools(
          deps.mcp,
          (text) => this.send({ type: "statusResponse", content: text, animate: false }),
        ),
      );
    } catch (error) {
      this.fail(messageOf(error));
      return;
    }
    {
      const messages = await this.startingMessages();
      let prompt = invocation.prompt;
      let asked: string | null = stripHandles(prompt);
      while (asked !== null && !this.closed) {
        if (asked) {
          messages.push({ role: "user", content: asked });
          const ok = await this.turn(model, tools, messages, prompt);
          if (!ok) return;
        }
        this.send({ type: "WAITING_ON_INPUT", question: "Type your next message, or /exit to end." });
        asked = await this.nextMessage();
        if (asked === null && !this.closed) this.end(SESSION_COMPLETE);
        prompt = asked ?? "";
      }
    }
  }

  /** The system prompt and the thread's recent chats. */
  private async startingMessages(): Promise<ToolChatMessage[]> {
    const { workspace } = this.invocation;
    const system = `${
      workspace.openAiPrompt || instanceDefaultPrompt(this.deps.settings)
    }\n\n${AGENT_INSTRUCTIONS}`;
    const messages: ToolChatMessage[] = [{ role: "system", content: system }];
    for (const row of await recentChats(this.deps, this.scope, workspace.openAiHistory)) {
      const response = parseResponse(row);
      if (!response) continue;
      messages.push({ role: "user", content: stripHandles(row.prompt) || row.prompt });
      messages.push({ role: "assistant", content: response.text });
    }
    return messages;
  }

  /** One question to its answer; false when the session ended. */
  private async turn(
    model: ChatModel,
    tools: AgentTool[],
    messages: ToolChatMessage[],
    prompt: string,
  ): Promise<boolean> {
    const { deps } = this;
    const uuid = crypto.randomUUID();
    const seconds = timeoutSeconds(deps);
    const deadline = AbortSignal.timeout(seconds * 1000);
    const signal = AbortSignal.any([this.abort.signal, deadline]);
    const started = performance.now();
    this.send({ type: "statusResponse", content: `@agent is working with ${model.modelId}.`, animate: true });
    try {
      const answer = await runAgent({
        model,
        tools,
        messages,
        maxSteps: maxSteps(deps),
        signal,
        temperature: this.invocation.workspace.openAiTemp ?? 0.7,
        emit: (event) => {
          if (event.kind === "status") {
            this.send({ type: "statusResponse", content: event.text, animate: false });
          } else if (event.kind === "tool-call") {
            this.send({ type: "toolCall", id: event.id, name: event.name, arguments: event.arguments });
          } else if (event.kind === "tool-result") {
            this.send({
              type: "toolResult",
              id: event.id,
              name: event.name,
              ok: event.ok,
              content: event.text,
            });
          } else {
            this.send({
              type: "reportStreamEvent",
              content: { type: "textResponseChunk", uuid, content: event.delta },
            });
          }
        },
      });
      const chatId = await saveChat(deps, this.scope, prompt, {
        text: answer.text,
        sources: answer.sources,
        type: "chat",
        attachments: [],
        metrics: {
          duration: Math.round((performance.now() - started) / 10) / 100,
          model: model.modelId,
          provider: model.providerId,
          timestamp: new Date().toISOString(),
        },
      });
      this.send({ from: "@agent", to: "USER", content: answer.text, uuid, chatId, sources: answer.sources });
      return !this.closed;
    } catch (error) {
      if (this.closed) return false;
      if (deadline.aborted) {
        this.fail(`The agent did not finish within ${seconds} seconds.`);
      } else this.fail(messageOf(error));
      return false;
    }
  }
}
