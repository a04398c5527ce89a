import { Hono } from "hono";
import type { Deps } from "../deps.ts";
import type { AppEnv } from "../http/env.ts";
import { readForm, uploadLimit } from "../http/form.ts";
import { parseJson } from "../http/body.ts";
import { workspaceDetail } from "../workspaces/service.ts";
import { requireReadableDocuments, requireWorkspaceRole } from "../workspaces/access.ts";
import { UpdateEmbeddingsInput } from "../../shared/api/workspaces.ts";
import { UploadLinkInput } from "../../shared/api/documents.ts";
import { addDocuments, type EmbedOutcome, expectIngest } from "./ingest.ts";
import { workspaceDocumentsEvents } from "./events.ts";
import { fetchLinkDocument, saveLinkDocument } from "./links.ts";
import { activeEmbedder, receiveUpload, receiveUploadToEmbed } from "./upload.ts";
import { updateEmbeddings } from "./update_embeddings.ts";
import { eventsInsert, logEvent, logEvents, type LoggedEvent } from "../events/log.ts";
import type { CommitRiders } from "./pending_vectors.ts";
import type { StoredDocument } from "../../shared/api/documents.ts";
import { DEFAULT_FOLDER } from "./store.ts";

/** `document_uploaded`, as the reference records an upload: the file's name, and its folder when not the default. */
function uploadEvent(document: StoredDocument, userId: number | null): LoggedEvent {
  const folder = document.location.split("/")[0];
  return {
    event: "document_uploaded",
    metadata: {
      documentName: document.title,
      ...(folder && folder !== DEFAULT_FOLDER ? { folder } : {}),
    },
    userId,
  };
}

/** Document calls under `/api/workspace/:slug`. */
export function documentRoutes(deps: Deps) {
  const limit = uploadLimit(
    deps.config.maxUploadBytes,
    `The file is too large: the limit is ${Math.round(deps.config.maxUploadBytes / 1024 / 1024)} MB.`,
  );

  return new Hono<AppEnv>()
    .post("/workspace/:slug/upload", limit, async (c) => {
      await requireWorkspaceRole(deps, c.var.actor, c.req.param("slug"), "editor");
      const document = await receiveUpload(deps, c.req.raw, await readForm(c, { files: "bytes" }));
      await logEvents(deps, [uploadEvent(document, c.var.actor.userId)]);
      return c.json({ success: true, error: null, documents: [document] });
    })
    .post("/workspace/:slug/upload-link", async (c) => {
      await requireWorkspaceRole(deps, c.var.actor, c.req.param("slug"), "editor");
      const { link } = await parseJson(c, UploadLinkInput, undefined, { bareMessages: true });
      const document = await saveLinkDocument(deps, await fetchLinkDocument(deps, link, { media: deps }));
      await logEvent(deps, "link_uploaded", { link }, c.var.actor.userId);
      return c.json({ success: true, error: null, documents: [document] });
    })
    .post(
      "/workspace/:slug/upload-and-embed",
      limit,
      async (c) => {
        const workspace = await requireWorkspaceRole(deps, c.var.actor, c.req.param("slug"), "editor");
        const form = await readForm(c, { files: "bytes" });
        // Concurrent uploads' vectors are committed together: the store waits a moment for this one's (ingest.ts).
        const written = expectIngest(deps, workspace);
        try {
          const received = await receiveUploadToEmbed(deps, c.req.raw, form, activeEmbedder(deps));
          const { save, prepared } = received;
          const document = save.stored;
          const userId = c.var.actor.userId;
          const uploaded = uploadEvent(document, userId);
          // The library row and the events ride with the embedding's last commit (two commits in all, the first
          // only the vectors' record, which runs while the document's file is written); what the embedding did not
          // write is written after it (pending_vectors.ts's CommitRiders).
          const riders: CommitRiders = {
            before: [],
            after: [
              save.row,
              eventsInsert(deps, [
                uploaded,
                ...workspaceDocumentsEvents(workspace, { outcome: { added: 1, failures: [] } }, userId),
              ]),
            ],
            ready: save.written,
            written: { before: false, after: false },
          };
          let outcome: EmbedOutcome | undefined;
          let failure: { error: unknown } | null = null;
          try {
            outcome = await addDocuments(deps, workspace, [document.location], {
              prepared: prepared && new Map([[document.location, prepared]]),
              riders: new Map([[document.location, riders]]),
              documents: new Map([[document.location, save.document]]),
              fresh: true,
              written,
            });
          } catch (error) {
            failure = { error };
          }
          prepared?.release();
          if (!riders.written.after) {
            try {
              await deps.documents.commitPrepared(save);
            } catch (error) {
              await received.discard();
              throw error;
            }
          }
          // The upload and what became of its embedding are one write (one commit instead of two).
          if (!riders.written.after) {
            await logEvents(deps, [
              uploaded,
              ...(outcome ? workspaceDocumentsEvents(workspace, { outcome }, userId) : []),
            ]);
          }
          if (failure || !outcome) throw failure?.error;
          if (outcome.failures.length > 0) {
            return c.json({ success: false, error: outcome.failures.join("\n"), document: null }, 502);
          }
          return c.json({
            success: true,
            error: null,
            document: { id: document.id, location: document.location },
          });
        } finally {
          written();
        }
      },
    )
    .post("/workspace/:slug/update-embeddings", async (c) => {
      const errorBody = (message: string) => ({ workspace: null, message });
      const workspace = await requireWorkspaceRole(
        deps,
        c.var.actor,
        c.req.param("slug"),
        "editor",
        errorBody,
      );
      const input = await parseJson(c, UpdateEmbeddingsInput, errorBody);
      await requireReadableDocuments(deps, c.var.actor, input.adds ?? [], errorBody);
      const message = await updateEmbeddings(deps, workspace, input, c.var.actor.userId);
      return c.json({ workspace: await workspaceDetail(deps, workspace), message });
    });
}
