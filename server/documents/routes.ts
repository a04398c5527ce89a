import { Hono } from "hono";
import { join } from "node:path";
import type { Deps } from "../deps.ts";
import type { AppEnv } from "../http/env.ts";
import { fail } from "../errors.ts";
import { readForm, uploadLimit } from "../http/form.ts";
import { parseJson } from "../http/body.ts";
import { requirePermission } from "../http/auth_guard.ts";
import { writeFileAtomic } from "../storage.ts";
import { requireWorkspace, workspaceDetail } from "../workspaces/service.ts";
import { UpdateEmbeddingsInput } from "../../shared/api/workspaces.ts";
import { type StoredDocument, UploadLinkInput, UploadMetadata } from "../../shared/api/documents.ts";
import { addDocuments, removeDocuments } from "./ingest.ts";
import { extensionOf } from "./text.ts";
import { documentFileStem } from "../workspaces/slug.ts";
import { DEFAULT_FOLDER } from "./store.ts";
import { parseFile, parseLimits } from "./parse_worker.ts";
import { type ParsedDocument, ParseFailure } from "./parsers/types.ts";
import { fetchLinkDocument, saveLinkDocument } from "./links.ts";
import { logWorkspaceDocuments } from "./events.ts";
import { logEvent } from "../events/log.ts";

/** The optional `metadata` form field: a JSON object whose fields replace the per-type defaults. */
function uploadMetadata(value: unknown): UploadMetadata {
  if (value === undefined || value === null || value === "") return {};
  let object: unknown;
  try {
    object = typeof value === "string" ? JSON.parse(value) : null;
  } catch (error) {
    fail("invalid_input", `metadata is not valid JSON: ${(error as Error).message}`);
  }
  const parsed = UploadMetadata.safeParse(object);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    fail(
      "invalid_input",
      `metadata${issue?.path.length ? `.${issue.path.join(".")}` : ""}: ${issue?.message}`,
    );
  }
  return parsed.data;
}

/** The folder an upload goes to: `custom-documents` unless the form names one (one plain name, no path). */
function uploadFolder(value: unknown): string {
  if (value === undefined || value === null || value === "") return DEFAULT_FOLDER;
  const name = String(value).trim();
  if (!/^[\p{L}\p{N}_][\p{L}\p{N}._-]{0,200}$/u.test(name)) {
    fail("invalid_input", `"${name}" is not a folder name: use letters, digits, ".", "_" and "-".`);
  }
  return name;
}

/** Parses a file in the parse worker; a file that cannot be read is a 400 saying why. */
export async function parseUpload(deps: Deps, name: string, bytes: Uint8Array): Promise<ParsedDocument> {
  try {
    return await parseFile({ name, bytes }, parseLimits(deps.config), deps.log);
  } catch (error) {
    if (error instanceof ParseFailure) fail("invalid_input", error.message);
    throw error;
  }
}

async function receiveUpload(
  deps: Deps,
  request: Request,
  form: Record<string, unknown>,
): Promise<StoredDocument> {
  const file = form.file;
  if (!(file instanceof File)) {
    fail("invalid_input", 'No file was sent: use a multipart form with the field "file".');
  }
  const metadata = uploadMetadata(form.metadata);
  const folder = uploadFolder(form.folderName);
  const title = file.name.split(/[\\/]/).pop() || "document";
  if (file.size > deps.config.maxUploadBytes) {
    fail(
      "too_large",
      `The file is too large: the limit is ${Math.round(deps.config.maxUploadBytes / 1024 / 1024)} MB.`,
    );
  }
  const bytes = new Uint8Array(await file.arrayBuffer());
  const started = performance.now();
  const parsed = await parseUpload(deps, title, bytes);
  // The original is kept under a generated name; the user's file name never becomes a path.
  const extension = extensionOf(title);
  const uploadName = `${crypto.randomUUID()}${/^\.[a-z0-9]{1,10}$/.test(extension) ? extension : ""}`;
  const uploadPath = join(deps.paths.uploads, uploadName);
  await writeFileAtomic(uploadPath, bytes);
  deps.log.debug("Upload parsed", {
    name: title,
    bytes: bytes.length,
    ms: Math.round(performance.now() - started),
    path: new URL(request.url).pathname,
  });
  try {
    return await deps.documents.save({
      fileStem: title,
      title: metadata.title ?? title,
      url: `file://${documentFileStem(title)}`,
      docAuthor: metadata.docAuthor ?? parsed.docAuthor,
      description: metadata.description ?? parsed.description,
      docSource: metadata.docSource ?? parsed.docSource,
      chunkSource: metadata.chunkSource ?? "",
      text: parsed.text,
      pageBreaks: parsed.pageBreaks,
      folder,
      uploadName,
    });
  } catch (error) {
    await Deno.remove(uploadPath).catch(() => {});
    throw error;
  }
}

