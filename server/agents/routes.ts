import { Hono } from "hono";
import { upgradeWebSocket } from "hono/deno";
import type { Deps } from "../deps.ts";
import type { AppEnv } from "../http/env.ts";
import { optionalActor, requirePermission } from "../http/auth_guard.ts";
import { actorDeps } from "../auth/actor_deps.ts";
import { parseJson } from "../http/body.ts";
import { fail } from "../errors.ts";
import { AgentSettingsInput, SqlValidateInput } from "../../shared/api/agents.ts";
import { logSettingsChanged } from "../events/log.ts";
import { takeInvocation } from "./invocations.ts";
import { agentAvailable, AgentSession } from "./session.ts";
import { agentSettingsView, saveAgentSettings } from "./settings.ts";
import { readAgentFile } from "./skills/files.ts";
import { sqliteProblem } from "./skills/sql.ts";

/** The engines the SQL skill opens: database files (the reference's form names SQLite `sqlite`). */
const SQL_ENGINES = new Set(["sqlite", "libsql"]);

/** The subprotocol the agent socket speaks; the client sends its session token as a second one. */
export const AGENT_PROTOCOL = "lectern-agent";

/**
 * `GET /api/agent-invocation/:uuid`: the agent's socket. Mounted before the login check: a browser cannot send
 * headers with a socket, so the session token comes as the subprotocol `bearer.<token>`; the invocation must
 * exist, not have been used, not have expired, and belong to the same caller. A refused socket is opened and
 * closed at once with the reason (code 4401), which the client shows.
 */
export function agentSocketRoutes(deps: Deps) {
  return new Hono<AppEnv>().get("/agent-invocation/:uuid", async (c) => {
    if (c.req.header("upgrade")?.toLowerCase() !== "websocket") {
      return c.json({ success: false, error: "This address takes a WebSocket connection only." }, 426);
    }
    const protocols = (c.req.header("sec-websocket-protocol") ?? "").split(",").map((item) => item.trim());
    const token = protocols.find((item) => item.startsWith("bearer."))?.slice("bearer.".length);
    const actor = await optionalActor(actorDeps(deps), token ? `Bearer ${token}` : undefined);
    const invocation = takeInvocation(deps, c.req.param("uuid"));
    let refusal: string | null = null;
    if (!invocation) refusal = "This agent invocation does not exist, was used already or has expired.";
    else if (!actor || actor.userId !== invocation.actor.userId) {
      refusal = "This agent invocation belongs to another session.";
    }
    const upgrade = upgradeWebSocket(() => {
      let session: AgentSession | null = null;
      return {
        onOpen(_event, ws) {
          if (refusal || !invocation) {
            ws.send(JSON.stringify({ type: "wssFailure", content: refusal }));
            ws.close(4401, refusal!);
            return;
          }
          session = new AgentSession(deps, invocation, {
            send: (message) => ws.readyState === 1 && ws.send(JSON.stringify(message)),
            close: (code, reason) => ws.close(code, reason),
          });
          session.run().catch((error) => deps.log.error("Agent session failed", { error: String(error) }));
        },
        onMessage(event) {
          if (typeof event.data === "string") session?.receive(event.data);
        },
        onClose() {
          session?.gone();
        },
      };
      // The agent's subprotocol is chosen only when offered: the reference's client offers none (an open
      // instance), and a handshake naming one it did not offer is refused by the browser.
    }, protocols.includes(AGENT_PROTOCOL) ? { protocol: AGENT_PROTOCOL } : {});
    // Never passed on to the routes behind the login check.
    return (await upgrade(c, () => Promise.resolve())) ??
      c.json({ success: false, error: "This address takes a WebSocket connection only." }, 426);
  });
}

/** The agents screen's calls, the saved files' downloads, and the reference's skill checks. */
export function agentRoutes(deps: Deps) {
  return new Hono<AppEnv>()
    // The reference's file-system and create-files skills (files on the server's disk, Office documents) are
    // not among Lectern's skills: its own save-file skill stands for them.
    .get("/agent-skills/filesystem-agent/is-available", (c) => c.json({ available: false }))
    .get("/agent-skills/create-files-agent/is-available", (c) => c.json({ available: false }))
    .post("/system/validate-sql-connection", requirePermission("settings:manage"), async (c) => {
      const { engine, connectionString } = await parseJson(c, SqlValidateInput);
      if (!engine || !connectionString) {
        fail("invalid_input", "Both engine and connection details are required.");
      }
      if (!SQL_ENGINES.has(engine)) {
        return c.json({
          success: false,
          error: `Only SQLite and libSQL database files are supported, not ${engine}.`,
        });
      }
      const problem = sqliteProblem(deps, connectionString);
      return c.json({ success: !problem, error: problem });
    })
    .get("/agents/settings", requirePermission("settings:manage"), async (c) => {
      return c.json(await agentSettingsView(deps, agentAvailable(deps)));
    })
    .post("/agents/settings", requirePermission("settings:manage"), async (c) => {
      const input = await parseJson(c, AgentSettingsInput);
      const changed = await saveAgentSettings(deps, input);
      await logSettingsChanged(deps, changed, c.var.actor.userId);
      return c.json({
        success: true,
        error: null,
        settings: await agentSettingsView(deps, agentAvailable(deps)),
      });
    })
    .get("/agent-files/:id", async (c) => {
      const found = await readAgentFile(deps, c.req.param("id"));
      // Someone else's file is answered as missing, so its existence is not told.
      if (!found || (c.var.actor.multiUser && found.owner.userId !== c.var.actor.userId)) {
        fail("not_found", "File not found.");
      }
      const { owner, bytes } = found!;
      return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
        "Content-Type": owner.mime,
        "Content-Disposition": `attachment; filename="${owner.filename.replace(/"/g, "")}"`,
        "X-Content-Type-Options": "nosniff",
      });
    });
}
