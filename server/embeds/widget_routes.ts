import { type Context, Hono, type Next } from "hono";
import { EmbedStreamChatBody } from "../../shared/api/embeds.ts";
import type { Actor } from "../auth/actor.ts";
import { frames, streamFailureFrame } from "../chat/frames.ts";
import { streamReply } from "../chat/reply.ts";
import type { Deps } from "../deps.ts";
import { parseJson } from "../http/body.ts";
import { clientAddress } from "../http/client_address.ts";
import type { AppEnv } from "../http/env.ts";
import { sseResponse } from "../http/sse.ts";
import type { WorkspaceRow } from "../workspaces/present.ts";
import { workspaces } from "../../db/schema.ts";
import { eq } from "drizzle-orm";
import { isUuid, originAllowed, refusalLog } from "./access.ts";
import {
  chatsInLastDay,
  type EmbedRow,
  findEmbedByUuid,
  resetSession,
  sessionHistory,
  sessionStore,
} from "./service.ts";

/** The reference's texts (its utils/middleware/embedMiddleware.js), kept word for word. */
export const EMBED_MESSAGES = {
  unknown: "This chat does not exist.",
  refused: "Invalid request.",
  disabled: "This chat has been disabled by the administrator - try again later.",
  session: "Invalid session ID.",
  empty: "Message is empty.",
  rateLimited: "Rate limit exceeded",
  dayQuota: "The quota for this chat has been reached. Try again later or contact the site owner.",
  sessionQuota: "Your quota for this chat has been reached. Try again later or contact the site owner.",
} as const;

/** Who chats through a widget: a visitor without an account, with no presets, quota or files of their own. */
const VISITOR: Actor = Object.freeze({ userId: null, role: "default", multiUser: true });

/** The segments under /api/embed/ that are the admin calls' (server/embeds/routes.ts), not an embed. */
const ADMIN_SEGMENTS = new Set(["chats", "update"]);

const abortBody = (message: string, extra: Record<string, unknown> = {}) => ({
  ...frames.abort(crypto.randomUUID(), message),
  ...extra,
});

type Checked = { embed: EmbedRow; workspace: WorkspaceRow } | Response;

/**
 * The embed a widget call names, checked in the reference's order: it exists (404), the page's Origin is one of
 * its domains (403, logged; Lectern's status, the reference answers 401), it is enabled (404 here; the
 * reference's 503 with the same text).
 */
async function checkEmbed(deps: Deps, c: Context<AppEnv>, uuid: string): Promise<Checked> {
  const embed = isUuid(uuid) ? await findEmbedByUuid(deps, uuid) : null;
  if (!embed) return c.json(abortBody(EMBED_MESSAGES.unknown), 404);
  const origin = c.req.header("origin");
  if (!originAllowed(embed, origin)) {
    await refusalLog(deps).refused(embed, origin, c.req.path);
    return c.json(abortBody(EMBED_MESSAGES.refused), 403);
  }
  if (!embed.enabled) return c.json(abortBody(EMBED_MESSAGES.disabled), 404);
  const [workspace] = await deps.db.select().from(workspaces).where(eq(workspaces.id, embed.workspaceId));
  if (!workspace) return c.json(abortBody(EMBED_MESSAGES.unknown), 404);
  return { embed, workspace };
}

/** A temperature the widget asked for, when it is one (0 to 2). */
function temperatureOf(value: unknown): number | null {
  const number = typeof value === "number" ? value : typeof value === "string" ? Number(value) : NaN;
  return Number.isFinite(number) && number >= 0 && number <= 2 ? number : null;
}

