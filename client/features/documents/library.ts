import type { FolderShell } from "../../../shared/api/library.ts";
import { DEFAULT_FOLDER } from "../../../shared/limits.ts";
import { ALL_FOLDERS } from "./api.ts";
import { fileOf } from "./format.ts";

/** update-embeddings takes at most this many adds per call. */
export const ADD_BATCH = 1000;

/** What the library's delete confirmation is about: the selected documents, or a folder. */
export type Confirm = { kind: "documents"; count: number } | { kind: "folder"; name: string } | null;

/** The selection with `location` added if it was not selected, and taken out if it was. */
export function toggledLocation(selected: ReadonlySet<string>, location: string): Set<string> {
  const next = new Set(selected);
  if (next.has(location)) next.delete(location);
  else next.add(location);
  return next;
}

/** The selected documents the workspace does not hold yet, cut into the batches update-embeddings takes. */
export function addBatches(
  selected: Iterable<string>,
  inWorkspace: ReadonlySet<string>,
  size = ADD_BATCH,
): string[][] {
  const adds = [...selected].filter((location) => !inWorkspace.has(location));
  const batches: string[][] = [];
  for (let start = 0; start < adds.length; start += size) batches.push(adds.slice(start, start + size));
  return batches;
}

/** The moves of the selected documents into `folder`, each keeping its file name. */
export function movesInto(selected: Iterable<string>, folder: string): { from: string; to: string }[] {
  return [...selected].map((from) => ({ from, to: `${folder}/${fileOf(from)}` }));
}

/**
 * The folders the selection may move to (every folder but the one shown) and the chosen one, which is
 * forgotten when it is no longer among them.
 */
export function moveChoice(folders: readonly FolderShell[], shown: string, chosen: string) {
  const targets = folders.filter((shell) => shell.name !== shown);
  return { targets, chosen: targets.some((shell) => shell.name === chosen) ? chosen : "" };
}

/** Whether the folder shown can be deleted: not the default folder, and not the listing of every folder. */
export function isRemovableFolder(folder: string): boolean {
  return folder !== DEFAULT_FOLDER && folder !== ALL_FOLDERS;
}

/** The i18n key and count of the line above the list: loading, matches of a search, or the folder's count. */
export function countLabel(total: number | null, query: string): { key: string; count?: number } {
  if (total === null) return { key: "documents.library.loading" };
  return { key: query ? "documents.library.matches" : "documents.library.count", count: total };
}
