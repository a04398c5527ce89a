// Test helpers: a tiny stdio MCP server (tools "add" and "boom") written by the test and run with Deno.
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const CONFIG = fileURLToPath(new URL("../../../deno.json", import.meta.url));

/** A tiny MCP server on standard input and output, written with the SDK's server side. */
const STDIO_SERVER = `
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import * as z from "zod";
const server = new McpServer({ name: "tiny", version: "1.0.0" });
server.registerTool("add", {
  description: "Adds two numbers.",
  inputSchema: { a: z.number(), b: z.number() },
}, ({ a, b }) => ({ content: [{ type: "text", text: String(a + b) + " (" + Deno.env.get("GREETING") + ")" }] }));
server.registerTool("boom", { description: "Always fails." }, () => ({
  isError: true,
  content: [{ type: "text", text: "The boom tool broke" }],
}));
await server.connect(new StdioServerTransport());
`;

/** Writes the tiny server into `dir` and returns its stdio config (as `/mcp-servers/save` takes it). */
export async function writeStdioServer(dir: string) {
  const file = join(dir, "tiny_mcp.ts");
  await Deno.writeTextFile(file, STDIO_SERVER);
  return {
    command: Deno.execPath(),
    args: ["run", "--quiet", "-A", "--config", CONFIG, file],
    env: { GREETING: "hello" },
  };
}
