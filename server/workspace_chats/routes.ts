import { Hono } from "hono";
import { chatExportType, unknownExportTypeMessage } from "../../shared/api/chat_export.ts";
import {
  ALL_CHATS_ID,
  exportChatKind,
  unknownChatKindMessage,
  WorkspaceChatsPageInput,
} from "../../shared/api/workspace_chats.ts";
import { allows } from "../../shared/roles.ts";
import { chatsPage } from "../chat/all_chats.ts";
import { exportChats } from "../chat_export/service.ts";
import type { Deps } from "../deps.ts";
import { fail } from "../errors.ts";
import { logEvent } from "../events/log.ts";
import { requirePermission } from "../http/auth_guard.ts";
import { parseJson } from "../http/body.ts";
import type { AppEnv } from "../http/env.ts";
import { deleteAllWorkspaceChats, deleteWorkspaceChat } from "./service.ts";

/** The id in `DELETE /system/workspace-chats/:id`: a chat's id, or -1 for every chat. */
function chatIdParam(value: string): number {
  const id = Number(value);
  return /^-?\d+$/.test(value) && Number.isSafeInteger(id) && (id > 0 || id === ALL_CHATS_ID)
    ? id
    : fail("invalid_input", `"${value}" is not a chat id.`);
}

/**
 * The admin Workspace Chats screen's calls (docs/api-compat.md): every chat of the instance a page at a time,
 * deleting one or all (`-1`), and the export in the reference's formats, streamed as it is read. Admins only
 * (the route table's guard of /settings/workspace-chats); a single-user instance's owner is its admin.
 */
export function workspaceChatRoutes(deps: Deps) {
  const admin = requirePermission("settings:manage");
  return new Hono<AppEnv>()
    .post("/system/workspace-chats", admin, async (c) => {
      const { offset, limit } = await parseJson(c, WorkspaceChatsPageInput);
      return c.json(await chatsPage(deps, offset, limit));
    })
    .delete("/system/workspace-chats/:id", admin, async (c) => {
      const id = chatIdParam(c.req.param("id"));
      if (id === ALL_CHATS_ID) {
        const deleted = await deleteAllWorkspaceChats(deps);
        await logEvent(deps, "workspace_chats_cleared", { deleted }, c.var.actor.userId);
      } else {
        await deleteWorkspaceChat(deps, id);
      }
      return c.json({ success: true, error: null });
    })
    // Workspace chats are the admins' (settings:manage); embed widget chats also the managers' (embeds:manage),
    // whose Embed Chats screen exports them.
    .get("/system/export-chats", requirePermission("embeds:manage"), async (c) => {
      const askedKind = c.req.query("chatType");
      const chatType = exportChatKind(askedKind);
      if (!chatType) fail("invalid_input", unknownChatKindMessage(askedKind ?? ""));
      if (chatType === "workspace" && !allows(c.var.actor.role, "settings:manage")) {
        fail("forbidden", "You do not have permission to do that.", {
          success: false,
          error: "You do not have permission to do that.",
        });
      }
      const askedType = c.req.query("type");
      const type = chatExportType(askedType);
      if (!type) fail("invalid_input", unknownExportTypeMessage(askedType ?? ""));
      const exported = exportChats(deps, type, { chatType });
      await logEvent(deps, "exported_chats", { type, chatType }, c.var.actor.userId);
      return new Response(exported.body, {
        headers: {
          "Content-Type": exported.contentType,
          "Content-Disposition": `attachment; filename="${exported.filename}"`,
        },
      });
    });
}
