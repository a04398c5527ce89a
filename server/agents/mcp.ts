// MCP servers' tools for the agent (none configured yet).
import type { Deps } from "../deps.ts";
import type { AgentTool } from "./loop.ts";

export function mcpTools(
  _deps: Deps,
  _status: (text: string) => void,
): Promise<{ tools: AgentTool[]; close: () => Promise<void> }> {
  return Promise.resolve({ tools: [], close: () => Promise.resolve() });
}
