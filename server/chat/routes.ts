import { type Context, Hono } from "hono";
import type { Deps } from "../deps.ts";
import type { AppEnv } from "../http/env.ts";
import { readJson } from "../http/body.ts";
import { MAX_MESSAGE_CHARS } from "../../shared/api/chat_actions.ts";
import { sseResponse } from "../http/sse.ts";
import { requireWorkspace } from "../workspaces/service.ts";
import { requireThread } from "../threads/service.ts";
import { AppError } from "../errors.ts";
import { frames, streamFailureFrame } from "./frames.ts";
import { historyOf } from "./history.ts";
import { streamReply } from "./reply.ts";
import { parseAttachments } from "./attachments.ts";

/** The 400/404 answers of stream-chat are abort JSON, not SSE (docs/api-compat.md#chat-request-body). */
const abortBody = (message: string) => frames.abort(crypto.randomUUID(), message);

/** `POST …/stream-chat` for the default thread (`threadSlug` null) or a named thread. */
export async function streamChatResponse(deps: Deps, c: Context<AppEnv>, threadSlug: string | null) {
  const actor = c.var.actor;
  const workspace = await requireWorkspace(
    deps,
    actor,
    c.req.param("slug") ?? "",
    abortBody("Workspace does not exist."),
  );
  const thread = threadSlug === null
    ? null
    : await requireThread(deps, actor, workspace, threadSlug, abortBody("Workspace thread does not exist."));
  const body = await readJson(c, abortBody) as { message?: unknown; attachments?: unknown };
  const message = typeof body?.message === "string" ? body.message : "";
  if (message.trim() === "") {
    throw new AppError("invalid_input", "Message is empty.", { body: abortBody("Message is empty.") });
  }
  if (message.length > MAX_MESSAGE_CHARS) {
    const tooLong = `The message is too long: at most ${
      MAX_MESSAGE_CHARS.toLocaleString("en")
    } characters. Add long text to the workspace as a document instead.`;
    throw new AppError("too_large", tooLong, { body: abortBody(tooLong) });
  }
  const attachments = parseAttachments(body.attachments);
  if ("error" in attachments) {
    throw new AppError("invalid_input", attachments.error, { body: abortBody(attachments.error) });
  }
  return sseResponse(
    deps,
    c.req.raw,
    (signal) =>
      streamReply(deps, {
        actor,
        workspace,
        threadId: thread?.id ?? null,
        message,
        attachments: attachments.images,
      }, signal),
    { failureFrame: streamFailureFrame },
  );
}

/** Chat calls of the default thread. */
export function chatRoutes(deps: Deps) {
  return new Hono<AppEnv>()
    .get("/workspace/:slug/chats", async (c) => {
      const workspace = await requireWorkspace(deps, c.var.actor, c.req.param("slug"));
      const history = await historyOf(deps, {
        workspaceId: workspace.id,
        threadId: null,
        actor: c.var.actor,
      });
      return c.json({ history });
    })
    .post("/workspace/:slug/stream-chat", (c) => streamChatResponse(deps, c, null));
}
