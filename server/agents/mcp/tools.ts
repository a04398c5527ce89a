// The tools of the MCP servers that are on, offered to the agent as `<server>-<tool>` (the reference's names).
import { messageOf } from "../../errors.ts";
import type { AgentTool } from "../loop.ts";
import { serverEnabled, suppressedTools } from "./config.ts";
import type { McpHub } from "./hub.ts";

/** Model APIs take tool names of letters, digits, _ and - only, at most 64 long. */
export const agentToolName = (server: string, tool: string) =>
  `${server}-${tool}`.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 64);

/**
 * The active tools of every server that is on; a server that cannot start is reported with `report` (a
 * sentence) and left out, so the agent still runs with the rest.
 */
export async function mcpTools(hub: McpHub, report: (text: string) => void): Promise<AgentTool[]> {
  const tools: AgentTool[] = [];
  for (const [server, raw] of Object.entries(await hub.entries())) {
    if (!serverEnabled(raw)) continue;
    let listed;
    try {
      listed = await hub.tools(server, raw);
    } catch (error) {
      report(messageOf(error));
      continue;
    }
    const suppressed = suppressedTools(raw);
    for (const tool of listed) {
      if (suppressed.includes(tool.name)) continue;
      const schema = tool.inputSchema && typeof tool.inputSchema === "object"
        ? tool.inputSchema as Record<string, unknown>
        : { type: "object", properties: {} };
      tools.push({
        name: agentToolName(server, tool.name),
        description: tool.description || `The tool ${tool.name} of the MCP server ${server}.`,
        parameters: schema,
        describe: () => `Using ${tool.name} of the MCP server ${server}.`,
        run: (args, signal) => hub.call(server, raw, tool.name, args, signal),
      });
    }
  }
  return tools;
}
