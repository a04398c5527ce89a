// The MCP servers' connections: each started (stdio) or reached (HTTP) on demand with the official SDK, and
// stopped once idle. Only this module talks to the SDK, which loads when the first server starts (it is the
// largest part of the agents' start-up cost otherwise).
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Logger } from "../../log.ts";
import { guardedFetch, type UrlGuardOptions } from "../../http/url_guard.ts";
import { messageOf } from "../../errors.ts";
import type { McpServerConfig, McpServerView, McpToolView } from "../../../shared/api/mcp.ts";
import {
  maskedConfig,
  parseServer,
  readMcpConfig,
  serverEnabled,
  serverKind,
  suppressedTools,
  writeMcpConfig,
} from "./config.ts";

/** The SDK's three modules, imported once, on the first server started. */
let sdk:
  | Promise<{
    Client: typeof Client;
    getDefaultEnvironment: typeof import("@modelcontextprotocol/sdk/client/stdio.js").getDefaultEnvironment;
    StdioClientTransport: typeof StdioClientTransport;
    StreamableHTTPClientTransport: typeof StreamableHTTPClientTransport;
  }>
  | null = null;
const loadSdk = () =>
  sdk ??= Promise.all([
    import("@modelcontextprotocol/sdk/client/index.js"),
    import("@modelcontextprotocol/sdk/client/stdio.js"),
    import("@modelcontextprotocol/sdk/client/streamableHttp.js"),
  ]).then(([index, stdio, http]) => ({
    Client: index.Client,
    getDefaultEnvironment: stdio.getDefaultEnvironment,
    StdioClientTransport: stdio.StdioClientTransport,
    StreamableHTTPClientTransport: http.StreamableHTTPClientTransport,
  }));

/** How long a server may take to start and answer MCP's initialize. */
const CONNECT_TIMEOUT_MS = 30_000;
/** How long one tool call may take, unless the agent's own time-out comes first. */
const CALL_TIMEOUT_MS = 120_000;
/** The most of a stdio server's error output kept for its failure message. */
const STDERR_CHARS = 2000;

export interface McpHubOptions {
  root: string;
  log: Logger;
  /** How HTTP servers are fetched (the URL guard; tests pass their resolver and fetch). */
  linkFetch?: () => (UrlGuardOptions & { fetch?: typeof fetch }) | undefined;
  /** A server unused this long is stopped (5 minutes). */
  idleMs?: number;
}

interface Live {
  client: Client;
  pid: number | null;
  busy: number;
  idleTimer: ReturnType<typeof setTimeout> | null;
  stderr: () => string;
}

/** A sentence: a message that does not end like one gets a period. */
const sentence = (text: string) => {
  const trimmed = text.trim().replace(/\s+/g, " ");
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
};

export class McpHub {
  private readonly live = new Map<string, Promise<Live>>();
  /** The last failure of each server, shown on the screen until it starts. */
  private readonly failures = new Map<string, string>();
  idleMs: number;

  constructor(private readonly options: McpHubOptions) {
    this.idleMs = options.idleMs ?? 5 * 60_000;
  }

  /** The configured servers, as stored (raw), by name. */
  async entries(): Promise<Record<string, Record<string, unknown>>> {
    return (await readMcpConfig(this.options.root)).mcpServers;
  }

  /** Whether a server's process or connection is up now. */
  isRunning(name: string): boolean {
    return this.live.has(name);
  }

  /** The server's connection, started when it has none. Throws a sentence when it cannot start. */
  connect(name: string, raw: Record<string, unknown>): Promise<Live> {
    const known = this.live.get(name);
    if (known) return known;
    const starting = this.start(name, raw);
    this.live.set(name, starting);
    starting.then(
      () => this.failures.delete(name),
      (error) => {
        if (this.live.get(name) === starting) this.live.delete(name);
        this.failures.set(name, messageOf(error));
      },
    );
    return starting;
  }

