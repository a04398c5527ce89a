import { type Context, Hono } from "hono";
import type { Deps } from "../deps.ts";
import type { AppEnv } from "../http/env.ts";
import { parseJson } from "../http/body.ts";
import { StreamChatInput } from "../../shared/api/chat.ts";
import { sseResponse } from "../http/sse.ts";
import { requireWorkspace } from "../workspaces/service.ts";
import { requireThread } from "../threads/service.ts";
import { frames, streamFailureFrame } from "./frames.ts";
import { historyOf } from "./history.ts";
import { streamReply } from "./reply.ts";
import { chatTimer, mark, timedStream } from "../http/timing.ts";

/** The 400/404 answers of stream-chat are abort JSON, not SSE (docs/api-compat.md#chat-request-body). */
const abortBody = (message: string) => frames.abort(crypto.randomUUID(), message);

/** `POST …/stream-chat` for the default thread (`threadSlug` null) or a named thread. */
export async function streamChatResponse(deps: Deps, c: Context<AppEnv>, threadSlug: string | null) {
  const timer = chatTimer();
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
  const { message, attachments } = await parseJson(c, StreamChatInput, abortBody, { bareMessages: true });
  mark("routed", timer);
  return sseResponse(
    deps,
    c.req.raw,
    (signal) =>
      timedStream(
        timer,
        streamReply(deps, {
          actor,
          workspace,
          threadId: thread?.id ?? null,
          message,
          attachments,
        }, signal),
      ),
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
