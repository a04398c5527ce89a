import { agentAvailable } from "../agents/session.ts";
import { Hono } from "hono";
import { logEvent } from "../events/log.ts";
import type { Deps } from "../deps.ts";
import type { AppEnv } from "../http/env.ts";
import { parseJson } from "../http/body.ts";
import { readForm, uploadLimit } from "../http/form.ts";
import { requirePermission } from "../http/auth_guard.ts";
import {
  CreateWorkspaceInput,
  SuggestedMessagesInput,
  UpdateWorkspaceInput,
} from "../../shared/api/workspaces.ts";
import { writeFileAtomic } from "../storage.ts";
import { withErrorBody } from "../errors.ts";
import {
  MAX_PICTURE_BYTES,
  readStoredPicture,
  removeStoredPicture,
  storeUploadedPicture,
} from "../users/images.ts";
import { workspaceNamespace } from "../providers/vectors/namespace.ts";
import { presentWorkspace } from "./present.ts";
import { requireWorkspaceRole } from "./access.ts";
import { workspaceMemberRoutes } from "./member_routes.ts";
import {
  createWorkspace,
  findWorkspace,
  listWorkspaces,
  requireWorkspace,
  workspaceDetail,
} from "./service.ts";
import {
  checkDeletionAllowed,
  deleteWorkspace,
  resetVectorDatabase,
  setSuggestedMessages,
  setWorkspacePicture,
  suggestedMessages,
  updateWorkspace,
} from "./manage.ts";

/** Workspace calls (docs/api-compat.md#workspace-and-thread-calls). */
export function workspaceRoutes(deps: Deps) {
  const pictures = deps.paths.profilePictures;
  return new Hono<AppEnv>()
    .get("/workspaces", async (c) => {
      const rows = await listWorkspaces(deps, c.var.actor);
      return c.json({ workspaces: rows.map(presentWorkspace) });
    })
    .post(
      "/workspace/new",
      requirePermission("workspace:create", (message) => ({ workspace: null, message })),
      async (c) => {
        const input = await parseJson(c, CreateWorkspaceInput, (message) => ({ workspace: null, message }), {
          bareMessages: true,
        });
        const row = await createWorkspace(deps, c.var.actor, input.name);
        deps.log.info("Workspace created", { slug: row.slug });
        await logEvent(deps, "workspace_created", { workspaceName: row.name }, c.var.actor.userId);
        return c.json({ workspace: presentWorkspace(row), message: null });
      },
    )
    .get("/workspace/:slug", async (c) => {
      const row = await findWorkspace(deps, c.var.actor, c.req.param("slug"));
      // The reference's `{workspace: null}`, with the sentence of every other call on a hidden workspace.
      if (!row) return c.json({ workspace: null, error: "Workspace does not exist." }, 404);
      return c.json({ workspace: await workspaceDetail(deps, row) });
    })
    .post("/workspace/:slug/update", async (c) => {
      const errorBody = (message: string) => ({ workspace: null, message });
      const workspace = await requireWorkspaceRole(
        deps,
        c.var.actor,
        c.req.param("slug"),
        "editor",
        errorBody,
      );
      const input = await parseJson(c, UpdateWorkspaceInput, errorBody, { bareMessages: true });
      const updated = await withErrorBody(
        errorBody,
        () => updateWorkspace(deps, workspace, input, c.var.actor),
      );
      if (!updated) return c.json({ workspace: { id: workspace.id }, message: "No valid fields to update!" });
      return c.json({ workspace: presentWorkspace(updated), message: null });
    })
    .delete("/workspace/:slug", async (c) => {
      const workspace = await requireWorkspaceRole(deps, c.var.actor, c.req.param("slug"), "owner");
      checkDeletionAllowed(deps, c.var.actor, workspace, c.req.query("confirm"));
      await deleteWorkspace(deps, workspace);
      deps.log.info("Workspace deleted", { slug: workspace.slug });
      await logEvent(deps, "workspace_deleted", { workspaceName: workspace.name }, c.var.actor.userId);
      return c.json({ success: true, error: null });
    })
    .delete("/workspace/:slug/reset-vector-db", async (c) => {
      const workspace = await requireWorkspaceRole(deps, c.var.actor, c.req.param("slug"), "editor");
      await resetVectorDatabase(deps, workspace);
      await logEvent(deps, "workspace_vectors_reset", { workspaceName: workspace.name }, c.var.actor.userId);
      return c.json({ success: true, error: null });
    })
    .get("/workspace/:slug/suggested-messages", async (c) => {
      const workspace = await requireWorkspace(deps, c.var.actor, c.req.param("slug"));
      return c.json({ success: true, suggestedMessages: await suggestedMessages(deps, workspace) });
    })
    .post("/workspace/:slug/suggested-messages", async (c) => {
      const workspace = await requireWorkspaceRole(deps, c.var.actor, c.req.param("slug"), "editor");
      const input = await parseJson(c, SuggestedMessagesInput);
      await setSuggestedMessages(deps, workspace, input.messages);
      return c.json({ success: true, message: "Suggested messages saved successfully." });
    })
    .post(
      "/workspace/:slug/upload-pfp",
      uploadLimit(MAX_PICTURE_BYTES, "The picture is too large: the limit is 5 MB."),
      async (c) => {
        const workspace = await requireWorkspaceRole(deps, c.var.actor, c.req.param("slug"), "editor");
        const filename = await storeUploadedPicture(await readForm(c), pictures, writeFileAtomic);
        await setWorkspacePicture(deps, workspace, filename);
        await removeStoredPicture(pictures, workspace.pfpFilename);
        return c.json({ success: true, error: null });
      },
    )
    .get("/workspace/:slug/pfp", async (c) => {
      const workspace = await requireWorkspace(deps, c.var.actor, c.req.param("slug"));
      const picture = await readStoredPicture(pictures, workspace.pfpFilename);
      if (!picture) return c.body(null, 204);
      return c.body(picture.bytes, 200, {
        "Content-Type": picture.type,
        "Cache-Control": "private, no-cache",
      });
    })
    .delete("/workspace/:slug/remove-pfp", async (c) => {
      const workspace = await requireWorkspaceRole(deps, c.var.actor, c.req.param("slug"), "editor");
      await setWorkspacePicture(deps, workspace, null);
      await removeStoredPicture(pictures, workspace.pfpFilename);
      return c.json({ success: true, error: null });
    })
    .get("/system/system-vectors", requirePermission("documents:manage"), async (c) => {
      const slug = c.req.query("slug");
      const embedder = deps.providers.embedder();
      if (slug) {
        const workspace = await requireWorkspace(deps, c.var.actor, slug);
        return c.json({ vectorCount: await deps.vectors.count(workspaceNamespace(workspace.id, embedder)) });
      }
      let total = 0;
      for (const row of await listWorkspaces(deps, c.var.actor)) {
        total += await deps.vectors.count(workspaceNamespace(row.id, embedder));
      }
      return c.json({ vectorCount: total });
    })
    .get("/workspace/:slug/is-agent-command-available", async (c) => {
      const workspace = await requireWorkspace(deps, c.var.actor, c.req.param("slug"));
      // Offered only when an agent can run here: a model for it can be built.
      return c.json({ showAgentCommand: agentAvailable(deps, workspace) });
    })
    .route("/", workspaceMemberRoutes(deps));
}
