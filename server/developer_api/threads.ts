import type { Context } from "hono";
import type { Deps } from "../deps.ts";
import type { AppEnv } from "../http/env.ts";
import { parseJson } from "../http/body.ts";
import { AppError, withErrorBody } from "../errors.ts";
import { History } from "../../shared/api/chat.ts";
import { RenameThreadInput } from "../../shared/api/chat_actions.ts";
import { V1NewThreadInput, V1ThreadAnswer } from "../../shared/api/v1_workspaces.ts";
import {
  createThread,
  deleteThreads,
  presentThread,
  renameThread,
  requireThread,
  type ThreadRow,
} from "../threads/service.ts";
import { historyOf } from "../chat/history.ts";
import { requireWorkspace } from "../workspaces/service.ts";
import { threadSlug } from "../workspaces/slug.ts";
import type { WorkspaceRow } from "../workspaces/present.ts";
import { findUserById } from "../users/repo.ts";
import { needs } from "./access.ts";
import type { V1Router } from "./router.ts";
import { workspaceOfRoute } from "./workspaces.ts";

type ErrorBody = (message: string) => Record<string, unknown>;
const threadOrMessage: ErrorBody = (message) => ({ thread: null, message });

/**
 * The workspace and thread of the route, or a 404 `{message}` with the reference's words ("Workspace not
 * found", "Thread not found"), as its thread update and thread chats calls answer. The thread may be any user's:
 * an API key has no user, so the UI's rule that a user sees only their own threads does not apply to it (as in
 * the reference).
 */
async function workspaceAndThread(
  deps: Deps,
  c: Context<AppEnv>,
): Promise<{ workspace: WorkspaceRow; thread: ThreadRow }> {
  const workspace = await requireWorkspace(deps, c.var.actor, c.req.param("slug") ?? "", {
    message: "Workspace not found",
  });
  const thread = await requireThread(deps, c.var.actor, workspace, c.req.param("threadSlug") ?? "", {
    message: "Thread not found",
  });
  return { workspace, thread };
}

/**
 * The owner of a new thread: in multi-user mode the user `userId` names (a 400 when there is none), else nobody
 * (single-user mode has no users, so the reference drops `userId` there).
 */
async function ownerOf(deps: Deps, c: Context<AppEnv>, userId: number | null | undefined) {
  if (!c.var.actor.multiUser || !userId) return null;
  if (!(await findUserById(deps, userId))) {
    const message = `userId ${userId} is not the id of a user.`;
    throw new AppError("invalid_input", message, { body: threadOrMessage(message) });
  }
  return userId;
}

/** The developer API's threads calls (docs: /api/docs). Their chat calls are with the chat calls. */
export function threadRoutesV1(router: V1Router, deps: Deps): void {
  const tag = "Threads";

  router.post("/workspace/:slug/thread/new", needs.workspace("chat"), {
    summary: "Create a thread",
    description: 'Optional `name` (default "Thread") and `slug` (made URL-safe; a slug already in use is a ' +
      "409). In multi-user mode `userId` names the user who owns the thread (it must exist); without it the " +
      "thread belongs to nobody and only the API sees it. Single-user mode ignores `userId`.",
    tag,
    body: V1NewThreadInput,
    response: V1ThreadAnswer,
  }, async (c) => {
    const workspace = await workspaceOfRoute(deps, c, threadOrMessage);
    const input = await parseJson(c, V1NewThreadInput, threadOrMessage, { bareMessages: true });
    const userId = await ownerOf(deps, c, input.userId);
    const thread = await withErrorBody(
      threadOrMessage,
      () =>
        createThread(deps, { ...c.var.actor, userId }, workspace, {
          name: input.name,
          slug: input.slug ? threadSlug(input.slug) : null,
        }),
    );
    return c.json({ thread: presentThread(thread), message: null });
  });

  router.post("/workspace/:slug/thread/:threadSlug/update", needs.workspace("chat"), {
    summary: "Rename a thread",
    description: 'An unknown workspace or thread is a 404 `{message: "Workspace not found"}` or ' +
      '`{message: "Thread not found"}`.',
    tag,
    body: RenameThreadInput,
    response: V1ThreadAnswer,
  }, async (c) => {
    const { thread } = await workspaceAndThread(deps, c);
    const input = await parseJson(c, RenameThreadInput, threadOrMessage, { bareMessages: true });
    return c.json({ thread: presentThread(await renameThread(deps, thread, input.name)), message: null });
  });

  router.delete("/workspace/:slug/thread/:threadSlug", needs.workspace("chat"), {
    summary: "Delete a thread",
    description:
      "Deletes the thread and its chats; answers `OK`, also when the workspace has no such thread " +
      "(as the reference). An unknown workspace is a 400.",
    tag,
  }, async (c) => {
    const workspace = await workspaceOfRoute(deps, c);
    // Any owner's thread: the actor of an API key is an admin without a user.
    await deleteThreads(deps, c.var.actor, workspace, [c.req.param("threadSlug")]);
    return c.text("OK");
  });

  router.get("/workspace/:slug/thread/:threadSlug/chats", needs.workspace("read"), {
    summary: "Read a thread's chats",
    description:
      "Every user's chats in the thread (not those cleared by /reset), oldest first, as `{history}`.",
    tag,
    response: History,
  }, async (c) => {
    const { workspace, thread } = await workspaceAndThread(deps, c);
    return c.json({
      history: await historyOf(deps, { workspaceId: workspace.id, threadId: thread.id, actor: c.var.actor }),
    });
  });
}