  private async start(name: string, raw: Record<string, unknown>): Promise<Live> {
    const parsed = parseServer(raw);
    if ("error" in parsed) throw new Error(`The MCP server ${name} is not configured right: ${parsed.error}`);
    const config = parsed.config;
    const { Client, getDefaultEnvironment, StdioClientTransport, StreamableHTTPClientTransport } =
      await loadSdk();
    const client = new Client({ name: "lectern", version: "1.0.0" });
    let stderrText = "";
    let transport: StdioClientTransport | StreamableHTTPClientTransport;
    if ("command" in config) {
      // The server gets the basic environment (PATH, HOME…) and its own variables, not Lectern's secrets.
      const stdio = new StdioClientTransport({
        command: config.command,
        args: config.args ?? [],
        env: { ...getDefaultEnvironment(), ...config.env },
        stderr: "pipe",
      });
      stdio.stderr?.on("data", (chunk: Uint8Array | string) => {
        stderrText = (stderrText + String(chunk)).slice(-STDERR_CHARS);
      });
      transport = stdio;
    } else {
      const guard = this.options.linkFetch?.() ?? {};
      // Through the one URL guard; the admin's own server may be on the local network (as SearXNG may).
      transport = new StreamableHTTPClientTransport(new URL(config.url), {
        requestInit: { headers: config.headers },
        fetch: (url: string | URL, init?: RequestInit) =>
          guardedFetch(String(url), init, { ...guard, allowPrivate: true }),
      });
    }
    const live: Live = {
      client,
      pid: null,
      busy: 0,
      idleTimer: null,
      stderr: () => stderrText.trim(),
    };
    client.onclose = () => {
      const current = this.live.get(name);
      // A server that went away by itself is started again on the next demand.
      current?.then((value) => value === live && this.forget(name, live), () => {});
    };
    try {
      await client.connect(transport, { timeout: CONNECT_TIMEOUT_MS });
    } catch (error) {
      await client.close().catch(() => {});
      const detail = stderrText.trim() ? ` It wrote: ${stderrText.trim().slice(-300)}` : "";
      throw new Error(`The MCP server ${name} could not be started: ${sentence(messageOf(error))}${detail}`);
    }
    live.pid = transport instanceof StdioClientTransport ? transport.pid : null;
    this.options.log.info("MCP server started", { name, kind: serverKind(config), pid: live.pid });
    this.touch(name, live);
    return live;
  }

  private forget(name: string, live: Live): void {
    if (live.idleTimer !== null) clearTimeout(live.idleTimer);
    this.live.delete(name);
  }

  /** Restarts the server's idle clock. */
  private touch(name: string, live: Live): void {
    if (live.idleTimer !== null) clearTimeout(live.idleTimer);
    const timer = setTimeout(() => {
      live.idleTimer = null;
      if (live.busy === 0) this.stop(name).catch(() => {});
      else this.touch(name, live);
    }, this.idleMs);
    Deno.unrefTimer(timer as unknown as number);
    live.idleTimer = timer;
  }

  /** Runs `work` with the server's connection, which counts as a use (the idle clock starts after it). */
  async use<T>(name: string, raw: Record<string, unknown>, work: (client: Client) => Promise<T>): Promise<T> {
    const live = await this.connect(name, raw);
    live.busy++;
    try {
      return await work(live.client);
    } finally {
      live.busy--;
      if (this.live.has(name)) this.touch(name, live);
    }
  }

  /** Stops a server (its process ends). */
  async stop(name: string): Promise<void> {
    const found = this.live.get(name);
    if (!found) return;
    this.live.delete(name);
    const live = await found.catch(() => null);
    if (!live) return;
    if (live.idleTimer !== null) clearTimeout(live.idleTimer);
    await live.client.close().catch(() => {});
    this.options.log.info("MCP server stopped", { name });
  }

  /** Stops every server (the app closes, or force-reload). */
  async stopAll(): Promise<void> {
    await Promise.all([...this.live.keys()].map((name) => this.stop(name)));
    this.failures.clear();
  }

  /** A server's tools, all of them (the suppressed ones too). */
  async tools(name: string, raw: Record<string, unknown>): Promise<McpToolView[]> {
    return await this.use(name, raw, async (client) => {
      const listed = await client.listTools(undefined, { timeout: CONNECT_TIMEOUT_MS }) as {
        tools: { name: string; description?: string; inputSchema?: unknown }[];
      };
      return listed.tools.map((tool) => ({
        name: tool.name,
        description: tool.description,
        inputSchema: tool.inputSchema,
      }));
    });
  }

