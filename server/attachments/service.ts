import { join } from "node:path";
import { and, asc, count, eq, inArray, isNull, type SQL } from "drizzle-orm";
import { workspaceDocuments, workspaceParsedFiles } from "../../db/schema.ts";
import {
  MAX_PARSED_FILES,
  type ParsedFileRow,
  type ParsedFilesAnswer,
} from "../../shared/api/attachments.ts";
import type { Source } from "../../shared/api/chat.ts";
import type { Actor } from "../auth/actor.ts";
import type { Deps } from "../deps.ts";
import { fail, messageOf } from "../errors.ts";
import { parseUpload } from "../documents/upload.ts";
import { addDocuments } from "../documents/ingest.ts";
import { purgeDocuments } from "../documents/library.ts";
import { type DocumentJson, wordCount } from "../documents/store.ts";
import { estimateTokens } from "../documents/tokens.ts";
import { contextWindowFromSettings } from "../providers/llm/registry.ts";
import { writeFileAtomic } from "../storage.ts";
import { requireThread, type ThreadRow } from "../threads/service.ts";
import { presentWorkspaceDocument, type WorkspaceRow } from "../workspaces/present.ts";
import { documentFileStem } from "../workspaces/slug.ts";

type Row = typeof workspaceParsedFiles.$inferSelect;

/** The folder part of a parsed file's `location`, as the reference names it. */
const LOCATION_FOLDER = "direct-uploads";
const FILENAME = /^[\p{L}\p{N}_][\p{L}\p{N}._-]{0,250}\.json$/u;
const PREVIEW_CHARS = 1_000;
const CONTINUED = "...continued on in source document...";

/** Whose attached files a call sees: one workspace's thread (null: the default thread) and, with accounts, one user. */
export interface AttachmentScope {
  workspaceId: number;
  threadId: number | null;
  /** Null on a single-user instance: its files belong to nobody in particular. */
  userId: number | null;
}

export function scopeOf(actor: Actor, workspace: WorkspaceRow, thread: ThreadRow | null): AttachmentScope {
  return {
    workspaceId: workspace.id,
    threadId: thread?.id ?? null,
    userId: actor.multiUser ? actor.userId : null,
  };
}

/** The caller's own files of the workspace; every multi-user caller, admins too, sees only their own. */
function ownedBy(actor: Actor, workspace: WorkspaceRow): SQL {
  return and(
    eq(workspaceParsedFiles.workspaceId, workspace.id),
    actor.multiUser ? eq(workspaceParsedFiles.userId, actor.userId ?? -1) : undefined,
  )!;
}

function inScope(scope: AttachmentScope): SQL {
  return and(
    eq(workspaceParsedFiles.workspaceId, scope.workspaceId),
    scope.threadId === null
      ? isNull(workspaceParsedFiles.threadId)
      : eq(workspaceParsedFiles.threadId, scope.threadId),
    scope.userId === null ? undefined : eq(workspaceParsedFiles.userId, scope.userId),
  )!;
}

/**
 * The thread a `threadSlug` names, or null for the default thread. The reference's client sends the string
 * "null" when it has no thread. A thread that is not the caller's, or not in this workspace, is a 404.
 */
export async function threadOf(
  deps: Deps,
  actor: Actor,
  workspace: WorkspaceRow,
  threadSlug: unknown,
  body?: Record<string, unknown>,
): Promise<ThreadRow | null> {
  if (threadSlug === undefined || threadSlug === null) return null;
  const slug = String(threadSlug).trim();
  if (slug === "" || slug === "null" || slug === "undefined") return null;
  return await requireThread(deps, actor, workspace, slug, body);
}

function pathOf(deps: Pick<Deps, "paths">, filename: string): string {
  if (!FILENAME.test(filename)) fail("invalid_input", `"${filename}" is not a parsed file name.`);
  return join(deps.paths.directUploads, filename);
}

function parseMetadata(text: string | null): Record<string, unknown> {
  try {
    const value = text ? JSON.parse(text) : {};
    return value && typeof value === "object" && !Array.isArray(value) ? value : {};
  } catch {
    return {};
  }
}