/** `document_uploaded`, as the reference records an upload: the file's name, and its folder when not the default. */
function logUpload(deps: Deps, document: StoredDocument, userId: number | null) {
  const folder = document.location.split("/")[0];
  return logEvent(deps, "document_uploaded", {
    documentName: document.title,
    ...(folder && folder !== DEFAULT_FOLDER ? { folder } : {}),
  }, userId);
}

/** Document calls under `/api/workspace/:slug`. */
export function documentRoutes(deps: Deps) {
  const limit = uploadLimit(
    deps.config.maxUploadBytes,
    `The file is too large: the limit is ${Math.round(deps.config.maxUploadBytes / 1024 / 1024)} MB.`,
  );

  return new Hono<AppEnv>()
    .post("/workspace/:slug/upload", requirePermission("documents:manage"), limit, async (c) => {
      await requireWorkspace(deps, c.var.actor, c.req.param("slug"));
      const document = await receiveUpload(deps, c.req.raw, await readForm(c));
      await logUpload(deps, document, c.var.actor.userId);
      return c.json({ success: true, error: null, documents: [document] });
    })
    .post("/workspace/:slug/upload-link", requirePermission("documents:manage"), async (c) => {
      await requireWorkspace(deps, c.var.actor, c.req.param("slug"));
      const { link } = await parseJson(c, UploadLinkInput, undefined, { bareMessages: true });
      const document = await saveLinkDocument(deps, await fetchLinkDocument(deps, link));
      await logEvent(deps, "link_uploaded", { link }, c.var.actor.userId);
      return c.json({ success: true, error: null, documents: [document] });
    })
    .post(
      "/workspace/:slug/upload-and-embed",
      requirePermission("documents:manage"),
      limit,
      async (c) => {
        const workspace = await requireWorkspace(deps, c.var.actor, c.req.param("slug"));
        const document = await receiveUpload(deps, c.req.raw, await readForm(c));
        await logUpload(deps, document, c.var.actor.userId);
        const outcome = await addDocuments(deps, workspace, [document.location]);
        await logWorkspaceDocuments(deps, workspace, { outcome }, c.var.actor.userId);
        if (outcome.failures.length > 0) {
          return c.json({ success: false, error: outcome.failures.join("\n"), document: null }, 502);
        }
        return c.json({
          success: true,
          error: null,
          document: { id: document.id, location: document.location },
        });
      },
    )
    .post("/workspace/:slug/update-embeddings", requirePermission("documents:manage"), async (c) => {
      const errorBody = (message: string) => ({ workspace: null, message });
      const workspace = await requireWorkspace(
        deps,
        c.var.actor,
        c.req.param("slug"),
        errorBody("Workspace does not exist."),
      );
      const input = await parseJson(c, UpdateEmbeddingsInput, errorBody);
      const removed = await removeDocuments(deps, workspace, input.deletes);
      const outcome = await addDocuments(deps, workspace, input.adds);
      await logWorkspaceDocuments(deps, workspace, { removed, outcome }, c.var.actor.userId);
      const message = outcome.failures.length > 0
        ? `${outcome.failures.length} documents failed to add.\n\n${outcome.failures.join("\n\n")}`
        : null;
      return c.json({ workspace: await workspaceDetail(deps, workspace), message });
    });
}