  /** Calls a tool; its text content, or an error with the server's message when it reports one. */
  async call(
    name: string,
    raw: Record<string, unknown>,
    tool: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<string> {
    const result = await this.use(
      name,
      raw,
      (client) =>
        client.callTool({ name: tool, arguments: args }, undefined, {
          signal,
          timeout: CALL_TIMEOUT_MS,
        }) as Promise<Record<string, unknown>>,
    );
    const text = resultText(result);
    if (result.isError) throw new Error(sentence(text || `The tool ${tool} of ${name} failed`));
    return text;
  }

  /** Every configured server with its state and tools; enabled servers are started to list them. */
  async list(): Promise<McpServerView[]> {
    const views: McpServerView[] = [];
    for (const [name, raw] of Object.entries(await this.entries())) {
      const parsed = parseServer(raw);
      const enabled = serverEnabled(raw);
      const base = {
        name,
        config: "config" in parsed ? maskedConfig(parsed.config) : null,
        enabled,
        kind: "config" in parsed ? serverKind(parsed.config) : "stdio" as const,
      };
      if ("error" in parsed) {
        views.push({ ...base, running: false, tools: [], error: parsed.error, process: null });
        continue;
      }
      if (!enabled) {
        views.push({ ...base, running: false, tools: [], error: null, process: null });
        continue;
      }
      try {
        const tools = await this.tools(name, raw);
        const live = await this.live.get(name);
        views.push({ ...base, running: true, tools, error: null, process: { pid: live?.pid ?? null } });
      } catch (error) {
        views.push({
          ...base,
          running: false,
          tools: [],
          error: this.failures.get(name) ?? sentence(messageOf(error)),
          process: null,
        });
      }
    }
    return views;
  }

  /** Saves a server (a new one, or one replaced); a running one is stopped so the next use has the new setup. */
  async save(name: string, config: McpServerConfig): Promise<void> {
    const file = await readMcpConfig(this.options.root);
    file.mcpServers[name] = config as Record<string, unknown>;
    await writeMcpConfig(this.options.root, file);
    await this.stop(name);
    this.failures.delete(name);
  }

  async remove(name: string): Promise<boolean> {
    const file = await readMcpConfig(this.options.root);
    if (!file.mcpServers[name]) return false;
    delete file.mcpServers[name];
    await writeMcpConfig(this.options.root, file);
    await this.stop(name);
    this.failures.delete(name);
    return true;
  }

  /** Turns a server on (it is started to check it) or off (it is stopped). */
  async toggle(name: string): Promise<{ success: boolean; error: string | null }> {
    const file = await readMcpConfig(this.options.root);
    const raw = file.mcpServers[name];
    if (!raw) return { success: false, error: `MCP server ${name} not found in config file.` };
    const enabled = !serverEnabled(raw);
    raw.anythingllm = { ...(raw.anythingllm as object | undefined), autoStart: enabled };
    await writeMcpConfig(this.options.root, file);
    if (!enabled) {
      await this.stop(name);
      return { success: true, error: null };
    }
    try {
      await this.tools(name, raw);
      return { success: true, error: null };
    } catch (error) {
      return { success: false, error: sentence(messageOf(error)) };
    }
  }

  /** The reference's tool suppression: a suppressed tool is not offered to agents. */
  async toggleTool(
    serverName: string,
    toolName: string,
    enabled: boolean,
  ): Promise<{ success: boolean; error: string | null; suppressedTools: string[] }> {
    const file = await readMcpConfig(this.options.root);
    const raw = file.mcpServers[serverName];
    if (!raw) {
      return {
        success: false,
        error: `MCP server ${serverName} not found in config file.`,
        suppressedTools: [],
      };
    }
    const suppressed = new Set(suppressedTools(raw));
    if (enabled) suppressed.delete(toolName);
    else suppressed.add(toolName);
    raw.anythingllm = { ...(raw.anythingllm as object | undefined), suppressedTools: [...suppressed] };
    await writeMcpConfig(this.options.root, file);
    return { success: true, error: null, suppressedTools: [...suppressed] };
  }
}

/** The text parts of a tool's result; other parts (images, resources) as JSON. */
function resultText(result: Record<string, unknown>): string {
  const content = Array.isArray(result.content) ? result.content as Record<string, unknown>[] : [];
  const parts = content.map((part) =>
    part.type === "text" && typeof part.text === "string" ? part.text : JSON.stringify(part)
  );
  if (!parts.length && result.structuredContent) parts.push(JSON.stringify(result.structuredContent));
  return parts.join("\n");
}
