import type { Context } from "hono";
import { asc, eq, or } from "drizzle-orm";
import * as z from "zod";
import { documents } from "../../db/schema.ts";
import type { Deps } from "../deps.ts";
import type { AppEnv } from "../http/env.ts";
import { parseJson } from "../http/body.ts";
import { readForm } from "../http/form.ts";
import { AppError, fail, messageOf, withErrorBody } from "../errors.ts";
import { logEvent } from "../events/log.ts";
import type { WorkspaceRow } from "../workspaces/present.ts";
import { findWorkspace } from "../workspaces/service.ts";
import { addDocuments, type PreparedDocument } from "../documents/ingest.ts";
import { fetchLinkDocument, saveLinkDocument } from "../documents/links.ts";
import { activeEmbedder, receiveAndSaveToEmbed } from "../documents/upload.ts";
import { saveRawText } from "../documents/raw_text.ts";
import {
  createFolder,
  documentsByDocpaths,
  listFolder,
  listFolders,
  moveAnswer,
  moveFiles,
  pageOptions,
  purgeDocuments,
  removeFolder,
} from "../documents/library.ts";
import { ACCEPTED_DOCUMENT_TYPES, type StoredDocument } from "../../shared/api/documents.ts";
import { FolderInput, MoveFilesInput } from "../../shared/api/library.ts";
import {
  AddToWorkspaces,
  DocumentTreeAnswer,
  DocumentV1Answer,
  FolderV1Answer,
  METADATA_SCHEMA,
  MetadataSchemaAnswer,
  RawTextInput,
  SuccessMessage,
  UploadForm,
  UploadLinkV1Input,
  UploadV1Answer,
  workspaceSlugsOf,
} from "../../shared/api/v1_documents.ts";
import { forbidden, needs, requireAccess } from "./access.ts";
import { requireWorkspaceAccess, type V1Router } from "./router.ts";

const TAG = "Documents";
/** Uploads store a document in the library and may embed it into the workspaces `addToWorkspaces` names. */
const UPLOAD = needs.workspace("documents", "body");
const UPLOAD_KEYS = "Full-access keys may upload anywhere. A workspace-limited key with the `documents` " +
  "permission may upload only when `addToWorkspaces` names one or more workspaces, all of them in its scope; " +
  "without `addToWorkspaces` it is refused (403), since the document would land in the shared library only.";

const messageBody = (message: string) => ({ success: false, message });

type V1Context = Context<AppEnv>;

/**
 * A read-only key never uploads: refused before the body is read. (Workspace-limited keys are checked once
 * the body has named the workspaces; full keys pass.)
 */
async function refuseReadOnly(deps: Deps, c: V1Context): Promise<void> {
  if (c.var.apiKey?.scope !== "admin" && c.var.apiKey?.scope !== "workspaces") {
    await requireAccess(deps, c.var.apiKey, UPLOAD);
  }
}

/**
 * The workspaces `addToWorkspaces` names, checked before anything is stored: a workspace-limited key must name
 * at least one and have the `documents` permission on each; every one must exist (404).
 */
async function targetWorkspaces(deps: Deps, c: V1Context, value: unknown): Promise<WorkspaceRow[]> {
  const parsed = AddToWorkspaces.safeParse(value);
  if (!parsed.success) fail("invalid_input", parsed.error.issues[0].message);
  const slugs = workspaceSlugsOf(parsed.data);
  const grant = c.var.apiKey;
  if (grant?.scope === "workspaces") {
    if (slugs.length === 0) {
      throw forbidden(
        "This API key is limited to its workspaces, so it can only add documents that go into them: name them in addToWorkspaces.",
      );
    }
    for (const slug of slugs) await requireWorkspaceAccess(deps, grant, slug, "documents");
  }
  const rows: WorkspaceRow[] = [];
  for (const slug of slugs) {
    rows.push(
      await findWorkspace(deps, c.var.actor, slug) ??
        fail("not_found", `The workspace "${slug}" does not exist, so nothing was stored.`),
    );
  }
  return rows;
}

/**
 * Embeds a new document into each workspace. If any fails, the document is removed again (from every
 * workspace and the library), so a failed call leaves nothing behind and can simply be repeated.
 */
async function embedInto(
  deps: Deps,
  targets: WorkspaceRow[],
  document: StoredDocument,
  prepared?: PreparedDocument,
): Promise<void> {
  for (const workspace of targets) {
    let failure: string | null;
    try {
      const outcome = await addDocuments(deps, workspace, [document.location], {
        prepared: prepared && new Map([[document.location, prepared]]),
      });
      failure = outcome.failures[0] ?? null;
    } catch (error) {
      failure = messageOf(error);
    }
    if (failure !== null) {
      await purgeDocuments(deps, [document.location]);
      const reason = failure.replace(`${document.location}: `, "").replace(/\.$/, "");
      fail(
        "provider_failed",
        `The document could not be embedded into the workspace "${workspace.slug}" (${reason}), so nothing was stored.`,
      );
    }
  }
}

