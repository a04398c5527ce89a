import * as z from "zod";
import { AdminChat, ChatsPage } from "./admin.ts";
import { jsonObject } from "./body.ts";
import type { ChatExportType } from "./chat_export.ts";

/**
 * The admin Workspace Chats screen's calls (`/api/system/workspace-chats`, `/api/system/export-chats`), in the
 * reference's shapes.
 */

/** Chats a page by default, as the reference's screen shows them. */
export const WORKSPACE_CHATS_PAGE_SIZE = 20;
/** The largest page a caller may ask for with `limit`. */
export const MAX_WORKSPACE_CHATS_PAGE_SIZE = 100;

/** `POST /api/system/workspace-chats {offset, limit}`: `offset` is the page number, from 0. */
export const WorkspaceChatsPageInput = jsonObject({
  offset: z.number({ error: "must be a number." }).int("must be a whole number.").min(0, "must be 0 or more.")
    .max(1_000_000)
    .default(0),
  limit: z.number({ error: "must be a number." }).int("must be a whole number.").min(1, "must be 1 or more.")
    .max(MAX_WORKSPACE_CHATS_PAGE_SIZE, `must be at most ${MAX_WORKSPACE_CHATS_PAGE_SIZE}.`)
    .default(WORKSPACE_CHATS_PAGE_SIZE),
});

/** Its answer: the page, whether a later page exists and how many chats there are in all. */
export const WorkspaceChatsPage = ChatsPage.extend({ totalChats: z.number() });
export type WorkspaceChatsPage = z.infer<typeof WorkspaceChatsPage>;
export type WorkspaceChat = z.infer<typeof AdminChat>;

/** The id `DELETE /api/system/workspace-chats/:id` takes for "every chat", as the reference's client sends it. */
export const ALL_CHATS_ID = -1;

/** Whose chats `GET /api/system/export-chats?chatType=` exports (default workspace). */
export const EXPORT_CHAT_KINDS = ["workspace", "embed"] as const;
export type ExportChatKind = (typeof EXPORT_CHAT_KINDS)[number];

/** The kind named by a `chatType` query parameter (default `workspace`), or null when it names none. */
export function exportChatKind(value: string | undefined): ExportChatKind | null {
  const kind = value === undefined || value === "" ? "workspace" : value;
  return (EXPORT_CHAT_KINDS as readonly string[]).includes(kind) ? kind as ExportChatKind : null;
}

/** The refusal of an unknown `chatType`. */
export function unknownChatKindMessage(kind: string): string {
  return `The chat type "${kind}" is not one of ${EXPORT_CHAT_KINDS.join(", ")}.`;
}

/** The export menu's entries, in the reference's order, and the name each downloaded file gets. */
export const EXPORT_MENU: readonly { type: ChatExportType; suffix: string; extension: string }[] = [
  { type: "csv", suffix: "", extension: "csv" },
  { type: "json", suffix: "", extension: "json" },
  { type: "jsonl", suffix: "-lines", extension: "jsonl" },
  { type: "jsonAlpaca", suffix: "-alpaca", extension: "json" },
];

/** The downloaded file's name, e.g. `lectern-chats-2026-01-05-lines.jsonl`. */
export function exportFileName(type: ChatExportType, day: Date): string {
  const entry = EXPORT_MENU.find((item) => item.type === type) ?? EXPORT_MENU[0];
  const date = `${day.getFullYear()}-${String(day.getMonth() + 1).padStart(2, "0")}-${
    String(day.getDate()).padStart(2, "0")
  }`;
  return `lectern-chats-${date}${entry.suffix}.${entry.extension}`;
}
