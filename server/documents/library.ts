import { join, resolve, sep } from "node:path";
import { and, asc, count, desc, eq, inArray, type SQL, sql } from "drizzle-orm";
import { documents, documentSyncQueues, workspaceDocuments, workspaces } from "../../db/schema.ts";
import type { Deps } from "../deps.ts";
import { fail, messageOf } from "../errors.ts";
import type { WorkspaceRow } from "../workspaces/present.ts";
import {
  DEFAULT_FOLDER,
  DEFAULT_PAGE_SIZE,
  FOLDER_NAME,
  type FolderShell,
  type LocalFile,
  MAX_PAGE_SIZE,
  watchableSource,
} from "../../shared/api/library.ts";
import { forgetCachedDocument, removeDocuments } from "./ingest.ts";
import { VectorCache } from "./vector_cache.ts";
import { parseLocation } from "./store.ts";

/** SQLite's limit on bound parameters is far above this; smaller batches keep each statement quick. */
const BATCH = 500;
/** How long a watched document stays fresh before the live-sync worker fetches it again (7 days). */
export const DEFAULT_STALE_AFTER_MS = 7 * 24 * 60 * 60 * 1000;
const watchable = watchableSource;

type DocumentRow = typeof documents.$inferSelect;

function batches<T>(items: T[], size = BATCH): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += size) out.push(items.slice(start, start + size));
  return out;
}

function parseMetadata(text: string | null | undefined): Record<string, unknown> {
  try {
    const value = text ? JSON.parse(text) : {};
    return value && typeof value === "object" && !Array.isArray(value) ? value : {};
  } catch {
    return {};
  }
}

/** A folder name checked the way document locations are; anything else is a 400. */
export function checkFolder(name: string): string {
  return parseLocation(`${name}/x.json`).folder;
}

function isFolderName(name: string): boolean {
  try {
    checkFolder(name);
    return true;
  } catch {
    return false;
  }
}

/** Where a document lives on disk; `parseLocation` has already refused paths and `..`. */
function documentPath(deps: Pick<Deps, "paths">, location: string): string {
  const { folder, filename } = parseLocation(location);
  const root = resolve(deps.paths.documents);
  const path = resolve(root, folder, filename);
  if (!path.startsWith(root + sep)) fail("invalid_input", `"${location}" is outside the documents folder.`);
  return path;
}

function folderPath(deps: Pick<Deps, "paths">, folder: string): string {
  return join(resolve(deps.paths.documents), checkFolder(folder));
}

/** Whether the active embedder's vectors of a document are in the vector cache (adding it costs no embedding). */
function cacheProbe(deps: Pick<Deps, "paths" | "providers">): (location: string) => Promise<boolean> {
  let fingerprint: string;
  try {
    fingerprint = deps.providers.embedder().fingerprint;
  } catch {
    return () => Promise.resolve(false);
  }
  const cache = new VectorCache(deps.paths.vectorCache);
  return (location) => exists(cache.fileFor(location, fingerprint));
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

async function removeFile(path: string): Promise<void> {
  await Deno.remove(path).catch((error) => {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  });
}

/** Runs `work` over `items`, at most `limit` at a time. */
async function eachLimited<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await work(items[next++]);
  });
  await Promise.all(lanes);
}

