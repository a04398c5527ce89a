import { eq } from "drizzle-orm";
import { workspaceChats } from "../../db/schema.ts";
import type { Deps } from "../deps.ts";

/**
 * Deletion from the admin Workspace Chats screen: one chat of any workspace, thread or user, or every chat of
 * the instance. Either is idempotent, as the reference's: a chat that is already gone is not an error. Answers
 * how many chats were deleted.
 */
export async function deleteWorkspaceChat(deps: Pick<Deps, "db">, id: number): Promise<number> {
  const rows = await deps.db.delete(workspaceChats).where(eq(workspaceChats.id, id))
    .returning({ id: workspaceChats.id });
  return rows.length;
}

/** Deletes every workspace chat of the instance (the screen's "Clear chats"). */
export async function deleteAllWorkspaceChats(deps: Pick<Deps, "db">): Promise<number> {
  const result = await deps.db.delete(workspaceChats);
  return result.rowsAffected;
}
