import { and, asc, eq, gte, inArray, isNull, lte } from "drizzle-orm";
import { workspaceChats, workspaces, workspaceThreads } from "../../db/schema.ts";
import type { Actor } from "../auth/actor.ts";
import type { Deps } from "../deps.ts";
import { FORKED_THREAD_NAME, threadNameFrom } from "../../shared/threads.ts";
import { fail } from "../errors.ts";
import type { WorkspaceRow } from "../workspaces/present.ts";
import { workspaceRoleOf } from "../workspaces/access.ts";
import { type ChatScope, inSession, parseResponse } from "./history.ts";

/** Chats of this caller: their own in multi-user mode; in single-user mode every chat is the owner's. */
function mine(actor: Actor) {
  return actor.multiUser && actor.userId !== null ? eq(workspaceChats.userId, actor.userId) : undefined;
}

function inThread(threadId: number | null) {
  return threadId === null ? isNull(workspaceChats.threadId) : eq(workspaceChats.threadId, threadId);
}

async function ownChat(deps: Deps, actor: Actor, workspace: WorkspaceRow, chatId: number) {
  const [row] = await deps.db.select().from(workspaceChats).where(
    and(eq(workspaceChats.id, chatId), eq(workspaceChats.workspaceId, workspace.id), mine(actor)),
  );
  return row ?? null;
}

/** `DELETE …/delete-chats`: hard delete of the caller's chats among `chatIds`. */
export async function deleteChats(deps: Deps, actor: Actor, workspace: WorkspaceRow, chatIds: number[]) {
  if (chatIds.length === 0) return 0;
  const rows = await deps.db.delete(workspaceChats).where(
    and(eq(workspaceChats.workspaceId, workspace.id), inArray(workspaceChats.id, chatIds), mine(actor)),
  ).returning({ id: workspaceChats.id });
  return rows.length;
}

/** `DELETE …/delete-edited-chats`: the caller's chats of one thread from `startingId` on (edit, regenerate). */
export async function deleteChatsFrom(deps: Deps, scope: ChatScope, startingId: number) {
  const rows = await deps.db.delete(workspaceChats).where(and(
    eq(workspaceChats.workspaceId, scope.workspaceId),
    inThread(scope.threadId),
    gte(workspaceChats.id, startingId),
    mine(scope.actor),
  )).returning({ id: workspaceChats.id });
  return rows.length;
}

/** `POST …/update-chat`: rewrites the prompt (role user) or the answer's text (role assistant). */
export async function updateChatText(
  deps: Deps,
  scope: ChatScope & { workspace: WorkspaceRow },
  input: { chatId: number; newText: string; role: "user" | "assistant" },
) {
  const row = await ownChat(deps, scope.actor, scope.workspace, input.chatId);
  if (!row || row.threadId !== scope.threadId) fail("not_found", "Chat not found.");
  if (input.role === "user") {
    await deps.db.update(workspaceChats).set({ prompt: input.newText, lastUpdatedAt: new Date() })
      .where(eq(workspaceChats.id, row.id));
    return;
  }
  const response = parseResponse(row) ?? fail("invalid_input", "This chat has no answer to edit.");
  // An edited answer is the user's text, no longer a generation that was cut short.
  const { stopped: _stopped, ...kept } = response;
  await deps.db.update(workspaceChats).set({
    response: JSON.stringify({ ...kept, text: input.newText }),
    lastUpdatedAt: new Date(),
  }).where(eq(workspaceChats.id, row.id));
}

/** `POST …/chat-feedback/:chatId`: thumbs up (true), down (false) or none (null). */
export async function setFeedback(
  deps: Deps,
  actor: Actor,
  workspace: WorkspaceRow,
  chatId: number,
  score: boolean | null,
) {
  const row = await ownChat(deps, actor, workspace, chatId);
  if (!row) fail("not_found", "Chat not found.", { success: false });
  await deps.db.update(workspaceChats).set({ feedbackScore: score, lastUpdatedAt: new Date() })
    .where(eq(workspaceChats.id, row.id));
}

/** `PUT /workspace/workspace-chats/:id`: hides a chat of the caller from history and context. */
export async function hideChat(deps: Deps, actor: Actor, chatId: number) {
  // The chat's workspace must still be the caller's to see (server/workspaces/access.ts).
  const [owner] = await deps.db.select({ workspace: workspaces }).from(workspaceChats)
    .innerJoin(workspaces, eq(workspaces.id, workspaceChats.workspaceId)).where(
      eq(workspaceChats.id, chatId),
    );
  if (!owner || await workspaceRoleOf(deps, actor, owner.workspace) === null) {
    fail("not_found", "Chat not found.", { success: false, error: "Chat not found." });
  }
  const rows = await deps.db.update(workspaceChats).set({ include: false, lastUpdatedAt: new Date() })
    .where(and(eq(workspaceChats.id, chatId), mine(actor))).returning({ id: workspaceChats.id });
  if (rows.length === 0) fail("not_found", "Chat not found.", { success: false, error: "Chat not found." });
}

/** `/reset`: the thread's history stops counting (hidden, not deleted). */
export async function resetMemory(deps: Deps, scope: ChatScope) {
  await deps.db.update(workspaceChats).set({ include: false, lastUpdatedAt: new Date() }).where(and(
    eq(workspaceChats.workspaceId, scope.workspaceId),
    inThread(scope.threadId),
    inSession(scope.apiSessionId),
    mine(scope.actor),
  ));
}

/**
 * `POST …/thread/fork`: a new thread with copies of the visible chats up to `chatId`, named after the first
 * 22 characters of the last answer. One transaction.
 */
export async function forkThread(
  deps: Deps,
  actor: Actor,
  workspace: WorkspaceRow,
  fromThreadId: number | null,
  chatId: number,
) {
  const rows = await deps.db.select().from(workspaceChats).where(and(
    eq(workspaceChats.workspaceId, workspace.id),
    inThread(fromThreadId),
    eq(workspaceChats.include, true),
    isNull(workspaceChats.apiSessionId),
    lte(workspaceChats.id, chatId),
    mine(actor),
  )).orderBy(asc(workspaceChats.id));
  if (!rows.some((row) => row.id === chatId)) fail("not_found", "Chat not found.");
  const lastText = parseResponse(rows[rows.length - 1])?.text ?? "";
  const name = threadNameFrom(lastText, FORKED_THREAD_NAME);
  return await deps.db.transaction(async (tx) => {
    const [thread] = await tx.insert(workspaceThreads).values({
      name,
      slug: crypto.randomUUID(),
      workspaceId: workspace.id,
      userId: actor.userId,
    }).returning();
    await tx.insert(workspaceChats).values(rows.map((row) => ({
      workspaceId: row.workspaceId,
      prompt: row.prompt,
      response: row.response,
      include: true,
      userId: row.userId,
      threadId: thread.id,
      feedbackScore: row.feedbackScore,
      createdAt: row.createdAt,
    })));
    return thread;
  });
}
