import assert from "node:assert/strict";
import { join } from "node:path";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import * as z from "zod";
import { configuredTestApp, type TestApp } from "../../testing/test_app.ts";
import { type ChatCompletionRequest, startFakeOpenAi } from "../../testing/fake_openai.ts";
import { openAgentSocket, sendChat } from "../testing.ts";
import { writeStdioServer } from "./testing.ts";
import type { McpServerView } from "../../../shared/api/mcp.ts";

async function stdioServer(app: TestApp) {
  return await writeStdioServer(app.storageDir);
}

/** A streamable-HTTP MCP server on 127.0.0.1 (stateless: a server and transport per request). */
function httpServer() {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    // Stateless: no stream of its own for the client to listen to.
    if (request.method !== "POST") return new Response(null, { status: 405, headers: { Allow: "POST" } });
    const mcp = new McpServer({ name: "weather", version: "1.0.0" });
    mcp.registerTool("forecast", {
      description: "Tells the weather of a city.",
      inputSchema: { city: z.string() },
    }, ({ city }: { city: string }) => ({ content: [{ type: "text", text: `Sunny in ${city}.` }] }));
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await mcp.connect(transport);
    return await transport.handleRequest(request);
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}/mcp`,
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}

const lastMessage = (request: ChatCompletionRequest) => request.messages.at(-1)!;

function callThenAnswer(call: { name: string; arguments: Record<string, unknown> }) {
  return (request: ChatCompletionRequest) => {
    const last = lastMessage(request);
    if (last.role === "tool") return { chunks: ["Tool said: ", String(last.content).slice(0, 200)] };
    return { toolCalls: [call] };
  };
}

async function agentAnswer(app: TestApp, base: string, message: string) {
  const created = await app.json<{ workspace: { slug: string } }>("/api/workspace/new", {
    json: { name: `W ${crypto.randomUUID().slice(0, 6)}` },
  });
  const frames = await sendChat(app, created.body.workspace.slug, message);
  const init = frames.find((frame) => frame.type === "agentInitWebsocketConnection");
  assert.ok(init, JSON.stringify(frames));
  const socket = openAgentSocket(base, String(init.websocketUUID));
  const answer = await socket.next((entry) => entry.from === "@agent" || entry.type === "wssFailure");
  socket.send("/exit");
  await socket.closed;
  return { answer, messages: socket.messages };
}

const list = async (app: TestApp) =>
  (await app.json<{ success: boolean; servers: McpServerView[] }>("/api/mcp-servers/list")).body;

Deno.test("a stdio MCP server: saved, started on demand, its tools listed, toggled and used by the agent, stopped when idle", async () => {
  await using llm = startFakeOpenAi();
  await using app = await configuredTestApp({ llm: llm.baseURL });
  const base = app.listen();
  const server = await stdioServer(app);

  const saved = await app.json("/api/mcp-servers/save", { json: { name: "tiny", server } });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
  // Kept where and as the reference keeps it.
  const file = JSON.parse(
    await Deno.readTextFile(join(app.storageDir, "plugins", "anythingllm_mcp_servers.json")),
  );
  assert.deepEqual(file.mcpServers.tiny.env, { GREETING: "hello" });

  let body = await list(app);
  assert.equal(body.success, true);
  const [tiny] = body.servers;
  assert.equal(tiny.name, "tiny");
  assert.equal(tiny.running, true, tiny.error ?? "");
  assert.equal(tiny.kind, "stdio");
  assert.equal(typeof tiny.process?.pid, "number");
  assert.deepEqual(tiny.tools.map((tool) => tool.name).sort(), ["add", "boom"]);
  // The environment's values are not sent back; sent back masked, the stored ones are kept.
  assert.deepEqual((tiny.config as { env: unknown }).env, { GREETING: "********" });
  await app.json("/api/mcp-servers/save", { json: { name: "tiny", server: tiny.config } });
  assert.deepEqual(
    JSON.parse(await Deno.readTextFile(join(app.storageDir, "plugins", "anythingllm_mcp_servers.json")))
      .mcpServers.tiny.env,
    { GREETING: "hello" },
  );

  const suppressed = await app.json("/api/mcp-servers/toggle-tool", {
    json: { serverName: "tiny", toolName: "boom", enabled: false },
  });
  assert.deepEqual(suppressed.body, { success: true, error: null, suppressedTools: ["boom"] });

  // Stopped once idle: the next use starts it again.
  app.deps.mcp.idleMs = 1;
  llm.setReply(callThenAnswer({ name: "tiny-add", arguments: { a: 2, b: 3 } }));
  const { answer, messages } = await agentAnswer(app, base, "@agent add 2 and 3");
  assert.equal(answer.content, "Tool said: 5 (hello)");
  assert.ok(messages.some((entry) => entry.type === "toolCall" && entry.name === "tiny-add"));
  const offered = llm.chatRequests[0].tools!.map((tool) => tool.function.name);
  assert.ok(offered.includes("tiny-add"), offered.join(", "));
  assert.ok(!offered.includes("tiny-boom"), "a suppressed tool is not offered");
  assert.deepEqual(
    llm.chatRequests[0].tools!.find((tool) => tool.function.name === "tiny-add")!.function.parameters,
    {
      ...(llm.chatRequests[0].tools!.find((tool) => tool.function.name === "tiny-add")!.function
        .parameters as object),
      type: "object",
      required: ["a", "b"],
    },
  );
  while (app.deps.mcp.isRunning("tiny")) await new Promise((resolve) => setTimeout(resolve, 20));

  // A failing tool's message reaches the model and the person.
  app.deps.mcp.idleMs = 60_000;
  await app.json("/api/mcp-servers/toggle-tool", {
    json: { serverName: "tiny", toolName: "boom", enabled: true },
  });
  llm.setReply(callThenAnswer({ name: "tiny-boom", arguments: {} }));
  const failed = await agentAnswer(app, base, "@agent boom");
  assert.equal(failed.answer.content, "Tool said: Error: The boom tool broke.");
  assert.ok(
    failed.messages.some((entry) =>
      entry.type === "statusResponse" && entry.content === "tiny-boom failed: The boom tool broke."
    ),
  );

  // Turned off: stopped, not offered, not started by the list.
  const off = await app.json("/api/mcp-servers/toggle", { json: { name: "tiny" } });
  assert.deepEqual(off.body, { success: true, error: null });
  assert.equal(app.deps.mcp.isRunning("tiny"), false);
  body = await list(app);
  assert.equal(body.servers[0].enabled, false);
  assert.equal(body.servers[0].running, false);
  assert.equal(app.deps.mcp.isRunning("tiny"), false);

  const removed = await app.json("/api/mcp-servers/delete", { json: { name: "tiny" } });
  assert.deepEqual(removed.body, { success: true, error: null });
  assert.deepEqual((await list(app)).servers, []);
  const again = await app.json("/api/mcp-servers/delete", { json: { name: "tiny" } });
  assert.deepEqual(again.body, { success: false, error: "MCP server tiny not found in config file." });
});

Deno.test("a streamable-HTTP MCP server on loopback is used through the URL guard; a server that cannot start is told in sentences", async () => {
  await using weather = httpServer();
  await using llm = startFakeOpenAi();
  await using app = await configuredTestApp({ llm: llm.baseURL });
  const base = app.listen();

  const saved = await app.json("/api/mcp-servers/save", {
    json: { name: "weather", server: { type: "streamable", url: weather.url } },
  });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
  const broken = await app.json("/api/mcp-servers/save", {
    json: { name: "broken", server: { command: join(app.storageDir, "no-such-program") } },
  });
  assert.equal(broken.status, 200);

  const { servers } = await list(app);
  const byName = Object.fromEntries(servers.map((server) => [server.name, server]));
  assert.equal(byName.weather.running, true, byName.weather.error ?? "");
  assert.equal(byName.weather.kind, "http");
  assert.deepEqual(byName.weather.tools.map((tool) => tool.name), ["forecast"]);
  assert.equal(byName.broken.running, false);
  assert.match(byName.broken.error!, /^The MCP server broken could not be started: .+\.$/);

  llm.setReply(callThenAnswer({ name: "weather-forecast", arguments: { city: "Fredville" } }));
  const { answer, messages } = await agentAnswer(app, base, "@agent weather in Fredville?");
  assert.equal(answer.content, "Tool said: Sunny in Fredville.");
  assert.ok(
    messages.some((entry) =>
      entry.type === "statusResponse" &&
      /^The MCP server broken could not be started: /.test(String(entry.content))
    ),
  );

  const invalid = await app.json("/api/mcp-servers/save", {
    json: { name: "bad name!", server: { type: "streamable", url: "ftp://x" } },
  });
  assert.equal(invalid.status, 400);
  assert.match(JSON.stringify(invalid.body), /A server's name may hold letters, digits, - and _ only\./);
});
