import { THREAD_EXPORT_EXTENSIONS, type ThreadExportType } from "../../../shared/limits.ts";
import { API_BASE, ApiError, authHeaders } from "../../lib/api.ts";

/** The menu's formats, in the reference's order. */
export const EXPORT_CHAT_TYPES: readonly ThreadExportType[] = [
  "pdf",
  "markdown",
  "plaintext",
  "json",
  "html",
];

/** The request of the chat-settings Export (`POST /api/export-chat/:type`). */
export function exportChatRequest(type: ThreadExportType, slug: string, threadSlug: string | null) {
  return {
    path: `${API_BASE}/export-chat/${encodeURIComponent(type)}`,
    body: JSON.stringify({ workspaceSlug: slug, threadSlug }),
  };
}

/** The download's name: the server's (Content-Disposition), else `Lectern Export - <date>.<ext>`. */
export function exportChatFilename(
  disposition: string | null,
  type: ThreadExportType,
  day = new Date(),
): string {
  const named = /filename="([^"]+)"/.exec(disposition ?? "")?.[1];
  return named ?? `Lectern Export - ${day.toISOString().slice(0, 10)}.${THREAD_EXPORT_EXTENSIONS[type]}`;
}

/** Asks the server for the file and saves it; a refusal throws with the server's sentence. */
export async function downloadChatExport(type: ThreadExportType, slug: string, threadSlug: string | null) {
  const request = exportChatRequest(type, slug, threadSlug);
  const response = await fetch(request.path, {
    method: "POST",
    headers: { ...authHeaders(), "Content-Type": "application/json" },
    body: request.body,
  });
  if (!response.ok) {
    const body = await response.json().catch(() => null);
    throw new ApiError(body?.error ?? response.statusText, response.status, body);
  }
  const blob = await response.blob();
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = exportChatFilename(response.headers.get("content-disposition"), type);
  link.rel = "noopener";
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
