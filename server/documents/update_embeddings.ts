import type { Deps } from "../deps.ts";
import type { WorkspaceRow } from "../workspaces/present.ts";
import { logWorkspaceDocuments } from "./events.ts";
import { addDocuments, removeDocuments } from "./ingest.ts";

/**
 * `update-embeddings` of the UI and of the developer API: takes `deletes` out of the workspace, embeds `adds`,
 * records the change in the event log, and answers the message naming the documents that failed (or null).
 */
export async function updateEmbeddings(
  deps: Deps,
  workspace: WorkspaceRow,
  input: { adds: string[]; deletes: string[] },
  userId: number | null,
): Promise<string | null> {
  const removed = await removeDocuments(deps, workspace, input.deletes);
  const outcome = await addDocuments(deps, workspace, input.adds);
  await logWorkspaceDocuments(deps, workspace, { removed, outcome }, userId);
  return outcome.failures.length > 0
    ? `${outcome.failures.length} documents failed to add.\n\n${outcome.failures.join("\n\n")}`
    : null;
}
