import { Hono } from "hono";
import { EmbedChatsBody, NewEmbedBody, UpdateEmbedBody } from "../../shared/api/embeds.ts";
import type { Deps } from "../deps.ts";
import { fail } from "../errors.ts";
import { logEvent } from "../events/log.ts";
import { requirePermission } from "../http/auth_guard.ts";
import { parseJson } from "../http/body.ts";
import type { AppEnv } from "../http/env.ts";
import { idParam } from "../users/routes.ts";
import {
  createEmbed,
  deleteEmbed,
  deleteEmbedChat,
  listEmbedChats,
  listEmbeds,
  requireEmbed,
  updateEmbed,
} from "./service.ts";

/**
 * The embed widgets' screens (the reference's server/endpoints/embedManagement.js): list, create, update and
 * delete embeds, and page and delete their chats. Admins and managers (spec 02's route table; the reference
 * lets only admins). Embed chats are exported by `GET /api/system/export-chats?chatType=embed`.
 */
export function embedRoutes(deps: Deps) {
  const newBody = (message: string) => ({ embed: null, error: message });
  const updateBody = (message: string) => ({ success: false, error: message });
  const guard = (body?: (message: string) => Record<string, unknown>) =>
    requirePermission("embeds:manage", body);
  return new Hono<AppEnv>()
    .get("/embeds", guard(), async (c) => c.json({ embeds: await listEmbeds(deps) }))
    .post("/embeds/new", guard(newBody), async (c) => {
      const input = await parseJson(c, NewEmbedBody, newBody, { bareMessages: true });
      const embed = await createEmbed(deps, input, c.var.actor.userId, newBody);
      await logEvent(
        deps,
        "embed_created",
        { embedId: embed.id, workspaceId: embed.workspace_id },
        c.var.actor.userId,
      );
      return c.json({ embed, error: null });
    })
    .post("/embed/update/:embedId", guard(updateBody), async (c) => {
      const embed = await requireEmbed(deps, idParam(c.req.param("embedId"), "embed"), updateBody);
      const input = await parseJson(c, UpdateEmbedBody, updateBody, { bareMessages: true });
      const changed = await updateEmbed(deps, embed, input, updateBody);
      await logEvent(deps, "embed_updated", { embedId: embed.id, changed }, c.var.actor.userId);
      return c.json({ success: true, error: null });
    })
    .post("/embed/chats", guard(), async (c) => {
      const { offset, limit } = await parseJson(c, EmbedChatsBody, undefined, { bareMessages: true });
      return c.json(await listEmbedChats(deps, offset, limit));
    })
    .delete("/embed/chats/:chatId", guard(), async (c) => {
      const id = idParam(c.req.param("chatId"), "embed chat");
      if (!await deleteEmbedChat(deps, id)) fail("not_found", `Embed chat ${id} does not exist.`);
      await logEvent(deps, "embed_chat_deleted", { chatId: id }, c.var.actor.userId);
      return c.json({ success: true, error: null });
    })
    .delete("/embed/:embedId", guard(), async (c) => {
      const embed = await requireEmbed(
        deps,
        idParam(c.req.param("embedId"), "embed"),
        (message) => ({ success: false, error: message }),
      );
      await deleteEmbed(deps, embed.id);
      await logEvent(deps, "embed_deleted", { embedId: embed.id, embedUuid: embed.uuid }, c.var.actor.userId);
      return c.json({ success: true, error: null });
    });
}
