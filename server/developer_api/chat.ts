import type { Context } from "hono";
import { and, eq } from "drizzle-orm";
import { workspaces, workspaceThreads } from "../../db/schema.ts";
import { ApiChatInput, ApiChatResult } from "../../shared/api/chat.ts";
import type { Actor } from "../auth/actor.ts";
import type { Deps } from "../deps.ts";
import { fail } from "../errors.ts";
import type { AppEnv } from "../http/env.ts";
import { parseJson } from "../http/body.ts";
import { sseResponse } from "../http/sse.ts";
import { collectReply } from "../chat/collect.ts";
import { frames, streamFailureFrame } from "../chat/frames.ts";
import { API_DEFAULT_SESSION } from "../chat/history.ts";
import { type ReplyInput, streamReply } from "../chat/reply.ts";
import { findUserById } from "../users/repo.ts";
import { forbidden, needs } from "./access.ts";
import type { V1Router } from "./router.ts";

/** The reference's abort JSON, the answer of a refused chat call (api-contract §11). */
const abortBody = (message: string) => frames.abort(crypto.randomUUID(), message);

/** Which call: the workspace's chat, or a thread's; whole or streamed. */
interface Call {
  thread: boolean;
  stream: boolean;
}

/**
 * The workspace and thread of the call, refused as the reference refuses them: an unknown workspace is a 400
 * (a thread's whole chat: 404, a thread's stream: 400 naming both).
 */
async function placeOf(deps: Deps, c: Context<AppEnv>, call: Call) {
  const slug = c.req.param("slug") ?? "";
  const threadSlug = c.req.param("threadSlug") ?? "";
  const [workspace] = await deps.db.select().from(workspaces).where(eq(workspaces.slug, slug));
  const [thread] = workspace && call.thread
    ? await deps.db.select().from(workspaceThreads).where(
      and(eq(workspaceThreads.workspaceId, workspace.id), eq(workspaceThreads.slug, threadSlug)),
    )
    : [];
  if (!call.thread) {
    if (!workspace) {
      fail(
        "invalid_input",
        `Workspace ${slug} is not a valid workspace.`,
        abortBody(`Workspace ${slug} is not a valid workspace.`),
      );
    }
    return { workspace, thread: null };
  }
  if (call.stream && (!workspace || !thread)) {
    const message = `Workspace ${slug} or thread ${threadSlug} is not valid.`;
    fail("invalid_input", message, abortBody(message));
  }
  if (!workspace) {
    fail("not_found", `Workspace ${slug} not found.`, abortBody(`Workspace ${slug} not found.`));
  }
  if (!thread) {
    fail("not_found", `Thread ${threadSlug} not found.`, abortBody(`Thread ${threadSlug} not found.`));
  }
  return { workspace, thread };
}

/**
 * A thread's chat may be kept for a user (`userId`, as the reference's), which only a full-access key may ask;
 * an unknown user is ignored, as the reference ignores it.
 */
async function actorFor(deps: Deps, c: Context<AppEnv>, userId: number | undefined): Promise<Actor> {
  const actor = c.var.actor;
  if (userId === undefined) return actor;
  if (c.var.apiKey?.scope !== "admin") throw forbidden("Only a full-access API key can chat for a user.");
  const user = await findUserById(deps, userId);
  return user ? { ...actor, userId: user.id } : actor;
}

/** The request as the chat pipeline takes it; API chats are kept in their session, apart from the UI's. */
async function replyInput(deps: Deps, c: Context<AppEnv>, call: Call): Promise<ReplyInput> {
  const { workspace, thread } = await placeOf(deps, c, call);
  const body = await parseJson(c, ApiChatInput, abortBody, { bareMessages: true });
  return {
    actor: await actorFor(deps, c, call.thread ? body.userId : undefined),
    workspace,
    threadId: thread?.id ?? null,
    message: body.message,
    attachments: body.attachments,
    mode: body.mode,
    apiSessionId: body.sessionId ?? API_DEFAULT_SESSION,
    reset: body.reset,
  };
}

async function chatWhole(deps: Deps, c: Context<AppEnv>, call: Call) {
  const input = await replyInput(deps, c, call);
  const result = await collectReply(deps, input, c.req.raw.signal);
  // A failed answer (the model, the search or the provider settings) keeps the reference's body.
  return c.json(result, result.type === "abort" ? 502 : 200);
}

async function chatStream(deps: Deps, c: Context<AppEnv>, call: Call) {
  const input = await replyInput(deps, c, call);
  return sseResponse(deps, c.req.raw, (signal) => streamReply(deps, input, signal), {
    failureFrame: streamFailureFrame,
  });
}

const SESSIONS = "Chats made through the API are kept with their `sessionId` (chats without one share the " +
  "API's own session) and never appear in the UI's history; the UI's chats are not their history either.";

/** The developer API's chat calls (docs: /api/docs). */
export function chatRoutesV1(router: V1Router, deps: Deps): void {
  const whole = {
    tag: "Chat",
    body: ApiChatInput,
    response: ApiChatResult,
  };
  router.post("/workspace/:slug/chat", needs.workspace("chat"), {
    ...whole,
    summary: "Chat with a workspace",
    description:
      `The whole answer at once, with its citations. \`mode\` "chat" (or "automatic") also answers ` +
      `from general knowledge; "query" only from the documents; none: the workspace's. \`reset: true\` ` +
      `forgets the session's history first. ${SESSIONS} A failed answer is \`type: "abort"\` (status 502).`,
  }, (c) => chatWhole(deps, c, { thread: false, stream: false }));
  router.post("/workspace/:slug/stream-chat", needs.workspace("chat"), {
    tag: "Chat",
    body: ApiChatInput,
    stream: true,
    summary: "Chat with a workspace, streamed",
    description: `The answer as server-sent events, the same frames as the UI's chat. ${SESSIONS}`,
  }, (c) => chatStream(deps, c, { thread: false, stream: true }));
  router.post("/workspace/:slug/thread/:threadSlug/chat", needs.workspace("chat"), {
    ...whole,
    summary: "Chat in a thread",
    description:
      `As the workspace's chat, in one of its threads. \`userId\` (full-access keys) keeps the chat ` +
      `for that user. ${SESSIONS}`,
  }, (c) => chatWhole(deps, c, { thread: true, stream: false }));
  router.post("/workspace/:slug/thread/:threadSlug/stream-chat", needs.workspace("chat"), {
    tag: "Chat",
    body: ApiChatInput,
    stream: true,
    summary: "Chat in a thread, streamed",
    description: `As the workspace's streamed chat, in one of its threads. ${SESSIONS}`,
  }, (c) => chatStream(deps, c, { thread: true, stream: true }));
}
