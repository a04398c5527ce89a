import { Hono } from "hono";
import type { Deps } from "../deps.ts";
import type { AppEnv } from "../http/env.ts";
import { parseJson } from "../http/body.ts";
import { requirePermission } from "../http/auth_guard.ts";
import { AppError, withErrorBody } from "../errors.ts";
import { requireWorkspaceRole } from "../workspaces/access.ts";
import {
  DocpathsInput,
  FolderInput,
  MoveFilesInput,
  RemoveAndUnembedInput,
  RemoveDocumentInput,
  RemoveDocumentsInput,
  UpdatePinInput,
  UpdateWatchInput,
} from "../../shared/api/library.ts";
import {
  createFolder,
  documentsByDocpaths,
  listFolder,
  listFolders,
  moveAnswer,
  moveFiles,
  pageOptions,
  purgeDocument,
  purgeDocuments,
  removeFolder,
  searchDocuments,
  setPinned,
  setWatched,
} from "./library.ts";
import { logDocumentsRemoved } from "./events.ts";

const messageBody = (message: string) => ({ success: false, message });

/**
 * The document store calls of the document manager (docs/api-compat.md#system-and-document-calls): listing
 * folders and pages of documents, removing and moving them, and pinning or watching them in a workspace.
 * Admins and managers only, but for a workspace's pins and watches: its editors.
 */
export function libraryRoutes(deps: Deps) {
  const manage = requirePermission("documents:manage");
  return new Hono<AppEnv>()
    // The chat screen asks this of every user: parsing runs inside the server, so it is always online.
    .get("/system/document-processing-status", (c) => c.json({ online: true }))
    .get("/system/local-files", manage, async (c) => {
      const folder = c.req.query("folder");
      if (folder === undefined) {
        return c.json({ localFiles: { name: "documents", type: "folder", items: await listFolders(deps) } });
      }
      try {
        return c.json(await listFolder(deps, folder, pageOptions((name) => c.req.query(name))));
      } catch (error) {
        // The reference answers a bad page with its shape plus `code`, the HTTP status.
        if (error instanceof AppError && !error.options.body) {
          const body = { folder, documents: [], totalCount: 0, hasMore: false, code: error.status };
          throw new AppError(error.code, error.message, { body: { ...body, error: error.message } });
        }
        throw error;
      }
    })
    .get("/system/local-files/search", manage, async (c) => {
      return c.json(await searchDocuments(deps, pageOptions((name) => c.req.query(name))));
    })
    .post("/system/local-files/by-docpaths", manage, async (c) => {
      const input = await parseJson(c, DocpathsInput);
      return c.json({ documents: await documentsByDocpaths(deps, input.docpaths) });
    })
    .delete("/system/remove-document", manage, async (c) => {
      const input = await parseJson(c, RemoveDocumentInput);
      await purgeDocument(deps, input.name);
      await logDocumentsRemoved(deps, { count: 1, documents: [input.name] }, c.var.actor.userId);
      return c.json({ success: true, error: null });
    })
    .delete("/system/remove-documents", manage, async (c) => {
      const input = await parseJson(c, RemoveDocumentsInput);
      const removed = await purgeDocuments(deps, input.names);
      await logDocumentsRemoved(deps, { count: removed, documents: input.names }, c.var.actor.userId);
      return c.json({ success: true, error: null, removed });
    })
    .delete("/system/remove-folder", manage, async (c) => {
      const input = await parseJson(c, FolderInput);
      const removed = await removeFolder(deps, input.name);
      await logDocumentsRemoved(
        deps,
        { count: removed, documents: [], folder: input.name },
        c.var.actor.userId,
      );
      return c.json({ success: true, error: null, removed });
    })
    .post("/document/create-folder", requirePermission("documents:manage", messageBody), async (c) => {
      const input = await parseJson(c, FolderInput, messageBody);
      const folder = await withErrorBody(messageBody, () => createFolder(deps, input.name));
      return c.json({ success: true, message: `Folder "${folder}" created.`, folder });
    })
    .post("/document/move-files", requirePermission("documents:manage", messageBody), async (c) => {
      const input = await parseJson(c, MoveFilesInput, messageBody);
      const failures = await withErrorBody(messageBody, () => moveFiles(deps, input.files));
      return c.json(moveAnswer(failures, input.files.length));
    })
    .delete("/workspace/:slug/remove-and-unembed", manage, async (c) => {
      // Removes the document from the library, for every workspace: an instance-wide call (admins, managers).
      await requireWorkspaceRole(deps, c.var.actor, c.req.param("slug"), "editor");
      const input = await parseJson(c, RemoveAndUnembedInput);
      const removed = await purgeDocuments(deps, [input.documentLocation]);
      await logDocumentsRemoved(
        deps,
        { count: removed, documents: [input.documentLocation] },
        c.var.actor.userId,
      );
      return c.json({ success: true, error: null });
    })
    .post("/workspace/:slug/update-pin", async (c) => {
      const workspace = await requireWorkspaceRole(deps, c.var.actor, c.req.param("slug"), "editor");
      const input = await parseJson(c, UpdatePinInput);
      await setPinned(deps, workspace, input.docPath, input.pinStatus);
      return c.json({ success: true, error: null });
    })
    .post("/workspace/:slug/update-watch-status", async (c) => {
      const workspace = await requireWorkspaceRole(deps, c.var.actor, c.req.param("slug"), "editor");
      const input = await parseJson(c, UpdateWatchInput);
      await setWatched(deps, workspace, input.docPath, input.watchStatus);
      return c.json({ success: true, error: null });
    });
}
