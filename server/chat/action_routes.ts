import { type Context, Hono } from "hono";
import type { Deps } from "../deps.ts";
import type { AppEnv } from "../http/env.ts";
import { parseJson } from "../http/body.ts";
import { requireWorkspace } from "../workspaces/service.ts";
import { requireThread } from "../threads/service.ts";
import {
  DeleteChatsInput,
  DeleteEditedChatsInput,
  FeedbackInput,
  UpdateChatInput,
} from "../../shared/api/chat_actions.ts";
import { idParam } from "../users/routes.ts";
import { deleteChats, deleteChatsFrom, hideChat, setFeedback, updateChatText } from "./actions.ts";

/** The workspace and, for thread routes, the thread the path names, both checked for the caller. */
async function scopeOf(deps: Deps, c: Context<AppEnv>) {
  const workspace = await requireWorkspace(deps, c.var.actor, c.req.param("slug") ?? "");
  const threadSlug = c.req.param("threadSlug");
  const thread = threadSlug ? await requireThread(deps, c.var.actor, workspace, threadSlug) : null;
  return { workspace, workspaceId: workspace.id, threadId: thread?.id ?? null, actor: c.var.actor };
}

/** Editing, regenerating, deleting and rating chats (docs/api-compat.md#workspace-and-thread-calls). */
export function chatActionRoutes(deps: Deps) {
  const app = new Hono<AppEnv>();
  for (const prefix of ["/workspace/:slug", "/workspace/:slug/thread/:threadSlug"]) {
    app.delete(`${prefix}/delete-edited-chats`, async (c) => {
      const scope = await scopeOf(deps, c);
      const input = await parseJson(c, DeleteEditedChatsInput);
      const deleted = await deleteChatsFrom(deps, scope, input.startingId);
      return c.json({ success: true, error: null, deleted });
    });
    app.post(`${prefix}/update-chat`, async (c) => {
      const scope = await scopeOf(deps, c);
      const input = await parseJson(c, UpdateChatInput);
      await updateChatText(deps, scope, input);
      return c.json({ success: true, error: null });
    });
  }
  app.delete("/workspace/:slug/delete-chats", async (c) => {
    const { workspace, actor } = await scopeOf(deps, c);
    const input = await parseJson(c, DeleteChatsInput);
    return c.json({
      success: true,
      error: null,
      deleted: await deleteChats(deps, actor, workspace, input.chatIds),
    });
  });
  app.post("/workspace/:slug/chat-feedback/:chatId", async (c) => {
    const { workspace, actor } = await scopeOf(deps, c);
    const input = await parseJson(c, FeedbackInput);
    await setFeedback(deps, actor, workspace, idParam(c.req.param("chatId"), "chat"), input.feedback);
    return c.json({ success: true });
  });
  app.put("/workspace/workspace-chats/:id", async (c) => {
    await hideChat(deps, c.var.actor, idParam(c.req.param("id"), "chat"));
    return c.json({ success: true, error: null });
  });
  return app;
}