/** Folders on disk (a new folder has no document yet), by name. */
async function foldersOnDisk(deps: Pick<Deps, "paths">): Promise<string[]> {
  const names: string[] = [];
  try {
    for await (const entry of Deno.readDir(deps.paths.documents)) {
      if (entry.isDirectory && isFolderName(entry.name)) names.push(entry.name);
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return names;
}

async function folderExists(deps: Pick<Deps, "db" | "paths">, folder: string): Promise<boolean> {
  if (folder === DEFAULT_FOLDER || await exists(folderPath(deps, folder))) return true;
  const [row] = await deps.db.select({ id: documents.id }).from(documents).where(eq(documents.folder, folder))
    .limit(1);
  return row !== undefined;
}

/** The folder shells of `GET /system/local-files`: every folder with its document count, default first. */
export async function listFolders(deps: Pick<Deps, "db" | "paths">): Promise<FolderShell[]> {
  const counts = await deps.db.select({ folder: documents.folder, fileCount: count() }).from(documents)
    .groupBy(documents.folder);
  const byName = new Map<string, number>([[DEFAULT_FOLDER, 0]]);
  for (const name of await foldersOnDisk(deps)) byName.set(name, 0);
  for (const row of counts) byName.set(row.folder, row.fileCount);
  return [...byName.entries()]
    .sort(([a], [b]) => (a === DEFAULT_FOLDER ? -1 : b === DEFAULT_FOLDER ? 1 : a.localeCompare(b)))
    .map(([name, fileCount]) => ({ name, type: "folder" as const, fileCount, items: [] }));
}

/**
 * The picker entries for index rows: metadata (never the text), plus whether the vectors are cached, whether
 * the document can be watched, and where it is pinned or watched. One query for the whole page.
 */
async function presentFiles(
  deps: Pick<Deps, "db" | "paths" | "providers">,
  rows: DocumentRow[],
): Promise<LocalFile[]> {
  if (rows.length === 0) return [];
  const probe = cacheProbe(deps);
  const [usage, cached] = await Promise.all([
    deps.db.select({
      docpath: workspaceDocuments.docpath,
      workspaceId: workspaceDocuments.workspaceId,
      pinned: workspaceDocuments.pinned,
      watched: workspaceDocuments.watched,
    }).from(workspaceDocuments).where(inArray(workspaceDocuments.docpath, rows.map((row) => row.location))),
    Promise.all(rows.map((row) => probe(row.location))),
  ]);
  const pinned = new Map<string, number[]>();
  const watched = new Set<string>();
  for (const use of usage) {
    if (use.pinned) pinned.set(use.docpath, [...(pinned.get(use.docpath) ?? []), use.workspaceId]);
    if (use.watched) watched.add(use.docpath);
  }
  return rows.map((row, index) => {
    const { pageContent: _text, pageBreaks: _breaks, uploadName: _upload, ...metadata } = parseMetadata(
      row.metadata,
    );
    const chunkSource = typeof metadata.chunkSource === "string" ? metadata.chunkSource : "";
    const text = (key: string, fallback: string) =>
      typeof metadata[key] === "string" ? metadata[key] as string : fallback;
    return {
      ...metadata,
      name: row.filename,
      type: "file" as const,
      location: row.location,
      folder: row.folder,
      id: text("id", String(row.id)),
      url: text("url", ""),
      title: row.title,
      docAuthor: text("docAuthor", "Unknown"),
      description: text("description", "Unknown"),
      docSource: text("docSource", ""),
      chunkSource,
      published: text("published", row.createdAt.toLocaleString("en-US")),
      wordCount: row.wordCount,
      token_count_estimate: row.tokenCountEstimate,
      cached: cached[index],
      canWatch: watchable(chunkSource),
      pinnedWorkspaces: pinned.get(row.location) ?? [],
      watched: watched.has(row.location),
    };
  });
}

export interface PageOptions {
  offset: number;
  /** null: every match. */
  limit: number | null;
  /** Case-insensitive part of the title; empty for all. */
  query: string;
}

/**
 * `offset`, `limit` (1–1000 or `all`; `defaultLimit` when absent) and `q` of a listing; anything else is a 400.
 */
export function pageOptions(
  query: (name: string) => string | undefined,
  defaultLimit = String(DEFAULT_PAGE_SIZE),
): PageOptions {
  const offsetText = query("offset") ?? "0";
  const limitText = query("limit") ?? defaultLimit;
  const offset = Number(offsetText);
  if (!/^\d+$/.test(offsetText) || !Number.isSafeInteger(offset)) {
    fail("invalid_input", "offset must be a whole number, 0 or more.");
  }
  let limit: number | null = null;
  if (limitText !== "all") {
    limit = Number(limitText);
    if (!/^\d+$/.test(limitText) || limit < 1 || limit > MAX_PAGE_SIZE) {
      fail("invalid_input", `limit must be a whole number from 1 to ${MAX_PAGE_SIZE}, or "all".`);
    }
  }
  const q = (query("q") ?? "").trim();
  if (q.length > 200) fail("invalid_input", "The search text is too long (at most 200 characters).");
  // SQLite's LIKE reads its pattern up to a NUL, so "a\0b" would search for "a": no title holds these anyway.
  // deno-lint-ignore no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(q)) {
    fail("invalid_input", "The search text cannot contain control characters.");
  }
  return { offset, limit, query: q };
}

const NON_ASCII = /[\u{80}-\u{10ffff}]/gu;
const HAS_NON_ASCII = /[\u{80}-\u{10ffff}]/u;

/** `query` as a LIKE pattern matching it anywhere; `\` escapes LIKE's own wildcards. */
function likePattern(query: string, nonAscii: string): string {
  return `%${query.replace(/[\\%_]/g, (character) => `\\${character}`).replace(NON_ASCII, nonAscii)}%`;
}

/**
 * The `WHERE` for a title search. SQLite's LIKE folds case for ASCII only: a query with other letters finds
 * candidates with `_` in their place, then JS folds case to keep the real matches, turned into an id list.
 */
async function titleFilter(
  deps: Pick<Deps, "db">,
  scope: SQL | undefined,
  query: string,
): Promise<SQL | undefined> {
  if (query === "") return scope;
  const combine = (condition: SQL) => (scope ? and(scope, condition) : condition);
  if (!HAS_NON_ASCII.test(query)) {
    return combine(sql`${documents.title} LIKE ${likePattern(query, "")} ESCAPE '\\'`);
  }
  const candidates = await deps.db.select({ id: documents.id, title: documents.title }).from(documents).where(
    combine(sql`${documents.title} LIKE ${likePattern(query, "_")} ESCAPE '\\'`),
  );
  const needle = query.toLocaleLowerCase();
  const ids = candidates.filter((row) => row.title.toLocaleLowerCase().includes(needle)).map((row) => row.id);
  // One JSON parameter, however many ids: bound parameters are limited in number.
  return sql`${documents.id} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`;
}

async function pageOf(
  deps: Pick<Deps, "db" | "paths" | "providers">,
  where: SQL | undefined,
  options: PageOptions,
) {
  // Newest first: what was just uploaded is at the top; the id order follows the folder index.
  const select = deps.db.select().from(documents).where(where).orderBy(desc(documents.id));
  const [[{ total }], rows] = await Promise.all([
    deps.db.select({ total: count() }).from(documents).where(where),
    // SQLite takes OFFSET only after a LIMIT (drizzle leaves out a negative one): "all" is the largest.
    select.limit(options.limit ?? Number.MAX_SAFE_INTEGER).offset(options.offset),
  ]);
  return {
    documents: await presentFiles(deps, rows),
    totalCount: total,
    hasMore: options.offset + rows.length < total,
  };
}

/** One page of a folder, newest first; a folder that does not exist is a 404. */
export async function listFolder(
  deps: Pick<Deps, "db" | "paths" | "providers">,
  folder: string,
  options: PageOptions,
) {
  checkFolder(folder);
  if (!(await folderExists(deps, folder))) fail("not_found", `The folder "${folder}" does not exist.`);
  const where = await titleFilter(deps, eq(documents.folder, folder), options.query);
  return { folder, ...await pageOf(deps, where, options) };
}

/** Documents of every folder whose title contains `query`, newest first. */
export async function searchDocuments(deps: Pick<Deps, "db" | "paths" | "providers">, options: PageOptions) {
  const page = await pageOf(deps, await titleFilter(deps, undefined, options.query), options);
  return { results: page.documents, totalCount: page.totalCount, hasMore: page.hasMore };
}

/**
 * The picker entries of the documents at `docpaths`, in the order asked, each with its `docpath` (the
 * reference's `local-files/by-docpaths`: the document manager lists a workspace's documents with it). A path
 * that names no stored document, or is no document location at all, is left out.
 */
export async function documentsByDocpaths(
  deps: Pick<Deps, "db" | "paths" | "providers">,
  docpaths: string[],
): Promise<LocalFile[]> {
  const wanted = [...new Set(docpaths)].filter((docpath) => {
    try {
      parseLocation(docpath);
      return true;
    } catch {
      return false;
    }
  });
  const found = new Map<string, LocalFile>();
  for (const batch of batches(wanted)) {
    const rows = await deps.db.select().from(documents).where(inArray(documents.location, batch));
    for (const file of await presentFiles(deps, rows)) found.set(file.location, file);
  }
  return wanted.flatMap((docpath) => {
    const file = found.get(docpath);
    return file ? [{ ...file, docpath }] : [];
  });
}

/** The workspaces that hold any of `locations`. */
async function workspacesHolding(deps: Pick<Deps, "db">, locations: string[]): Promise<WorkspaceRow[]> {
  const ids = new Set<number>();
  for (const batch of batches(locations)) {
    const rows = await deps.db.selectDistinct({ id: workspaceDocuments.workspaceId }).from(workspaceDocuments)
      .where(inArray(workspaceDocuments.docpath, batch));
    for (const row of rows) ids.add(row.id);
  }
  if (ids.size === 0) return [];
  return await deps.db.select().from(workspaces).where(inArray(workspaces.id, [...ids]));
}

/** Takes documents out of every workspace: their vectors, rows and live-sync queues. */
async function unembedEverywhere(
  deps: Pick<Deps, "db" | "providers" | "vectors">,
  locations: string[],
): Promise<void> {
  for (const workspace of await workspacesHolding(deps, locations)) {
    for (const batch of batches(locations)) await removeDocuments(deps, workspace, batch);
  }
}

/**
 * Removes documents system-wide (`remove-document`). The order keeps every listed or embedded
 * document readable should the server stop half-way: out of the workspaces first, then out of the index, and
 * only then the files (JSON, original upload, vector cache). Documents embedded again meanwhile are taken out
 * once more at the end. Returns how many index rows were removed.
 */
export async function purgeDocuments(
  deps: Pick<Deps, "db" | "log" | "paths" | "providers" | "vectors">,
  locations: string[],
): Promise<number> {
  const unique = [...new Set(locations)];
  unique.forEach((location) => parseLocation(location));
  if (unique.length === 0) return 0;
  await unembedEverywhere(deps, unique);
  const rows: { location: string; metadata: string }[] = [];
  for (const batch of batches(unique)) {
    rows.push(
      ...await deps.db.delete(documents).where(inArray(documents.location, batch))
        .returning({ location: documents.location, metadata: documents.metadata }),
    );
  }
  const uploads = rows.map((row) => parseMetadata(row.metadata).uploadName).filter(
    (name): name is string => typeof name === "string" && /^[\w.-]+$/.test(name) && !name.startsWith("."),
  );
  await eachLimited(unique, 16, async (location) => {
    await removeFile(documentPath(deps, location));
    await forgetCachedDocument(deps, location);
  });
  await eachLimited(uploads, 16, (name) => removeFile(join(deps.paths.uploads, name)));
  await unembedEverywhere(deps, unique);
  deps.log.info("Documents removed", { count: rows.length });
  return rows.length;
}

/** Removes one document; neither an index row nor a file is a 404. */
export async function purgeDocument(
  deps: Pick<Deps, "db" | "log" | "paths" | "providers" | "vectors">,
  location: string,
): Promise<void> {
  const path = documentPath(deps, location);
  const [row] = await deps.db.select({ id: documents.id }).from(documents).where(
    eq(documents.location, location),
  );
  if (!row && !(await exists(path))) fail("not_found", `Cannot find the document "${location}".`);
  await purgeDocuments(deps, [location]);
}

/** Removes a folder with every document in it; the default folder stays. */
export async function removeFolder(
  deps: Pick<Deps, "db" | "log" | "paths" | "providers" | "vectors">,
  folder: string,
): Promise<number> {
  checkFolder(folder);
  if (folder === DEFAULT_FOLDER) {
    fail("invalid_input", `The folder "${DEFAULT_FOLDER}" cannot be removed: new uploads are stored in it.`);
  }
  if (!(await folderExists(deps, folder))) fail("not_found", `The folder "${folder}" does not exist.`);
  const rows = await deps.db.select({ location: documents.location }).from(documents).where(
    eq(documents.folder, folder),
  ).orderBy(asc(documents.id));
  const removed = await purgeDocuments(deps, rows.map((row) => row.location));
  await Deno.remove(folderPath(deps, folder), { recursive: true }).catch((error) => {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  });
  return removed;
}

/**
 * Creates an empty folder. Spaces become `-` so that the folder's documents have plain locations; a name that
 * is not safe (a path, `..`, other characters) is a 400 and one in use a 409. Returns the stored name.
 */
export async function createFolder(deps: Pick<Deps, "db" | "paths">, name: string): Promise<string> {
  const trimmed = name.trim();
  if (!FOLDER_NAME.test(trimmed)) {
    fail(
      "invalid_input",
      "A folder name may use letters, digits, spaces, _, - and . (at most 64), and must start with a letter, digit or _.",
    );
  }
  const folder = trimmed.replace(/\s+/g, "-");
  checkFolder(folder);
  if (await folderExists(deps, folder)) fail("conflict", `A folder named "${folder}" already exists.`);
  await Deno.mkdir(deps.paths.documents, { recursive: true });
  try {
    await Deno.mkdir(folderPath(deps, folder));
  } catch (error) {
    if (error instanceof Deno.errors.AlreadyExists) {
      fail("conflict", `A folder named "${folder}" already exists.`);
    }
    throw error;
  }
  return folder;
}

/**
 * Moves one document to another folder (`to` is `folder/file.json`). The file is copied first, the index
 * and every workspace's row are updated together, and only then is the old file removed: a crash leaves at
 * most a stray copy, never a listed document without its file.
 */
async function moveOne(
  deps: Pick<Deps, "db" | "paths" | "providers">,
  from: string,
  to: string,
): Promise<void> {
  const source = documentPath(deps, from);
  const target = documentPath(deps, to);
  const destination = parseLocation(to);
  const [row] = await deps.db.select().from(documents).where(eq(documents.location, from));
  if (!row) fail("not_found", `Cannot find the document "${from}".`);
  const [taken] = await deps.db.select({ id: documents.id }).from(documents).where(
    eq(documents.location, to),
  );
  if (taken || await exists(target)) fail("conflict", `"${to}" already exists.`);
  await Deno.mkdir(folderPath(deps, destination.folder), { recursive: true });
  const temporary = `${target}.${crypto.randomUUID()}.tmp`;
  try {
    await Deno.copyFile(source, temporary);
    await Deno.rename(temporary, target);
  } catch (error) {
    await removeFile(temporary);
    if (error instanceof Deno.errors.NotFound) fail("not_found", `The file of "${from}" is missing.`);
    throw error;
  }
  try {
    await deps.db.transaction(async (tx) => {
      await tx.update(documents).set({
        location: to,
        folder: destination.folder,
        filename: destination.filename,
      }).where(eq(documents.location, from));
      await tx.update(workspaceDocuments).set({
        docpath: to,
        filename: destination.filename,
        lastUpdatedAt: new Date(),
      }).where(eq(workspaceDocuments.docpath, from));
    });
  } catch (error) {
    await removeFile(target);
    throw error;
  }
  await removeFile(source);
  // Cache entries are keyed by location, so the old ones can never be read again.
  await forgetCachedDocument(deps, from).catch(() => {});
}

/** The answer of `move-files` (UI and developer API): success, or a message naming each document that failed. */
export function moveAnswer(failures: string[], total: number) {
  if (failures.length === 0) return { success: true, message: null };
  const message = `${failures.length} of ${total} documents could not be moved.\n\n${failures.join("\n")}`;
  return { success: false, message, failures };
}

/** Moves documents between folders; one failure never stops the rest. Returns the failures' messages. */
export async function moveFiles(
  deps: Pick<Deps, "db" | "log" | "paths" | "providers">,
  files: { from: string; to: string }[],
): Promise<string[]> {
  for (const file of files) {
    parseLocation(file.from);
    parseLocation(file.to);
  }
  const failures: string[] = [];
  for (const { from, to } of files) {
    if (from === to) continue;
    try {
      await moveOne(deps, from, to);
    } catch (error) {
      failures.push(`${from}: ${messageOf(error)}`);
    }
  }
  deps.log.info("Documents moved", { count: files.length - failures.length, failed: failures.length });
  return failures;
}

async function workspaceDocument(deps: Pick<Deps, "db">, workspace: WorkspaceRow, docPath: string) {
  parseLocation(docPath);
  const [row] = await deps.db.select().from(workspaceDocuments).where(
    and(eq(workspaceDocuments.workspaceId, workspace.id), eq(workspaceDocuments.docpath, docPath)),
  );
  return row ?? fail("not_found", `The document "${docPath}" is not in this workspace.`);
}

/** Pins or unpins a document of the workspace: a pinned document goes whole into every answer's context. */
export async function setPinned(
  deps: Pick<Deps, "db">,
  workspace: WorkspaceRow,
  docPath: string,
  pinned: boolean,
): Promise<void> {
  const row = await workspaceDocument(deps, workspace, docPath);
  await deps.db.update(workspaceDocuments).set({ pinned, lastUpdatedAt: new Date() }).where(
    eq(workspaceDocuments.id, row.id),
  );
}

/**
 * Watches a document for live sync (a queue row fetched again once stale) or stops watching it. Only
 * documents fetched from a link or a data connector can be watched.
 */
export async function setWatched(
  deps: Pick<Deps, "db">,
  workspace: WorkspaceRow,
  docPath: string,
  watched: boolean,
): Promise<void> {
  const row = await workspaceDocument(deps, workspace, docPath);
  if (watched) {
    const [indexed] = await deps.db.select({ metadata: documents.metadata }).from(documents).where(
      eq(documents.location, docPath),
    );
    const chunkSource = parseMetadata(indexed?.metadata ?? row.metadata).chunkSource;
    if (typeof chunkSource !== "string" || !watchable(chunkSource)) {
      fail("invalid_input", "Only documents added from a link or a data connector can be watched.");
    }
  }
  await deps.db.transaction(async (tx) => {
    await tx.update(workspaceDocuments).set({ watched, lastUpdatedAt: new Date() }).where(
      eq(workspaceDocuments.id, row.id),
    );
    if (!watched) {
      await tx.delete(documentSyncQueues).where(eq(documentSyncQueues.workspaceDocId, row.id));
      return;
    }
    await tx.insert(documentSyncQueues).values({
      workspaceDocId: row.id,
      staleAfterMs: DEFAULT_STALE_AFTER_MS,
      nextSyncAt: new Date(Date.now() + DEFAULT_STALE_AFTER_MS),
    }).onConflictDoNothing({ target: documentSyncQueues.workspaceDocId });
  });
}
