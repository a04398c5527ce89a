import { asc, eq } from "drizzle-orm";
import { join } from "node:path";
import { workspaceDocuments, workspaces, workspaceSuggestedMessages } from "../../db/schema.ts";
import { LLM_PROVIDER_IDS } from "../../shared/providers/llm_catalog.ts";
import type { UpdateWorkspaceInput } from "../../shared/api/workspaces.ts";
import type { Deps } from "../deps.ts";
import { fail } from "../errors.ts";
import { workspaceNamespacePrefix } from "../providers/vectors/namespace.ts";
import type { WorkspaceRow } from "./present.ts";
import type { Actor } from "../auth/actor.ts";
import { recordPromptChange } from "../prompt_history/service.ts";
import { instanceDefaultPrompt } from "../system/default_prompt.ts";

const NONE = new Set(["none", "default"]);

/**
 * Applies the writable fields (docs/api-compat.md#workspace-object-and-slugs). A provider of "none" or
 * "default" means the instance's; "default" also clears the model. Returns null when the body held nothing to
 * change.
 */
export async function updateWorkspace(
  deps: Deps,
  workspace: WorkspaceRow,
  input: UpdateWorkspaceInput,
  actor: Actor,
): Promise<WorkspaceRow | null> {
  const changes: Partial<typeof workspaces.$inferInsert> = {};
  for (const [key, value] of Object.entries(input)) {
    if (value !== undefined) (changes as Record<string, unknown>)[key] = value;
  }
  for (const key of ["chatProvider", "agentProvider"] as const) {
    const provider = changes[key];
    if (typeof provider !== "string") continue;
    if (NONE.has(provider)) {
      if (key === "chatProvider" && provider === "default") changes.chatModel = null;
      changes[key] = null;
    } else if (!(LLM_PROVIDER_IDS as readonly string[]).includes(provider)) {
      fail("invalid_input", `${provider} is not a valid LLM provider.`);
    }
  }
  if (Object.keys(changes).length === 0) return null;
  return await deps.db.transaction(async (tx) => {
    // The prompt it replaces goes to the workspace's prompt history, in the same write.
    await recordPromptChange(
      tx,
      workspace,
      changes.openAiPrompt,
      actor,
      instanceDefaultPrompt(deps.settings),
    );
    const [row] = await tx.update(workspaces).set({ ...changes, lastUpdatedAt: new Date() })
      .where(eq(workspaces.id, workspace.id)).returning();
    return row;
  });
}

/** The reference's refusal while workspace deletion protection is on. */
export const DELETION_BLOCKED = "Workspace deletion is blocked by the system administrator.";
export const DELETION_NEEDS_NAME =
  "Workspace deletion protection is on: type the workspace's name to delete it.";

/**
 * Workspace deletion protection (WORKSPACE_DELETION_PROTECTION): only an admin deletes, and only with the
 * workspace's name typed (`confirm`); the developer API (`actor` null) deletes none, as the reference.
 */
export function checkDeletionAllowed(
  deps: Deps,
  actor: Actor | null,
  workspace: WorkspaceRow,
  confirm: string | undefined,
): void {
  if (!deps.config.workspaceDeletionProtection) return;
  const body = (error: string) => ({ success: false, error });
  if (!actor || actor.role !== "admin") fail("forbidden", DELETION_BLOCKED, body(DELETION_BLOCKED));
  if ((confirm ?? "").trim() !== workspace.name.trim()) {
    fail("invalid_input", DELETION_NEEDS_NAME, body(DELETION_NEEDS_NAME));
  }
}

/** Deletes a workspace for everyone: its chats, threads, documents and members go with it, then its vectors. */
export async function deleteWorkspace(deps: Deps, workspace: WorkspaceRow): Promise<void> {
  await deps.db.delete(workspaces).where(eq(workspaces.id, workspace.id));
  await deps.vectors.dropNamespaces(workspaceNamespacePrefix(workspace.id));
  if (workspace.pfpFilename) {
    await Deno.remove(join(deps.paths.profilePictures, workspace.pfpFilename)).catch(() => {});
  }
}

/** Empties the workspace's vector store and document list; the stored documents stay for re-use. */
export async function resetVectorDatabase(deps: Deps, workspace: WorkspaceRow): Promise<void> {
  await deps.vectors.dropNamespaces(workspaceNamespacePrefix(workspace.id));
  await deps.db.delete(workspaceDocuments).where(eq(workspaceDocuments.workspaceId, workspace.id));
}

export async function suggestedMessages(deps: Deps, workspace: WorkspaceRow) {
  const rows = await deps.db.select().from(workspaceSuggestedMessages)
    .where(eq(workspaceSuggestedMessages.workspaceId, workspace.id)).orderBy(
      asc(workspaceSuggestedMessages.id),
    );
  return rows.map((row) => ({ heading: row.heading, message: row.message }));
}

/** Replaces all suggested messages in one transaction. */
export async function setSuggestedMessages(
  deps: Deps,
  workspace: WorkspaceRow,
  messages: { heading: string; message: string }[],
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    await tx.delete(workspaceSuggestedMessages).where(
      eq(workspaceSuggestedMessages.workspaceId, workspace.id),
    );
    if (messages.length > 0) {
      await tx.insert(workspaceSuggestedMessages).values(
        messages.map((entry) => ({
          workspaceId: workspace.id,
          heading: entry.heading,
          message: entry.message,
        })),
      );
    }
  });
}

/** Sets (or, with null, removes) the workspace's picture. */
export async function setWorkspacePicture(
  deps: Deps,
  workspace: WorkspaceRow,
  filename: string | null,
): Promise<void> {
  await deps.db.update(workspaces).set({ pfpFilename: filename, lastUpdatedAt: new Date() })
    .where(eq(workspaces.id, workspace.id));
}
