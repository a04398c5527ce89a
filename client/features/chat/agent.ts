// The agent session in the chat: its socket's messages applied to the message list (pure), and the socket's
// address and subprotocols.
import type { Source } from "../../../shared/api/chat.ts";
import type { ChatMessage } from "./messages.ts";

/** Message types of the agent's lines in the list: status lines and tool calls are shown small. */
export const AGENT_STATUS = "agentStatus";
export const AGENT_TOOL = "agentTool";

/** What the socket sends (shared/api/agents.ts `AgentSocketMessage`), read loosely. */
export type AgentSocketEvent = Record<string, unknown>;

/** `ws(s)://host/api/agent-invocation/<uuid>`, on the page's own host. */
export function agentSocketUrl(location: { protocol: string; host: string }, uuid: string): string {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}/api/agent-invocation/${encodeURIComponent(uuid)}`;
}

/** The subprotocols: the agent's, and the session token (a browser sends no headers with a socket). */
export function agentProtocols(token: string | null): string[] {
  return token ? ["lectern-agent", `bearer.${token}`] : ["lectern-agent"];
}

function line(type: string, content: string, error: string | null = null): ChatMessage {
  return {
    uuid: crypto.randomUUID(),
    content,
    role: "assistant",
    sources: [],
    closed: true,
    error,
    animate: false,
    pending: false,
    type,
  };
}

/** Whether the event ends the agent's work on the current message (the composer is free again). */
export function agentTurnEnded(event: AgentSocketEvent): boolean {
  return event.type === "WAITING_ON_INPUT" || event.type === "wssFailure";
}

/** Applies one socket message to the list; messages it does not know leave the list as it is. */
export function applyAgentEvent(messages: ChatMessage[], event: AgentSocketEvent): ChatMessage[] {
  const next = messages.some((message) => message.pending)
    ? messages.filter((message) => !message.pending)
    : messages;
  if (event.type === "statusResponse" && typeof event.content === "string") {
    return [...next, line(AGENT_STATUS, event.content)];
  }
  if (event.type === "toolCall" && typeof event.name === "string") {
    const args = typeof event.arguments === "string" ? event.arguments : "";
    return [...next, line(AGENT_TOOL, args && args !== "{}" ? `${event.name} ${args}` : event.name)];
  }
  if (event.type === "wssFailure" && typeof event.content === "string") {
    return [...next, line("abort", "", event.content)];
  }
  if (event.type === "reportStreamEvent") {
    const content = event.content as { uuid?: unknown; content?: unknown } | undefined;
    if (typeof content?.uuid !== "string" || typeof content.content !== "string") return next;
    const index = next.findIndex((message) => message.uuid === content.uuid);
    if (index === -1) {
      return [...next, {
        uuid: content.uuid,
        content: content.content,
        role: "assistant",
        sources: [],
        closed: false,
        error: null,
        animate: true,
        pending: false,
      }];
    }
    const copy = next.slice();
    copy[index] = { ...next[index], content: next[index].content + content.content };
    return copy;
  }
  if (event.from !== undefined && typeof event.content === "string" && typeof event.uuid === "string") {
    const answer: ChatMessage = {
      uuid: event.uuid,
      content: event.content,
      role: "assistant",
      sources: Array.isArray(event.sources) ? event.sources as Source[] : [],
      closed: true,
      error: null,
      animate: false,
      pending: false,
      chatId: typeof event.chatId === "number" ? event.chatId : undefined,
    };
    const index = next.findIndex((message) => message.uuid === event.uuid);
    // The streamed text moves down to where the answer ends, below the tool lines that came after it began.
    const without = index === -1 ? next : [...next.slice(0, index), ...next.slice(index + 1)];
    const copy = [...without, answer];
    // The prompt just before the agent's lines takes the chat's id too (edit, delete).
    for (let at = copy.length - 2; at >= 0; at--) {
      if (copy[at].role === "user") {
        if (copy[at].chatId === undefined) copy[at] = { ...copy[at], chatId: answer.chatId };
        break;
      }
    }
    return copy;
  }
  return next;
}
