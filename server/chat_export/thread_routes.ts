import { Hono } from "hono";
import {
  ThreadExportInput,
  threadExportType,
  unknownThreadExportTypeMessage,
} from "../../shared/api/chat_export.ts";
import { customLogo } from "../appearance/service.ts";
import { branding } from "../appearance/service.ts";
import { historyOf } from "../chat/history.ts";
import type { Deps } from "../deps.ts";
import { fail } from "../errors.ts";
import { parseJson } from "../http/body.ts";
import type { AppEnv } from "../http/env.ts";
import { requireThread } from "../threads/service.ts";
import { requireWorkspace } from "../workspaces/service.ts";
import { exportThread } from "./thread_export.ts";

/** The product's own name, where the instance has no custom one. */
const PRODUCT_NAME = "Lectern";

/**
 * `POST /api/export-chat/:type` (the chat-settings menu's Export): the caller's own chats of a workspace's
 * default thread or of one of their threads, as the thread's page shows them (the same checks: a workspace the
 * caller may not see is a 404, as is a thread of someone else's). An empty chat gives a file saying so (the
 * reference answers 400).
 */
export function threadExportRoutes(deps: Deps) {
  return new Hono<AppEnv>().post("/export-chat/:type", async (c) => {
    const type = threadExportType(c.req.param("type"));
    if (!type) fail("invalid_input", unknownThreadExportTypeMessage(c.req.param("type")));
    const input = await parseJson(c, ThreadExportInput, undefined, { bareMessages: true });
    const workspace = await requireWorkspace(deps, c.var.actor, input.workspaceSlug);
    const thread = input.threadSlug
      ? await requireThread(deps, c.var.actor, workspace, input.threadSlug, {
        success: false,
        error: "Workspace thread does not exist.",
      })
      : null;
    const history = await historyOf(deps, {
      workspaceId: workspace.id,
      threadId: thread?.id ?? null,
      actor: c.var.actor,
    });
    const file = await exportThread(history, {
      appName: branding(deps).customAppName ?? PRODUCT_NAME,
      workspaceName: workspace.name,
      threadName: thread?.name ?? null,
      exportedAt: new Date(),
      logo: await customLogo(deps, "light"),
    }, type);
    return c.body(file.body as Uint8Array<ArrayBuffer>, 200, {
      "Content-Type": file.contentType,
      "Content-Disposition": `attachment; filename="${file.filename}"`,
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    });
  });
}
