import { eventLogs } from "../../db/schema.ts";
import type { Deps } from "../deps.ts";
import { messageOf } from "../errors.ts";
import type { BatchItem } from "drizzle-orm/batch";
import { groupCommit } from "../../db/group_commit.ts";

/** The events the server records; the reference's names where it has them. */
export type EventName =
  | "login_event"
  | "failed_login_invalid_username"
  | "failed_login_invalid_password"
  | "failed_login_account_suspended"
  | "sso_login"
  | "account_recovered"
  | "password_reset"
  | "instance_password_changed"
  | "multi_user_mode_enabled"
  | "user_created"
  | "user_updated"
  | "user_deleted"
  | "invite_created"
  | "invite_disabled"
  | "invite_accepted"
  | "workspace_members_updated"
  | "workspace_chats_cleared"
  | "api_key_created"
  | "api_key_deleted"
  | "api_document_uploaded"
  | "api_link_uploaded"
  | "api_raw_document_uploaded"
  | "exported_chats"
  // Workspaces: `{workspaceName}`; the developer API's own names for its calls (the reference's).
  | "workspace_created"
  | "workspace_deleted"
  | "workspace_vectors_reset"
  | "api_workspace_created"
  | "api_workspace_deleted"
  // The document library: `{documentName, folder}`, `{link}`; removal (a Lectern name) `{count, documents}`.
  | "document_uploaded"
  | "link_uploaded"
  | "documents_removed"
  // A workspace's embeddings: `{workspaceName, numberOfDocumentsAdded, failed}`, `{workspaceName,
  // numberOfDocuments}`.
  | "workspace_documents_added"
  | "workspace_documents_removed"
  // Settings: `{keys}`, the names of the settings that changed, never their values (a Lectern name); the
  // reference's three provider events, with no metadata.
  | "settings_updated"
  | "update_llm_provider"
  | "update_embedding_engine"
  | "update_vector_db"
  // Embed widgets: `{embedId}`.
  | "embed_created"
  | "embed_updated"
  | "embed_deleted"
  | "embed_chat_deleted"
  | "embed_origin_refused"
  | "browser_extension_key_created"
  | "browser_extension_key_deleted"
  | "event_logs_cleared"
  // Operations: `{file, files, bytes, via}` (via: api or cli).
  | "backup_created"
  // OpenID Connect: `{username, address}`; a refusal `{reason, address}` (server/oidc/).
  | "oidc_login"
  | "oidc_user_created"
  | "failed_login_oidc";

/** Writes an event log row; a failure to log is reported but never fails the request. */
export function logEvent(
  deps: Pick<Deps, "db" | "log">,
  event: EventName,
  metadata: Record<string, unknown> = {},
  userId: number | null = null,
): Promise<void> {
  return logEvents(deps, [{ event, metadata, userId }]);
}

/** An event log row to write. */
export interface LoggedEvent {
  event: EventName;
  metadata?: Record<string, unknown>;
  userId?: number | null;
}

/** The insert of event log rows, in their order, not yet run (for a caller that commits it with its own writes). */
export function eventsInsert(deps: Pick<Deps, "db">, events: LoggedEvent[]): BatchItem<"sqlite"> {
  return deps.db.insert(eventLogs).values(
    events.map(({ event, metadata = {}, userId = null }) => ({
      event,
      metadata: JSON.stringify(metadata),
      userId,
    })),
  );
}

/**
 * Writes event log rows in one statement (one commit, where a row each would wait on the disk once each, shared
 * with other writes made at the same time: db/group_commit.ts), in their order; a failure to log is reported but
 * never fails the request.
 */
export async function logEvents(deps: Pick<Deps, "db" | "log">, events: LoggedEvent[]): Promise<void> {
  if (events.length === 0) return;
  try {
    await groupCommit(deps.db).commit([eventsInsert(deps, events)]);
  } catch (error) {
    deps.log.error("Cannot write an event log row", {
      event: events.map((entry) => entry.event).join(", "),
      error: messageOf(error),
    });
  }
}

/** The reference's events for a change of provider (its updateENV's `logChangesToEventLog`). */
const PROVIDER_EVENTS: Record<string, EventName> = {
  LLMProvider: "update_llm_provider",
  EmbeddingEngine: "update_embedding_engine",
  VectorDB: "update_vector_db",
};

/**
 * Records a settings save: `settings_updated` with the names of the settings that changed (never a value:
 * some are keys and passwords), plus the reference's provider events. Nothing when nothing changed.
 */
export async function logSettingsChanged(
  deps: Pick<Deps, "db" | "log">,
  keys: readonly string[],
  userId: number | null,
): Promise<void> {
  if (keys.length === 0) return;
  await logEvent(deps, "settings_updated", { keys: [...keys] }, userId);
  for (const key of keys) {
    const event = PROVIDER_EVENTS[key];
    if (event) await logEvent(deps, event, {}, userId);
  }
}
