import { eventLogs } from "../../db/schema.ts";
import type { Deps } from "../deps.ts";
import { messageOf } from "../errors.ts";

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
  | "api_key_created"
  | "api_key_deleted"
  | "api_document_uploaded"
  | "api_link_uploaded"
  | "api_raw_document_uploaded"
  | "exported_chats"
  | "embed_created"
  | "embed_updated"
  | "embed_deleted"
  | "embed_chat_deleted"
  | "embed_origin_refused";

/** Writes an event log row; a failure to log is reported but never fails the request. */
export async function logEvent(
  deps: Deps,
  event: EventName,
  metadata: Record<string, unknown> = {},
  userId: number | null = null,
): Promise<void> {
  try {
    await deps.db.insert(eventLogs).values({ event, metadata: JSON.stringify(metadata), userId });
  } catch (error) {
    deps.log.error("Cannot write an event log row", { event, error: messageOf(error) });
  }
}
