import { count, desc, eq } from "drizzle-orm";
import type * as z from "zod";
import { users, workspaceChats, workspaces } from "../../db/schema.ts";
import type { AdminChat } from "../../shared/api/admin.ts";
import type { Deps } from "../deps.ts";

/** The reference's page size of the instance-wide chat list. */
export const CHATS_PAGE_SIZE = 20;

/**
 * One page of every stored chat of the instance (every workspace, thread and user, hidden ones too), the newest
 * first, in the reference's shape: the row with the workspace's name and slug and the user's name ("API" for a
 * chat of the developer API without a user, "unknown user" for one of single-user mode).
 */
export async function chatsPage(
  deps: Deps,
  page: number,
  size = CHATS_PAGE_SIZE,
): Promise<{ chats: z.infer<typeof AdminChat>[]; hasPages: boolean; totalChats: number }> {
  const rows = await deps.db.select({
    chat: workspaceChats,
    workspaceName: workspaces.name,
    workspaceSlug: workspaces.slug,
    username: users.username,
  }).from(workspaceChats)
    .leftJoin(workspaces, eq(workspaces.id, workspaceChats.workspaceId))
    .leftJoin(users, eq(users.id, workspaceChats.userId))
    .orderBy(desc(workspaceChats.id)).limit(size).offset(page * size);
  const [total] = await deps.db.select({ value: count() }).from(workspaceChats);
  const chats = rows.map(({ chat, workspaceName, workspaceSlug, username }) => ({
    id: chat.id,
    workspaceId: chat.workspaceId,
    prompt: chat.prompt,
    response: chat.response,
    include: chat.include,
    user_id: chat.userId,
    thread_id: chat.threadId,
    api_session_id: chat.apiSessionId,
    createdAt: chat.createdAt.toISOString(),
    lastUpdatedAt: chat.lastUpdatedAt.toISOString(),
    feedbackScore: chat.feedbackScore,
    workspace: workspaceName === null
      ? { name: "deleted workspace", slug: null }
      : { name: workspaceName, slug: workspaceSlug },
    user: { username: username ?? (chat.apiSessionId !== null ? "API" : "unknown user") },
  }));
  const totalChats = total?.value ?? 0;
  return { chats, hasPages: totalChats > (page + 1) * size, totalChats };
}
