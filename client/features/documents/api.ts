import type { FolderShell, LocalFile } from "../../../shared/api/library.ts";
import type { WorkspaceDetail } from "../../../shared/api/workspaces.ts";
import { api, API_BASE, ApiError, authHeaders } from "../../lib/api.ts";
import { lazySchema, loadSchemas } from "../../lib/lazy_schema.ts";

export const PAGE_SIZE = 100;
/** The listing of "every folder" in the folder picker: the search call across folders. */
export const ALL_FOLDERS = "";

const base = (slug: string) => `/workspace/${encodeURIComponent(slug)}`;

export interface Page {
  items: LocalFile[];
  total: number;
}

/** The `accept` list of the file input: every extension and MIME type the server parses. */
export async function fetchAccepted(signal?: AbortSignal): Promise<string[]> {
  const answer = await api("/system/accepted-document-types", {
    schema: lazySchema((s) => s.documents.TypesAnswer),
    signal,
  });
  const accepted = new Set<string>();
  for (const [mime, extensions] of Object.entries(answer.types)) {
    accepted.add(mime);
    for (const extension of extensions) accepted.add(extension);
  }
  return [...accepted];
}

export async function fetchFolders(signal?: AbortSignal): Promise<FolderShell[]> {
  const answer = await api("/system/local-files", {
    schema: lazySchema((s) => s.library.LocalFilesAnswer),
    signal,
  });
  return answer.localFiles.items;
}

/** One page of a folder, or of every folder when `folder` is ALL_FOLDERS, newest first. */
export async function fetchPage(
  folder: string,
  query: string,
  offset: number,
  signal?: AbortSignal,
): Promise<Page> {
  const params = new URLSearchParams({ offset: String(offset), limit: String(PAGE_SIZE) });
  if (query) params.set("q", query);
  if (folder === ALL_FOLDERS) {
    const answer = await api(`/system/local-files/search?${params}`, {
      schema: lazySchema((s) => s.library.SearchAnswer),
      signal,
    });
    return { items: answer.results, total: answer.totalCount };
  }
  params.set("folder", folder);
  const answer = await api(`/system/local-files?${params}`, {
    schema: lazySchema((s) => s.library.FolderPageAnswer),
    signal,
  });
  return { items: answer.documents, total: answer.totalCount };
}

/** Creates a folder; resolves with the stored name (spaces become dashes). */
export async function createFolder(name: string): Promise<string> {
  const answer = await api("/document/create-folder", {
    json: { name },
    schema: lazySchema((s) => s.documents.CreateFolderAnswer),
  });
  return answer.folder ?? name;
}

export async function moveFiles(files: { from: string; to: string }[], fallback: string): Promise<void> {
  const answer = await api("/document/move-files", {
    json: { files },
    schema: lazySchema((s) => s.library.SuccessOrMessage),
  });
  if (!answer.success) throw new ApiError(answer.message ?? fallback, 200, answer);
}

export async function removeDocuments(names: string[]): Promise<void> {
  await api("/system/remove-documents", { method: "DELETE", json: { names } });
}

export async function removeFolder(name: string): Promise<void> {
  await api("/system/remove-folder", { method: "DELETE", json: { name } });
}

/** Adds and removes documents; the workspace comes back with its documents and a message for failures. */
export async function updateEmbeddings(
  slug: string,
  change: { adds?: string[]; deletes?: string[] },
): Promise<{ workspace: WorkspaceDetail | null; message: string | null }> {
  return await api(`${base(slug)}/update-embeddings`, {
    json: { adds: change.adds ?? [], deletes: change.deletes ?? [] },
    schema: lazySchema((s) => s.workspaces.UpdateEmbeddingsAnswer),
  });
}

export async function setPinned(slug: string, docPath: string, pinStatus: boolean): Promise<void> {
  await api(`${base(slug)}/update-pin`, { json: { docPath, pinStatus } });
}

export async function setWatched(slug: string, docPath: string, watchStatus: boolean): Promise<void> {
  await api(`${base(slug)}/update-watch-status`, { json: { docPath, watchStatus } });
}

type UploadAnswer = import("./schemas.ts").UploadAnswer;

function problemOf(body: UploadAnswer | null, status: number, fallback: string): string | null {
  if (body?.success === false || status >= 400) {
    return body?.error || body?.message || (status >= 400 ? `${fallback} (${status})` : fallback);
  }
  return null;
}

/** Where the uploaded file was stored (`folder/file.json`), as the upload calls answer it. */
function locationOf(body: UploadAnswer | null): string | null {
  return body?.documents?.[0]?.location ?? null;
}

/**
 * Uploads one file with XMLHttpRequest, whose upload events give the progress fetch cannot; resolves with the
 * stored document's location and rejects with the server's own message.
 */
export function uploadFile(
  slug: string,
  file: File,
  onProgress: (percent: number) => void,
  messages: { failed: string; offline: string },
  signal?: AbortSignal,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open("POST", `${API_BASE}${base(slug)}/upload`);
    for (const [name, value] of Object.entries(authHeaders())) request.setRequestHeader(name, value);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) {
        onProgress(Math.round((event.loaded / event.total) * 100));
      }
    };
    request.onload = async () => {
      let body: UploadAnswer | null = null;
      try {
        body = (await loadSchemas()).documents.UploadAnswer.parse(JSON.parse(request.responseText));
      } catch {
        body = null;
      }
      const problem = problemOf(body, request.status, messages.failed);
      const location = locationOf(body);
      if (problem) reject(new ApiError(problem, request.status, body));
      else if (!location) reject(new ApiError(messages.failed, request.status, body));
      else resolve(location);
    };
    request.onerror = () => reject(new ApiError(messages.offline, 0, null));
    request.onabort = () => reject(new DOMException("The upload was cancelled.", "AbortError"));
    signal?.addEventListener("abort", () => request.abort(), { once: true });
    const form = new FormData();
    form.append("file", file, file.name);
    request.send(form);
  });
}

/** Fetches a link into the library; resolves with the stored location when the server names it. */
export async function uploadLink(slug: string, link: string, fallback: string): Promise<string | null> {
  // A refusal with an error status throws with the server's own message (api() reads `error`).
  const body = await api(`${base(slug)}/upload-link`, {
    json: { link },
    schema: lazySchema((s) => s.documents.UploadAnswer),
  });
  const problem = problemOf(body, 200, fallback);
  if (problem) throw new ApiError(problem, 200, body);
  return locationOf(body);
}