export function presentParsedFile(row: Row): ParsedFileRow {
  return {
    id: row.id,
    filename: row.filename,
    workspaceId: row.workspaceId,
    userId: row.userId,
    threadId: row.threadId,
    metadata: row.metadata ?? "{}",
    tokenCountEstimate: row.tokenCountEstimate,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The workspace model's context window, else the instance's; null when no language model is set up. */
export function workspaceContextWindow(
  deps: Pick<Deps, "providers" | "settings">,
  workspace: WorkspaceRow,
): number | null {
  try {
    return deps.providers.chatModel({ provider: workspace.chatProvider, model: workspace.chatModel })
      .contextWindow;
  } catch {
    return contextWindowFromSettings(deps.settings);
  }
}

/**
 * Parses a file dropped into the chat with the upload parser and its limits, and keeps its text for the
 * scope's thread: it goes into the context of every message there until it is removed or embedded. Nothing is
 * embedded and nothing enters the document library.
 */
export async function attachFile(deps: Deps, scope: AttachmentScope, file: File): Promise<ParsedFileRow> {
  const limitMb = Math.round(deps.config.maxUploadBytes / 1024 / 1024);
  if (file.size > deps.config.maxUploadBytes) {
    fail("too_large", `The file is too large: the limit is ${limitMb} MB.`);
  }
  const [{ attached }] = await deps.db.select({ attached: count() }).from(workspaceParsedFiles)
    .where(inScope(scope));
  if (attached >= MAX_PARSED_FILES) {
    fail(
      "conflict",
      `At most ${MAX_PARSED_FILES} files can be attached to one thread: remove some, or embed them into the workspace.`,
    );
  }
  const title = file.name.split(/[\\/]/).pop()?.trim() || "document";
  const parsed = await parseUpload(deps, title, new Uint8Array(await file.arrayBuffer()));
  const id = crypto.randomUUID();
  const filename = `${documentFileStem(title)}-${id}.json`;
  const location = `${LOCATION_FOLDER}/${filename}`;
  const document: DocumentJson & { location: string; isDirectUpload: true } = {
    id,
    url: `file://${documentFileStem(title)}`,
    title: parsed.innerTitle?.trim() || title,
    docAuthor: parsed.docAuthor,
    description: parsed.description,
    docSource: parsed.docSource,
    chunkSource: "",
    published: new Date().toLocaleString("en-US"),
    wordCount: wordCount(parsed.text),
    pageContent: parsed.text,
    token_count_estimate: await estimateTokens(parsed.text),
    ...(parsed.pageBreaks?.length ? { pageBreaks: parsed.pageBreaks } : {}),
    location,
    isDirectUpload: true,
  };
  const path = pathOf(deps, filename);
  await Deno.mkdir(deps.paths.directUploads, { recursive: true });
  await writeFileAtomic(path, JSON.stringify(document));
  const { pageContent: _text, pageBreaks: _breaks, ...metadata } = document;
  try {
    const [row] = await deps.db.insert(workspaceParsedFiles).values({
      filename,
      workspaceId: scope.workspaceId,
      userId: scope.userId,
      threadId: scope.threadId,
      metadata: JSON.stringify(metadata),
      tokenCountEstimate: document.token_count_estimate,
    }).returning();
    return presentParsedFile(row);
  } catch (error) {
    await Deno.remove(path).catch(() => {});
    throw error;
  }
}

/** The attached files of a scope with their token estimates, and the context window they must fit in. */
export async function listAttached(
  deps: Pick<Deps, "db" | "providers" | "settings">,
  workspace: WorkspaceRow,
  scope: AttachmentScope,
): Promise<ParsedFilesAnswer> {
  const rows = await deps.db.select().from(workspaceParsedFiles).where(inScope(scope))
    .orderBy(asc(workspaceParsedFiles.id));
  let total = 0;
  const files = rows.map((row) => {
    const metadata = parseMetadata(row.metadata);
    const location = typeof metadata.location === "string" ? metadata.location : "";
    total += row.tokenCountEstimate;
    return {
      id: row.id,
      title: typeof metadata.title === "string" && metadata.title ? metadata.title : location,
      location,
      token_count_estimate: row.tokenCountEstimate,
    };
  });
  return { files, contextWindow: workspaceContextWindow(deps, workspace), currentContextTokenCount: total };
}

async function removeRows(
  deps: Pick<Deps, "db" | "log" | "paths">,
  rows: Pick<Row, "id" | "filename">[],
): Promise<void> {
  if (rows.length === 0) return;
  await deps.db.delete(workspaceParsedFiles).where(
    inArray(workspaceParsedFiles.id, rows.map((row) => row.id)),
  );
  for (const row of rows) {
    await Deno.remove(pathOf(deps, row.filename)).catch((error) => {
      if (!(error instanceof Deno.errors.NotFound)) {
        deps.log.warn("Cannot remove a parsed file", { file: row.filename, error: messageOf(error) });
      }
    });
  }
}

/** Removes the caller's own files among `ids` from the workspace; returns how many there were. */
export async function detachFiles(
  deps: Pick<Deps, "db" | "log" | "paths">,
  actor: Actor,
  workspace: WorkspaceRow,
  ids: number[],
): Promise<number> {
  const rows = await deps.db.select({ id: workspaceParsedFiles.id, filename: workspaceParsedFiles.filename })
    .from(workspaceParsedFiles).where(and(ownedBy(actor, workspace), inArray(workspaceParsedFiles.id, ids)));
  await removeRows(deps, rows);
  return rows.length;
}

async function readText(deps: Pick<Deps, "log" | "paths">, row: Row): Promise<DocumentJson | null> {
  try {
    const document = JSON.parse(await Deno.readTextFile(pathOf(deps, row.filename))) as DocumentJson;
    return typeof document.pageContent === "string" ? document : null;
  } catch (error) {
    deps.log.warn("Cannot read a parsed file", { file: row.filename, error: messageOf(error) });
    return null;
  }
}

/**
 * Turns one of the caller's attached files into a library document (`custom-documents`) embedded in the
 * workspace, and detaches it. When embedding fails the library document is removed again and the file stays
 * attached, so the call can be repeated.
 */
export async function embedAttached(
  deps: Pick<
    Deps,
    "db" | "documents" | "embedProgress" | "log" | "paths" | "providers" | "settings" | "vectors"
  >,
  actor: Actor,
  workspace: WorkspaceRow,
  id: number,
) {
  const [row] = await deps.db.select().from(workspaceParsedFiles).where(
    and(ownedBy(actor, workspace), eq(workspaceParsedFiles.id, id)),
  );
  if (!row) fail("not_found", "File not found", { success: false, error: "File not found", document: null });
  const parsed = await readText(deps, row);
  if (!parsed) {
    const message = "The parsed file's text is missing or damaged; attach the file again.";
    fail("not_found", message, { success: false, error: message, document: null });
  }
  const stored = await deps.documents.save({
    fileStem: parsed.title,
    title: parsed.title,
    url: parsed.url,
    docAuthor: parsed.docAuthor,
    description: parsed.description,
    docSource: parsed.docSource,
    chunkSource: parsed.chunkSource,
    published: parsed.published,
    text: parsed.pageContent,
    pageBreaks: parsed.pageBreaks,
  });
  const outcome = await addDocuments(deps, workspace, [stored.location]);
  if (outcome.added === 0) {
    await purgeDocuments(deps, [stored.location]).catch((error) =>
      deps.log.warn("Cannot remove a document that failed to embed", { error: messageOf(error) })
    );
    const message = outcome.failures[0]?.replace(`${stored.location}: `, "") ?? "Failed to embed document";
    fail("provider_failed", message, { success: false, error: message, document: null });
  }
  await removeRows(deps, [row]);
  const [document] = await deps.db.select().from(workspaceDocuments).where(
    and(eq(workspaceDocuments.workspaceId, workspace.id), eq(workspaceDocuments.docpath, stored.location)),
  );
  return presentWorkspaceDocument(document);
}

/**
 * The attached files' texts for a message's context, oldest first, added while
 * the running token estimate (`used` so far, the pinned documents') is under the context window; the file
 * that crosses it is still included. Each comes with its citation, as pinned documents do.
 */
export async function attachedContext(
  deps: Pick<Deps, "db" | "log" | "paths">,
  scope: AttachmentScope,
  contextWindow: number,
  used = 0,
): Promise<{ source: Source; text: string }[]> {
  const rows = await deps.db.select().from(workspaceParsedFiles).where(inScope(scope))
    .orderBy(asc(workspaceParsedFiles.id));
  const found: { source: Source; text: string }[] = [];
  let tokens = used;
  for (const row of rows) {
    if (tokens >= contextWindow) break;
    const document = await readText(deps, row);
    if (!document) continue;
    tokens += row.tokenCountEstimate;
    const { pageContent, pageBreaks: _breaks, ...metadata } = document;
    found.push({
      text: pageContent,
      source: { ...metadata, text: pageContent.slice(0, PREVIEW_CHARS) + CONTINUED } as Source,
    });
  }
  return found;
}

/**
 * Removes the texts no row names any more: a deleted thread, workspace or user takes its rows with it (foreign
 * keys), not its files. Run at start, before any request.
 */
export async function sweepParsedFiles(deps: Pick<Deps, "db" | "log" | "paths">): Promise<void> {
  const known = new Set(
    (await deps.db.select({ filename: workspaceParsedFiles.filename }).from(workspaceParsedFiles))
      .map((row) => row.filename),
  );
  let removed = 0;
  try {
    for await (const entry of Deno.readDir(deps.paths.directUploads)) {
      if (!entry.isFile || known.has(entry.name)) continue;
      await Deno.remove(join(deps.paths.directUploads, entry.name)).catch(() => {});
      removed++;
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  if (removed > 0) deps.log.info("Removed parsed files no thread uses", { count: removed });
}
