import type { ChatExportType } from "../../../shared/api/chat_export.ts";
import { exportFileName } from "../../../shared/api/workspace_chats.ts";

/** Characters of a prompt or response shown in the table; the whole text opens on demand. */
export const PREVIEW_CHARS = 40;

/** The start of `text` for a table cell: at most `max` characters (an ellipsis included) on one line. */
export function preview(text: string, max = PREVIEW_CHARS): { text: string; cut: boolean } {
  const oneLine = text.replace(/\s+/g, " ").trim();
  if (oneLine.length <= max && oneLine === text) return { text: oneLine, cut: false };
  if (oneLine.length <= max) return { text: oneLine, cut: true };
  return { text: `${oneLine.slice(0, max - 1).trimEnd()}…`, cut: true };
}

/** The answer's text of a stored chat (its `response` is the stored JSON); empty when it holds none. */
export function responseText(response: string): string {
  try {
    const parsed = JSON.parse(response);
    return typeof parsed?.text === "string" ? parsed.text : "";
  } catch {
    return "";
  }
}

/** The page number (`offset`, from 0) in a location's query, as the reference's screen keeps it. */
export function offsetFrom(search: string): number {
  const value = Number(new URLSearchParams(search).get("offset") ?? "0");
  return Number.isInteger(value) && value > 0 ? value : 0;
}

/** The export call of a type: workspace chats. */
export function exportPath(type: ChatExportType): string {
  return `/system/export-chats?type=${encodeURIComponent(type)}&chatType=workspace`;
}

/** Saves a downloaded export under the name the screen gives it. */
export function saveFile(blob: Blob, type: ChatExportType, day = new Date()) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = exportFileName(type, day);
  link.rel = "noopener";
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken the file by the next task.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