/** Stores a new document (`store`), embeds it where asked and answers the reference's upload shape. */
async function finishUpload(
  deps: Deps,
  c: V1Context,
  targets: WorkspaceRow[],
  store: () => Promise<StoredDocument | { stored: StoredDocument; prepared?: PreparedDocument }>,
  event: "api_document_uploaded" | "api_link_uploaded" | "api_raw_document_uploaded",
  details: Record<string, unknown>,
) {
  const received = await store();
  const { stored: document, prepared } = "stored" in received
    ? received
    : { stored: received, prepared: undefined };
  try {
    await embedInto(deps, targets, document, prepared);
  } finally {
    prepared?.release();
  }
  await logEvent(deps, event, { ...details, workspaces: targets.map((row) => row.slug) });
  return c.json({ success: true, error: null, documents: [document] });
}

async function uploadFile(deps: Deps, c: V1Context, folder?: string) {
  await refuseReadOnly(deps, c);
  const form = await readForm(c);
  const targets = await targetWorkspaces(deps, c, form.addToWorkspaces);
  const fields = folder === undefined ? form : { ...form, folderName: folder };
  const name = form.file instanceof File ? form.file.name : "";
  return finishUpload(
    deps,
    c,
    targets,
    // The worker makes the chunks only when they will be embedded.
    () => receiveAndSaveToEmbed(deps, c.req.raw, fields, targets.length > 0 ? activeEmbedder(deps) : null),
    "api_document_uploaded",
    {
      documentName: name,
      ...(folder === undefined ? {} : { folder }),
    },
  );
}

/** The document of `GET /v1/document/:docName`: a stored file's name, with or without `.json`. */
async function findByName(deps: Deps, name: string) {
  const rows = await deps.db.select({ location: documents.location }).from(documents).where(
    or(eq(documents.filename, name), eq(documents.filename, `${name}.json`)),
  ).orderBy(asc(documents.folder), asc(documents.id)).limit(1);
  if (rows.length === 0) return null;
  const [found] = await documentsByDocpaths(deps, [rows[0].location]);
  if (!found) return null;
  const { docpath: _docpath, ...document } = found as typeof found & { docpath?: string };
  return document;
}

