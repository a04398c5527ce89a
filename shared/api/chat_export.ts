import * as z from "zod";

/**
 * Chat exports (`GET /api/v1/system/export-chats?type=…`, and later the admin screen's
 * `GET /api/system/export-chats`): the reference's four formats.
 */
export const CHAT_EXPORT_TYPES = ["json", "csv", "jsonl", "jsonAlpaca"] as const;
export const ChatExportType = z.enum(CHAT_EXPORT_TYPES);
export type ChatExportType = z.infer<typeof ChatExportType>;

/** The Content-Type of each format, as the reference sends it. */
export const CHAT_EXPORT_CONTENT_TYPES: Record<ChatExportType, string> = {
  json: "application/json",
  csv: "text/csv",
  jsonl: "application/jsonl",
  jsonAlpaca: "application/json",
};

/** The file extension of each format, for the download's name. */
export const CHAT_EXPORT_EXTENSIONS: Record<ChatExportType, string> = {
  json: "json",
  csv: "csv",
  jsonl: "jsonl",
  jsonAlpaca: "json",
};

/** The type of a `type` query parameter (default `jsonl`, as the reference), or null when it names none. */
export function chatExportType(value: string | undefined): ChatExportType | null {
  const type = value === undefined || value === "" ? "jsonl" : value;
  return (CHAT_EXPORT_TYPES as readonly string[]).includes(type) ? type as ChatExportType : null;
}

/** The refusal of an unknown export type. */
export function unknownExportTypeMessage(type: string): string {
  return `The export type "${type}" is not one of ${CHAT_EXPORT_TYPES.join(", ")}.`;
}

import { THREAD_EXPORT_TYPES, type ThreadExportType } from "../limits.ts";

export { THREAD_EXPORT_EXTENSIONS, THREAD_EXPORT_TYPES, type ThreadExportType } from "../limits.ts";

export const THREAD_EXPORT_CONTENT_TYPES: Record<ThreadExportType, string> = {
  pdf: "application/pdf",
  markdown: "text/markdown; charset=utf-8",
  plaintext: "text/plain; charset=utf-8",
  json: "application/json; charset=utf-8",
  html: "text/html; charset=utf-8",
};

export function threadExportType(value: string): ThreadExportType | null {
  return (THREAD_EXPORT_TYPES as readonly string[]).includes(value) ? value as ThreadExportType : null;
}

export function unknownThreadExportTypeMessage(type: string): string {
  return `The export type "${type}" is not one of ${THREAD_EXPORT_TYPES.join(", ")}.`;
}

export const ThreadExportInput = z.object({
  workspaceSlug: z.string({ error: "workspaceSlug must name a workspace." }).trim().min(
    1,
    "workspaceSlug must name a workspace.",
  ).max(500, "workspaceSlug must name a workspace."),
  threadSlug: z.string({ error: "threadSlug must name a thread." }).max(500, "threadSlug must name a thread.")
    .nullish(),
});
export type ThreadExportInput = z.infer<typeof ThreadExportInput>;