/** The workspace as this chat sees it: the overrides the embed allows, and only those, replace its settings. */
function withOverrides(
  embed: EmbedRow,
  workspace: WorkspaceRow,
  body: { prompt?: unknown; model?: unknown; temperature?: unknown },
): WorkspaceRow {
  let result = workspace;
  if (embed.allowPromptOverride && typeof body.prompt === "string" && body.prompt.trim() !== "") {
    result = { ...result, openAiPrompt: body.prompt };
  }
  const temperature = embed.allowTemperatureOverride ? temperatureOf(body.temperature) : null;
  if (temperature !== null) result = { ...result, openAiTemp: temperature };
  if (
    embed.allowModelOverride && typeof body.model === "string" && body.model.trim() !== "" &&
    body.model.length <= 200
  ) {
    result = { ...result, chatModel: body.model.trim() };
  }
  return result;
}

/**
 * The widget's public calls (the reference's server/endpoints/embed/index.js): no session; each checks its
 * embed and the page's Origin itself (the origin guard lets them through, CORS answers only the embed's
 * domains: server/embeds/access.ts). The body is bounded like every call open before login (64 KB).
 */
export function embedWidgetRoutes(deps: Deps) {
  /** The admin calls under /api/embed/ go on to the session guard and their own routes. */
  const adminCall = (c: Context<AppEnv>) => ADMIN_SEGMENTS.has(c.req.param("embedId") ?? "");
  const pass = async (next: Next) => {
    await next();
  };

  return new Hono<AppEnv>()
    .post("/embed/:embedId/stream-chat", async (c, next) => {
      if (adminCall(c)) return await pass(next);
      const checked = await checkEmbed(deps, c, c.req.param("embedId"));
      if (checked instanceof Response) return checked;
      const { embed, workspace } = checked;
      const body = await parseJson(c, EmbedStreamChatBody, (message) => abortBody(message), {
        bareMessages: true,
      });
      const sessionId = typeof body.sessionId === "string" && isUuid(body.sessionId) ? body.sessionId : null;
      if (sessionId === null) return c.json(abortBody(EMBED_MESSAGES.session), 404);
      const message = typeof body.message === "string" && body.message.trim() !== "" ? body.message : null;
      if (message === null) return c.json(abortBody(EMBED_MESSAGES.empty), 400);
      if (embed.maxChatsPerDay && await chatsInLastDay(deps, embed.id) >= embed.maxChatsPerDay) {
        return c.json(
          abortBody(EMBED_MESSAGES.rateLimited, { errorMsg: EMBED_MESSAGES.dayQuota }),
          429,
        );
      }
      if (
        embed.maxChatsPerSession &&
        await chatsInLastDay(deps, embed.id, sessionId) >= embed.maxChatsPerSession
      ) {
        return c.json(abortBody(EMBED_MESSAGES.sessionQuota), 429);
      }
      const username = typeof body.username === "string" && body.username !== ""
        ? body.username.slice(0, 200)
        : null;
      const store = sessionStore(deps, embed, sessionId, {
        host: c.req.header("origin") ?? null,
        ip: clientAddress(c, deps.config.trustProxy),
        username,
      });
      return sseResponse(
        deps,
        c.req.raw,
        (signal) =>
          streamReply(deps, {
            actor: VISITOR,
            workspace: withOverrides(embed, workspace, body),
            threadId: null,
            message,
            mode: embed.chatMode,
            store,
          }, signal),
        { failureFrame: streamFailureFrame },
      );
    })
    .get("/embed/:embedId/:sessionId", async (c, next) => {
      if (adminCall(c)) return await pass(next);
      const checked = await checkEmbed(deps, c, c.req.param("embedId"));
      if (checked instanceof Response) return checked;
      const history = await sessionHistory(deps, checked.embed.id, c.req.param("sessionId"));
      return c.json({ history });
    })
    .delete("/embed/:embedId/:sessionId", async (c, next) => {
      if (adminCall(c)) return await pass(next);
      const checked = await checkEmbed(deps, c, c.req.param("embedId"));
      if (checked instanceof Response) return checked;
      await resetSession(deps, checked.embed.id, c.req.param("sessionId"));
      return c.body(null, 200);
    });
}
