// `/api/mcp-servers/*`: the reference's calls of its MCP screen, for admins; `save` is Lectern's own (the
// reference has its config file edited by hand).
import { Hono } from "hono";
import type { Deps } from "../../deps.ts";
import type { AppEnv } from "../../http/env.ts";
import { requirePermission } from "../../http/auth_guard.ts";
import { parseJson } from "../../http/body.ts";
import { logSettingsChanged } from "../../events/log.ts";
import { McpNameInput, McpSaveInput, McpToggleToolInput } from "../../../shared/api/mcp.ts";
import { unmask } from "./config.ts";

export function mcpRoutes(deps: Deps) {
  const hub = deps.mcp;
  const admin = requirePermission("settings:manage");
  return new Hono<AppEnv>()
    .get("/mcp-servers/list", admin, async (c) => {
      return c.json({ success: true, error: null, servers: await hub.list() });
    })
    .get("/mcp-servers/force-reload", admin, async (c) => {
      await hub.stopAll();
      return c.json({ success: true, error: null, servers: await hub.list() });
    })
    .post("/mcp-servers/save", admin, async (c) => {
      const { name, server } = await parseJson(c, McpSaveInput);
      const before = (await hub.entries())[name];
      if ("command" in server) {
        server.env = unmask(server.env, before?.env as Record<string, unknown> | undefined);
      } else {
        server.headers = unmask(server.headers, before?.headers as Record<string, unknown> | undefined);
      }
      // The screen does not send Lectern's own options: a replaced server keeps them.
      server.anythingllm ??= before?.anythingllm as typeof server.anythingllm;
      await hub.save(name, server);
      await logSettingsChanged(deps, [`mcp_server:${name}`], c.var.actor.userId);
      // Nothing is started here: the list (or an agent) starts it.
      return c.json({ success: true, error: null });
    })
    .post("/mcp-servers/toggle", admin, async (c) => {
      const { name } = await parseJson(c, McpNameInput);
      // As the reference: 200 with success false when it cannot (its client reads the body only).
      return c.json(await hub.toggle(name));
    })
    .post("/mcp-servers/delete", admin, async (c) => {
      const { name } = await parseJson(c, McpNameInput);
      if (!await hub.remove(name)) {
        return c.json({ success: false, error: `MCP server ${name} not found in config file.` });
      }
      await logSettingsChanged(deps, [`mcp_server:${name}`], c.var.actor.userId);
      return c.json({ success: true, error: null });
    })
    .post("/mcp-servers/toggle-tool", admin, async (c) => {
      const { serverName, toolName, enabled } = await parseJson(c, McpToggleToolInput);
      return c.json(await hub.toggleTool(serverName, toolName, enabled));
    });
}
