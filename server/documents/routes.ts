import { Hono } from "hono";
import type { Deps } from "../deps.ts";
import type { AppEnv } from "../http/env.ts";
import { readForm, uploadLimit } from "../http/form.ts";
import { parseJson } from "../http/body.ts";
import { requirePermission } from "../http/auth_guard.ts";
import { requireWorkspace, workspaceDetail } from "../workspaces/service.ts";
import { UpdateEmbeddingsInput } from "../../shared/api/workspaces.ts";
import { UploadLinkInput } from "../../shared/api/documents.ts";
import { addDocuments } from "./ingest.ts";
import { logWorkspaceDocuments } from "./events.ts";
import { fetchLinkDocument, saveLinkDocument } from "./links.ts";
import { receiveUpload } from "./upload.ts";
import { updateEmbeddings } from "./update_embeddings.ts";
import { logEvent } from "../events/log.ts";
import type { StoredDocument } from "../../shared/api/documents.ts";
import { DEFAULT_FOLDER } from "./store.ts";

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
      const document = await saveLinkDocument(deps, await fetchLinkDocument(deps, link, { media: deps }));
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
      const message = await updateEmbeddings(deps, workspace, input, c.var.actor.userId);
      return c.json({ workspace: await workspaceDetail(deps, workspace), message });
    });
}
