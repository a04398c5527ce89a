import type { WorkspaceRow } from "../workspaces/present.ts";
import type { Deps } from "../deps.ts";
import { logEvent, logEvents, type LoggedEvent } from "../events/log.ts";
import type { EmbedOutcome } from "./ingest.ts";

type EventDeps = Pick<Deps, "db" | "log">;

/**
 * The events of a change of a workspace's embedded documents, as the reference names them:
 * `workspace_documents_added` when documents were asked to be added (with how many were, and how many failed),
 * and `workspace_documents_removed` when some were taken out.
 */
export function workspaceDocumentsEvents(
  workspace: Pick<WorkspaceRow, "name">,
  change: { removed?: number; outcome?: EmbedOutcome },
  userId: number | null,
): LoggedEvent[] {
  const events: LoggedEvent[] = [];
  if (change.removed) {
    events.push({
      event: "workspace_documents_removed",
      metadata: { workspaceName: workspace.name, numberOfDocuments: change.removed },
      userId,
    });
  }
  const outcome = change.outcome;
  if (outcome && (outcome.added > 0 || outcome.failures.length > 0)) {
    events.push({
      event: "workspace_documents_added",
      metadata: {
        workspaceName: workspace.name,
        numberOfDocumentsAdded: outcome.added,
        failed: outcome.failures.length,
      },
      userId,
    });
  }
  return events;
}

/** Records a change of a workspace's embedded documents (workspaceDocumentsEvents). */
export async function logWorkspaceDocuments(
  deps: EventDeps,
  workspace: Pick<WorkspaceRow, "name">,
  change: { removed?: number; outcome?: EmbedOutcome },
  userId: number | null,
): Promise<void> {
  await logEvents(deps, workspaceDocumentsEvents(workspace, change, userId));
}

/** The most document names one `documents_removed` event lists (the count is always whole). */
export const MAX_LOGGED_NAMES = 50;

/** Records documents removed from the library (`documents_removed`, a Lectern name). */
export async function logDocumentsRemoved(
  deps: EventDeps,
  details: { count: number; documents: readonly string[]; folder?: string },
  userId: number | null,
): Promise<void> {
  if (details.count === 0) return;
  await logEvent(deps, "documents_removed", {
    count: details.count,
    documents: details.documents.slice(0, MAX_LOGGED_NAMES),
    ...(details.folder ? { folder: details.folder } : {}),
  }, userId);
}
