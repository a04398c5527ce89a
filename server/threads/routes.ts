import { Hono } from "hono";
import type { Deps } from "../deps.ts";
import type { AppEnv } from "../http/env.ts";
import { requireWorkspace } from "../workspaces/service.ts";
import { historyOf } from "../chat/history.ts";
import { streamChatResponse } from "../chat/routes.ts";
import {
  createThread,
  defaultThreadChatCount,
  deleteThreads,
  listThreads,
  presentThread,
  renameThread,
  requireThread,
} from "./service.ts";
import { parseJson } from "../http/body.ts";
import { BulkDeleteThreadsInput, ForkThreadInput, RenameThreadInput } from "../../shared/api/chat_actions.ts";
import { forkThread } from "../chat/actions.ts";

/** Thread calls (docs/api-compat.md#workspace-and-thread-calls). */
export function threadRoutes(deps: Deps) {
  return new Hono<AppEnv>()
    .get("/workspace/:slug/threads", async (c) => {
      const workspace = await requireWorkspace(deps, c.var.actor, c.req.param("slug"));
      const threads = await listThreads(deps, c.var.actor, workspace);
      return c.json({
        threads: threads.map(presentThread),
        defaultThreadChatCount: await defaultThreadChatCount(deps, c.var.actor, workspace),
      });
    })
    .post("/workspace/:slug/thread/new", async (c) => {
      const workspace = await requireWorkspace(deps, c.var.actor, c.req.param("slug"), {
        thread: null,
        error: "Workspace does not exist.",
      });
      const thread = await createThread(deps, c.var.actor, workspace);
      return c.json({ thread: presentThread(thread), message: null });
    })
    .get("/workspace/:slug/thread/:threadSlug/chats", async (c) => {
      const workspace = await requireWorkspace(deps, c.var.actor, c.req.param("slug"));
      const thread = await requireThread(deps, c.var.actor, workspace, c.req.param("threadSlug"));
      return c.json({
        history: await historyOf(deps, {
          workspaceId: workspace.id,
          threadId: thread.id,
          actor: c.var.actor,
        }),
      });
    })
    .post(
      "/workspace/:slug/thread/:threadSlug/stream-chat",
      (c) => streamChatResponse(deps, c, c.req.param("threadSlug")),
    )
    .post("/workspace/:slug/thread/:threadSlug/update", async (c) => {
      const errorBody = (message: string) => ({ thread: null, message });
      const workspace = await requireWorkspace(
        deps,
        c.var.actor,
        c.req.param("slug"),
        errorBody("Workspace does not exist."),
      );
      const thread = await requireThread(
        deps,
        c.var.actor,
        workspace,
        c.req.param("threadSlug"),
        errorBody("Workspace thread does not exist."),
      );
      const input = await parseJson(c, RenameThreadInput, errorBody, { bareMessages: true });
      return c.json({ thread: presentThread(await renameThread(deps, thread, input.name)), message: null });
    })
    .delete("/workspace/:slug/thread/:threadSlug", async (c) => {
      const workspace = await requireWorkspace(deps, c.var.actor, c.req.param("slug"));
      const thread = await requireThread(deps, c.var.actor, workspace, c.req.param("threadSlug"));
      await deleteThreads(deps, c.var.actor, workspace, [thread.slug]);
      return c.json({ success: true, error: null });
    })
    .delete("/workspace/:slug/thread-bulk-delete", async (c) => {
      const workspace = await requireWorkspace(deps, c.var.actor, c.req.param("slug"));
      const input = await parseJson(c, BulkDeleteThreadsInput);
      const deleted = await deleteThreads(deps, c.var.actor, workspace, input.slugs);
      return c.json({ success: true, error: null, deleted });
    })
    .post("/workspace/:slug/thread/fork", async (c) => {
      const errorBody = (message: string) => ({ newThreadSlug: null, message });
      const workspace = await requireWorkspace(
        deps,
        c.var.actor,
        c.req.param("slug"),
        errorBody("Workspace does not exist."),
      );
      const input = await parseJson(c, ForkThreadInput, () => errorBody("chatId is required"));
      const from = input.threadSlug
        ? await requireThread(deps, c.var.actor, workspace, input.threadSlug)
        : null;
      const thread = await forkThread(deps, c.var.actor, workspace, from?.id ?? null, input.chatId);
      return c.json({ newThreadSlug: thread.slug });
    });
}