/** The developer API's document calls (api-contract.md §11; docs: /api/docs). */
export function documentRoutesV1(router: V1Router, deps: Deps): void {
  router.post("/document/upload", UPLOAD, {
    summary: "Upload a file",
    description:
      "Parses the file as the UI's upload does (same types, size limit and parsers) and stores it " +
      "in `custom-documents`; `addToWorkspaces` embeds it into those workspaces. Nothing is stored when the " +
      `file cannot be read or a workspace cannot take it.\n\n${UPLOAD_KEYS}`,
    tag: TAG,
    form: UploadForm,
    response: UploadV1Answer,
  }, (c) => uploadFile(deps, c));

  router.post("/document/upload/:folderName", UPLOAD, {
    summary: "Upload a file into a folder",
    description:
      `As \`POST /v1/document/upload\`, into the folder named in the path (made if new).\n\n${UPLOAD_KEYS}`,
    tag: TAG,
    form: UploadForm,
    response: UploadV1Answer,
  }, (c) => uploadFile(deps, c, c.req.param("folderName")));

  router.post("/document/upload-link", UPLOAD, {
    summary: "Store a web page or file from a link",
    description: "Fetches the link through the address guard (private, loopback and metadata addresses are " +
      "refused) within the upload limit, with `scraperHeaders` added to the request, and stores it as the " +
      `UI's upload-link does; \`metadata\` replaces the title, author, description and source.\n\n${UPLOAD_KEYS}`,
    tag: TAG,
    body: UploadLinkV1Input,
    response: UploadV1Answer,
  }, async (c) => {
    await refuseReadOnly(deps, c);
    const input = await parseJson(c, UploadLinkV1Input);
    const targets = await targetWorkspaces(deps, c, input.addToWorkspaces);
    return finishUpload(
      deps,
      c,
      targets,
      async () => {
        const fetched = await fetchLinkDocument(deps, input.link, {
          headers: input.scraperHeaders ?? {},
          media: deps,
        });
        const { chunkSource: _kept, ...metadata } = input.metadata ?? {};
        return saveLinkDocument(deps, fetched, metadata);
      },
      "api_link_uploaded",
      { link: input.link },
    );
  });

  router.post("/document/raw-text", UPLOAD, {
    summary: "Store text as a document",
    description: "Stores `textContent` as a document named after `metadata.title` (required); the other " +
      "metadata keys are those of `GET /v1/document/metadata-schema`. The text is bounded by the upload " +
      `limit.\n\n${UPLOAD_KEYS}`,
    tag: TAG,
    body: RawTextInput,
    response: UploadV1Answer,
  }, async (c) => {
    await refuseReadOnly(deps, c);
    const input = await parseJson(c, RawTextInput, undefined, { bareMessages: true });
    const targets = await targetWorkspaces(deps, c, input.addToWorkspaces);
    return finishUpload(
      deps,
      c,
      targets,
      () => saveRawText(deps, input.textContent, input.metadata),
      "api_raw_document_uploaded",
      { title: input.metadata.title },
    );
  });

  router.get("/documents", needs.read, {
    summary: "List every document",
    description: "Every folder with every document in it (`?folder=` gives one folder's page instead, as " +
      "`GET /v1/documents/folder/:folderName`).",
    tag: TAG,
    query: {
      folder: "Only this folder, paged.",
      offset: "With folder: documents to skip (default 0).",
      limit: 'With folder: documents to return, 1–1000 or "all" (default 100).',
    },
    response: DocumentTreeAnswer,
  }, async (c) => {
    const folder = c.req.query("folder");
    if (folder) return await folderPage(c, folder, String(100));
    const items = [];
    for (const shell of await listFolders(deps)) {
      const page = await listFolder(deps, shell.name, { offset: 0, limit: null, query: "" });
      items.push({ ...shell, items: page.documents });
    }
    return c.json({ localFiles: { name: "documents", type: "folder", items } });
  });

  /** One folder's documents, or its refusal in the reference's shape with the status it names. */
  async function folderPage(c: V1Context, folder: string, defaultLimit: string) {
    try {
      const page = await listFolder(deps, folder, pageOptions((name) => c.req.query(name), defaultLimit));
      return c.json({ ...page, error: null });
    } catch (error) {
      if (error instanceof AppError && !error.options.body) {
        const body = { folder, documents: [], totalCount: 0, hasMore: false, error: error.message };
        throw new AppError(error.code, error.message, { body });
      }
      throw error;
    }
  }

  router.get("/documents/folder/:folderName", needs.read, {
    summary: "List a folder's documents",
    description: "Every document of the folder, newest first, unless `offset`/`limit` ask for a page. An " +
      "unknown folder is a 404 with `error`.",
    tag: TAG,
    query: {
      offset: "Documents to skip (default 0).",
      limit: 'Documents to return, 1–1000 or "all" (default).',
    },
    response: FolderV1Answer,
  }, (c) => folderPage(c, c.req.param("folderName"), "all"));

  router.get("/document/accepted-file-types", needs.any, {
    summary: "The file types uploads accept",
    tag: TAG,
    response: z.object({ types: z.record(z.string(), z.array(z.string())) }),
  }, (c) => c.json({ types: ACCEPTED_DOCUMENT_TYPES }));

  router.get("/document/metadata-schema", needs.any, {
    summary: "The metadata keys raw text takes",
    tag: TAG,
    response: MetadataSchemaAnswer,
  }, (c) => c.json({ schema: METADATA_SCHEMA }));

  // After the two calls above, whose paths it would otherwise match.
  router.get("/document/:docName", needs.read, {
    summary: "Find a document by its file name",
    description: "The stored document named `docName` (`name` in the listings, with or without `.json`), " +
      "without its text. 404 when none has that name.",
    tag: TAG,
    response: DocumentV1Answer,
  }, async (c) => {
    const name = c.req.param("docName");
    const document = await findByName(deps, name);
    if (!document) fail("not_found", `Cannot find a document named "${name}".`);
    return c.json({ document });
  });

  router.post("/document/create-folder", needs.write, {
    summary: "Create a folder",
    description: "Spaces in the name become `-`; a name in use is a 409.",
    tag: TAG,
    body: FolderInput,
    response: SuccessMessage.extend({ folder: z.string() }),
  }, async (c) => {
    const input = await parseJson(c, FolderInput, messageBody);
    const folder = await withErrorBody(messageBody, () => createFolder(deps, input.name));
    return c.json({ success: true, message: null, folder });
  });

  router.delete("/document/remove-folder", needs.write, {
    summary: "Remove a folder and its documents",
    description: "Every document in it is removed from every workspace first. `custom-documents` stays.",
    tag: TAG,
    body: FolderInput,
    response: SuccessMessage,
  }, async (c) => {
    const input = await parseJson(c, FolderInput, messageBody);
    await withErrorBody(messageBody, () => removeFolder(deps, input.name));
    return c.json({ success: true, message: "Folder removed successfully" });
  });

  router.post("/document/move-files", needs.write, {
    summary: "Move documents between folders",
    description: "Embedded documents move too (their workspaces follow). When some cannot be moved the " +
      "answer is `success: false` with a message naming each.",
    tag: TAG,
    body: MoveFilesInput,
    response: SuccessMessage.extend({ failures: z.array(z.string()).optional() }),
  }, async (c) => {
    const input = await parseJson(c, MoveFilesInput, messageBody);
    const failures = await withErrorBody(messageBody, () => moveFiles(deps, input.files));
    return c.json(moveAnswer(failures, input.files.length));
  });
}
