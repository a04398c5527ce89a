import { and, desc, eq, lt } from "drizzle-orm";
import { users, workspacePromptHistory, workspaces } from "../../db/schema.ts";
import type { Actor } from "../auth/actor.ts";
import type { Deps } from "../deps.ts";
import { fail } from "../errors.ts";
import { DEFAULT_SYSTEM_PROMPT } from "../../shared/api/workspaces.ts";
import type { WorkspaceRow } from "../workspaces/present.ts";

type Database = Pick<Deps["db"], "insert" | "select" | "delete">;

/** The earlier prompts kept per workspace; older ones are dropped as new ones come. */
export const PROMPT_HISTORY_KEPT = 50;

/**
 * Keeps the workspace's current prompt in its history when `next` replaces it: only a prompt someone wrote
 * (not empty, not the built-in one, not the instance's default a new workspace is stored with) is worth going
 * back to. Runs in the caller's transaction.
 */
export async function recordPromptChange(
  db: Database,
  workspace: WorkspaceRow,
  next: string | null | undefined,
  actor: Actor,
  instancePrompt: string,
): Promise<void> {
  const previous = workspace.openAiPrompt?.trim() ? workspace.openAiPrompt : null;
  if (next === undefined || previous === null || next === previous) return;
  if (previous === DEFAULT_SYSTEM_PROMPT || previous.trim() === instancePrompt.trim()) return;
  const [row] = await db.insert(workspacePromptHistory).values({
    workspaceId: workspace.id,
    prompt: previous,
    modifiedBy: actor.userId,
  }).returning({ id: workspacePromptHistory.id });
  const [oldestKept] = await db.select({ id: workspacePromptHistory.id }).from(workspacePromptHistory)
    .where(eq(workspacePromptHistory.workspaceId, workspace.id))
    .orderBy(desc(workspacePromptHistory.id)).limit(1).offset(PROMPT_HISTORY_KEPT - 1);
  if (oldestKept && oldestKept.id <= row.id) {
    await db.delete(workspacePromptHistory).where(and(
      eq(workspacePromptHistory.workspaceId, workspace.id),
      lt(workspacePromptHistory.id, oldestKept.id),
    ));
  }
}

/** The workspace's earlier prompts, newest first, with who replaced each (the reference's answer shape). */
export async function promptHistory(deps: Pick<Deps, "db">, workspace: WorkspaceRow) {
  const rows = await deps.db.select({ entry: workspacePromptHistory, username: users.username })
    .from(workspacePromptHistory)
    .leftJoin(users, eq(users.id, workspacePromptHistory.modifiedBy))
    .where(eq(workspacePromptHistory.workspaceId, workspace.id))
    .orderBy(desc(workspacePromptHistory.id));
  return rows.map(({ entry, username }) => ({
    id: entry.id,
    workspaceId: entry.workspaceId,
    prompt: entry.prompt,
    modifiedBy: entry.modifiedBy,
    modifiedAt: entry.modifiedAt.toISOString(),
    user: username === null ? null : { username },
  }));
}

export async function clearPromptHistory(deps: Pick<Deps, "db">, workspace: WorkspaceRow): Promise<void> {
  await deps.db.delete(workspacePromptHistory).where(eq(workspacePromptHistory.workspaceId, workspace.id));
}

/** Deletes one entry; callers may manage every workspace (admins and managers), so only its existence is checked. */
export async function deletePromptHistoryEntry(deps: Pick<Deps, "db">, id: number): Promise<void> {
  const deleted = await deps.db.delete(workspacePromptHistory).where(eq(workspacePromptHistory.id, id))
    .returning({ id: workspacePromptHistory.id });
  if (deleted.length === 0) fail("not_found", "That prompt history entry does not exist.");
}

/** The workspace an entry of prompt history belongs to, or null when there is no such entry. */
export async function promptHistoryWorkspace(deps: Pick<Deps, "db">, id: number) {
  const [row] = await deps.db.select({ workspace: workspaces }).from(workspacePromptHistory)
    .innerJoin(workspaces, eq(workspaces.id, workspacePromptHistory.workspaceId))
    .where(eq(workspacePromptHistory.id, id));
  return row?.workspace ?? null;
}
