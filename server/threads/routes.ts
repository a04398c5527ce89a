import { Hono } from "hono";
import type { Deps } from "../deps.ts";
import type { AppEnv } from "../http/env.ts";
import { requireWorkspace } from "../workspaces/service.ts";
import { historyOf } from "../chat/history.ts";
import { streamChatResponse } from "../chat/routes.ts";
import {
  createThread,
  defaultThreadChatCount,
  listThreads,
  presentThread,
  requireThread,
} from "./service.ts";

/** Thread calls (spec 01 §7.3, api-contract.md §5.3). */
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
    );
}
