import { and, asc, count, eq, inArray, isNull } from "drizzle-orm";
import { workspaceChats, workspaceThreads } from "../../db/schema.ts";
import type { Actor } from "../auth/actor.ts";
import type { Deps } from "../deps.ts";
import { DEFAULT_THREAD_NAME, threadNameFrom } from "../../shared/threads.ts";
import { fail } from "../errors.ts";
import type { WorkspaceRow } from "../workspaces/present.ts";

export type ThreadRow = typeof workspaceThreads.$inferSelect;

export function presentThread(row: ThreadRow) {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    workspace_id: row.workspaceId,
    user_id: row.userId,
    createdAt: row.createdAt.toISOString(),
    lastUpdatedAt: row.lastUpdatedAt.toISOString(),
  };
}

/** Threads of this caller (all of them in single-user mode). */
function ownedBy(actor: Actor) {
  return actor.multiUser && actor.userId !== null ? eq(workspaceThreads.userId, actor.userId) : undefined;
}

export async function listThreads(deps: Deps, actor: Actor, workspace: WorkspaceRow): Promise<ThreadRow[]> {
  return await deps.db.select().from(workspaceThreads)
    .where(and(eq(workspaceThreads.workspaceId, workspace.id), ownedBy(actor)))
    .orderBy(asc(workspaceThreads.id));
}

/** The thread or a 404 with the reference's text (docs/api-compat.md#roles-and-route-guards). */
export async function requireThread(
  deps: Deps,
  actor: Actor,
  workspace: WorkspaceRow,
  slug: string,
  body?: Record<string, unknown>,
): Promise<ThreadRow> {
  const [row] = await deps.db.select().from(workspaceThreads).where(
    and(eq(workspaceThreads.workspaceId, workspace.id), eq(workspaceThreads.slug, slug), ownedBy(actor)),
  );
  return row ?? fail("not_found", "Workspace thread does not exist.", body);
}

/**
 * A new thread of the actor's (the developer API names its owner, a name and a slug; the UI takes the defaults).
 * A slug another thread has is a 409.
 */
export async function createThread(
  deps: Deps,
  actor: Actor,
  workspace: WorkspaceRow,
  options: { name?: string | null; slug?: string | null } = {},
): Promise<ThreadRow> {
  const slug = options.slug || crypto.randomUUID();
  if (options.slug) {
    const [taken] = await deps.db.select({ id: workspaceThreads.id }).from(workspaceThreads)
      .where(eq(workspaceThreads.slug, slug));
    if (taken) fail("conflict", `A thread with the slug "${slug}" already exists.`);
  }
  const [row] = await deps.db.insert(workspaceThreads).values({
    name: options.name || DEFAULT_THREAD_NAME,
    slug,
    workspaceId: workspace.id,
    userId: actor.userId,
  }).returning();
  return row;
}

/** Visible chats of the default thread, as `defaultThreadChatCount` reports them. */
export async function defaultThreadChatCount(
  deps: Deps,
  actor: Actor,
  workspace: WorkspaceRow,
): Promise<number> {
  const [row] = await deps.db.select({ value: count() }).from(workspaceChats).where(and(
    eq(workspaceChats.workspaceId, workspace.id),
    isNull(workspaceChats.threadId),
    isNull(workspaceChats.apiSessionId),
    eq(workspaceChats.include, true),
    actor.multiUser && actor.userId !== null ? eq(workspaceChats.userId, actor.userId) : undefined,
  ));
  return row?.value ?? 0;
}

export async function renameThread(deps: Deps, thread: ThreadRow, name: string): Promise<ThreadRow> {
  const [row] = await deps.db.update(workspaceThreads).set({ name, lastUpdatedAt: new Date() })
    .where(eq(workspaceThreads.id, thread.id)).returning();
  return row;
}

/** Deletes threads of this workspace the caller owns; their chats go with them (foreign-key cascade). */
export async function deleteThreads(
  deps: Deps,
  actor: Actor,
  workspace: WorkspaceRow,
  slugs: string[],
): Promise<number> {
  if (slugs.length === 0) return 0;
  const deleted = await deps.db.delete(workspaceThreads).where(and(
    eq(workspaceThreads.workspaceId, workspace.id),
    inArray(workspaceThreads.slug, slugs),
    ownedBy(actor),
  )).returning({ id: workspaceThreads.id });
  return deleted.length;
}

/**
 * Names a thread after its first message while it still has the default name; returns the new name, or null
 * when the thread keeps its name.
 */
export async function autoRenameThread(
  deps: Deps,
  threadId: number,
  prompt: string,
): Promise<ThreadRow | null> {
  const [row] = await deps.db.update(workspaceThreads).set({
    name: threadNameFrom(prompt),
    lastUpdatedAt: new Date(),
  })
    .where(and(eq(workspaceThreads.id, threadId), eq(workspaceThreads.name, DEFAULT_THREAD_NAME)))
    .returning();
  return row ?? null;
}
