import { Hono } from "hono";
import type { Deps } from "../deps.ts";
import type { AppEnv } from "../http/env.ts";
import { fail } from "../errors.ts";
import { readForm, uploadLimit } from "../http/form.ts";
import { parseJson } from "../http/body.ts";
import { requireWorkspace } from "../workspaces/service.ts";
import { requireWorkspaceRole } from "../workspaces/access.ts";
import { DeleteParsedFilesInput } from "../../shared/api/attachments.ts";
import {
  attachFile,
  detachFiles,
  embedAttached,
  listAttached,
  scopeOf,
  threadOf,
  workspaceContextWindow,
} from "./service.ts";

/**
 * Files attached in the chat (parsed files; docs/api-compat.md, "Calls issue 14 must add"
 * 1-4): parsed and kept for the caller's thread, listed, removed, or embedded into the workspace. Any member of
 * the workspace may attach; each sees and removes only their own files; embedding them is for admins and
 * managers, as embedding any document is.
 */
export function attachmentRoutes(deps: Deps) {
  const limitMb = Math.round(deps.config.maxUploadBytes / 1024 / 1024);
  const limit = uploadLimit(deps.config.maxUploadBytes, `The file is too large: the limit is ${limitMb} MB.`);

  return new Hono<AppEnv>()
    .get("/workspace/:slug/parsed-files", async (c) => {
      // The reference's client reads `files.length` of any answer: a refusal keeps the fields, empty.
      const empty = (message: string) => ({
        success: false,
        error: message,
        files: [],
        contextWindow: null,
        currentContextTokenCount: 0,
      });
      const message = "Workspace does not exist.";
      const workspace = await requireWorkspace(deps, c.var.actor, c.req.param("slug"), empty(message));
      const thread = await threadOf(
        deps,
        c.var.actor,
        workspace,
        c.req.query("threadSlug"),
        {
          ...empty("Workspace thread does not exist."),
          contextWindow: workspaceContextWindow(deps, workspace),
        },
      );
      return c.json(await listAttached(deps, workspace, scopeOf(c.var.actor, workspace, thread)));
    })
    .post("/workspace/:slug/parse", limit, async (c) => {
      const workspace = await requireWorkspace(deps, c.var.actor, c.req.param("slug"));
      const form = await readForm(c);
      const file = form.file;
      if (!(file instanceof File)) {
        fail("invalid_input", 'No file was sent: use a multipart form with the field "file".');
      }
      const thread = await threadOf(deps, c.var.actor, workspace, form.threadSlug);
      const row = await attachFile(deps, scopeOf(c.var.actor, workspace, thread), file);
      return c.json({ success: true, error: null, files: [row] });
    })
    .delete("/workspace/:slug/delete-parsed-files", async (c) => {
      const workspace = await requireWorkspace(deps, c.var.actor, c.req.param("slug"));
      const { fileIds } = await parseJson(c, DeleteParsedFilesInput);
      const removed = await detachFiles(deps, c.var.actor, workspace, fileIds);
      if (removed === 0) {
        fail("not_found", "None of these parsed files is yours in this workspace.");
      }
      return c.json({ success: true, error: null, removed });
    })
    .post(
      "/workspace/:slug/embed-parsed-file/:fileId",
      async (c) => {
        const errorBody = (message: string) => ({ success: false, error: message, document: null });
        const workspace = await requireWorkspaceRole(
          deps,
          c.var.actor,
          c.req.param("slug"),
          "editor",
          errorBody,
        );
        const fileId = c.req.param("fileId");
        if (!/^[1-9]\d{0,15}$/.test(fileId)) {
          fail(
            "invalid_input",
            `"${fileId}" is not a parsed file id.`,
            errorBody(`"${fileId}" is not a parsed file id.`),
          );
        }
        const document = await embedAttached(deps, c.var.actor, workspace, Number(fileId));
        return c.json({ success: true, error: null, document });
      },
    );
}
