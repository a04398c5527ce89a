import type { Context } from "hono";
import { logEvent } from "../events/log.ts";
import { updateEmbeddings } from "../documents/update_embeddings.ts";
import * as z from "zod";
import type { Deps } from "../deps.ts";
import type { AppEnv } from "../http/env.ts";
import { parseJson } from "../http/body.ts";
import { AppError, withErrorBody } from "../errors.ts";
import { History } from "../../shared/api/chat.ts";
import {
  UpdateEmbeddingsAnswer,
  UpdateEmbeddingsInput,
  UpdateWorkspaceInput,
} from "../../shared/api/workspaces.ts";
import {
  V1ChatsQuery,
  V1CreateWorkspaceInput,
  V1UpdatePinAnswer,
  V1UpdatePinInput,
  V1VectorSearchAnswer,
  V1VectorSearchInput,
  V1WorkspaceAnswer,
  V1WorkspaceGet,
  V1WorkspaceList,
} from "../../shared/api/v1_workspaces.ts";
import {
  createWorkspace,
  findWorkspace,
  listWorkspaces,
  workspaceDetail,
  workspaceDocumentsOf,
} from "../workspaces/service.ts";
import { checkDeletionAllowed, deleteWorkspace, updateWorkspace } from "../workspaces/manage.ts";
import { presentWorkspace, presentWorkspaceDocument, type WorkspaceRow } from "../workspaces/present.ts";
import { setPinned } from "../documents/library.ts";
import { needs, visibleWorkspaceIds } from "./access.ts";
import type { V1Router } from "./router.ts";
import { threadsOf, vectorSearch, workspaceChatHistory } from "./workspace_service.ts";

type ErrorBody = (message: string) => Record<string, unknown>;
const errorOnly: ErrorBody = (message) => ({ error: message });
const workspaceOrMessage: ErrorBody = (message) => ({ workspace: null, message });

/** The reference's words for a slug that names no workspace (its chat calls say so). */
export function unknownWorkspace(slug: string): string {
  return `Workspace ${slug} is not a valid workspace.`;
}

/**
 * The workspace of the route's `:slug`, or a 400 in the call's answer shape, as the reference answers an
 * unknown slug (a workspace-limited key never gets here: the router refused it already).
 */
export async function workspaceOfRoute(
  deps: Deps,
  c: Context<AppEnv>,
  errorBody: ErrorBody = errorOnly,
): Promise<WorkspaceRow> {
  const slug = c.req.param("slug") ?? "";
  const row = await findWorkspace(deps, c.var.actor, slug);
  if (row) return row;
  const message = unknownWorkspace(slug);
  throw new AppError("invalid_input", message, { body: errorBody(message) });
}

/** A query string read with `schema`; a bad value is a 400 `{error}` naming its parameter. */
function parseQuery<T extends z.ZodType>(c: Context, schema: T): z.output<T> {
  const parsed = schema.safeParse(c.req.query());
  if (parsed.success) return parsed.data;
  const message = parsed.error.issues[0]?.message ?? "The query string is not valid.";
  throw new AppError("invalid_input", message, { body: errorOnly(message) });
}

/** The fields of a workspace's settings named by their own messages' labels, so those keep the field's name. */
const namedByMessage = (field: string) => field === "name";

/** The developer API's workspaces calls (docs: /api/docs). */
export function workspaceRoutesV1(router: V1Router, deps: Deps): void {
  const tag = "Workspaces";

  router.post("/workspace/new", needs.write, {
    summary: "Create a workspace",
    description:
      "`name` and any writable field of a workspace (`openAiTemp`, `openAiHistory`, `openAiPrompt`, " +
      "`similarityThreshold`, `topN`, `chatMode`, `chatProvider`, `chatModel`, `queryRefusalResponse`, " +
      "`vectorSearchMode`, …); other fields are ignored. A bad value is a 400 `{workspace: null, message}` " +
      "naming the field, and nothing is created.",
    tag,
    body: V1CreateWorkspaceInput,
    response: V1WorkspaceAnswer,
  }, async (c) => {
    const { name, ...settings } = await parseJson(c, V1CreateWorkspaceInput, workspaceOrMessage, {
      bareMessages: namedByMessage,
    });
    const created = await createWorkspace(deps, c.var.actor, name);
    let workspace = created;
    try {
      workspace = await withErrorBody(
        workspaceOrMessage,
        () => updateWorkspace(deps, created, settings, c.var.actor),
      ) ?? created;
    } catch (error) {
      // A setting refused (an unknown provider) leaves no half-made workspace behind.
      await deleteWorkspace(deps, created);
      throw error;
    }
    deps.log.info("Workspace created through the developer API", { slug: workspace.slug });
    await logEvent(deps, "api_workspace_created", { workspaceName: workspace.name }, c.var.actor.userId);
    return c.json({ workspace: presentWorkspace(workspace), message: null });
  });

  router.get("/workspaces", needs.any, {
    summary: "List the workspaces",
    description:
      "Every workspace with its threads (`user_id`, `slug`, `name`). A key limited to workspaces " +
      "lists only its own, whatever its permissions, so that it can find the slugs it may use.",
    tag,
    response: V1WorkspaceList,
  }, async (c) => {
    const visible = visibleWorkspaceIds(c.var.apiKey);
    const rows = (await listWorkspaces(deps, c.var.actor)).filter((row) => !visible || visible.has(row.id));
    const threads = await threadsOf(deps, rows.map((row) => row.id));
    return c.json({
      workspaces: rows.map((row) => ({
        ...presentWorkspace(row),
        threads: threads.filter((thread) => thread.workspaceId === row.id)
          .map(({ user_id, slug, name }) => ({ user_id, slug, name })),
      })),
    });
  });

  router.get("/workspace/:slug", needs.workspace("read"), {
    summary: "Get a workspace",
    description: "The workspace with its documents and threads, in a list as the reference answers it; an " +
      "unknown slug answers an empty list.",
    tag,
    response: V1WorkspaceGet,
  }, async (c) => {
    const row = await findWorkspace(deps, c.var.actor, c.req.param("slug"));
    if (!row) return c.json({ workspace: [] });
    const [documents, threads] = await Promise.all([
      workspaceDocumentsOf(deps, row.id),
      threadsOf(deps, [row.id]),
    ]);
    return c.json({
      workspace: [{
        ...presentWorkspace(row),
        documents: documents.map(presentWorkspaceDocument),
        threads: threads.map(({ user_id, slug }) => ({ user_id, slug })),
      }],
    });
  });

  router.delete("/workspace/:slug", needs.workspace("manage"), {
    summary: "Delete a workspace",
    description: "Deletes the workspace with its chats, threads, documents list and vectors; answers `OK`. " +
      "An unknown slug is a 400.",
    tag,
  }, async (c) => {
    const workspace = await workspaceOfRoute(deps, c);
    checkDeletionAllowed(deps, null, workspace, undefined);
    await deleteWorkspace(deps, workspace);
    deps.log.info("Workspace deleted through the developer API", { slug: workspace.slug });
    await logEvent(deps, "api_workspace_deleted", { workspaceName: workspace.name }, c.var.actor.userId);
    return c.text("OK");
  });

  router.post("/workspace/:slug/update", needs.workspace("manage"), {
    summary: "Change a workspace's settings",
    description: "Only the fields sent change. A body without any writable field answers " +
      '`{workspace: {id}, message: "No valid fields to update!"}`; a bad value is a 400 naming the field.',
    tag,
    body: UpdateWorkspaceInput,
    response: V1WorkspaceAnswer,
  }, async (c) => {
    const workspace = await workspaceOfRoute(deps, c, workspaceOrMessage);
    const input = await parseJson(c, UpdateWorkspaceInput, workspaceOrMessage, {
      bareMessages: namedByMessage,
    });
    const updated = await withErrorBody(
      workspaceOrMessage,
      () => updateWorkspace(deps, workspace, input, c.var.actor),
    );
    if (!updated) return c.json({ workspace: { id: workspace.id }, message: "No valid fields to update!" });
    return c.json({ workspace: presentWorkspace(updated), message: null });
  });

  router.get("/workspace/:slug/chats", needs.workspace("read"), {
    summary: "Read a workspace's chats",
    description: "The chats of the workspace's default thread, of every user, as `{history}`. With " +
      "`apiSessionId`, the chats sent through the API with that `sessionId` instead.",
    tag,
    query: {
      apiSessionId: "Only the chats of this API session.",
      limit: "How many chats at most (default 100).",
      orderBy: '"asc" (oldest first, the default) or "desc".',
    },
    response: History,
  }, async (c) => {
    const workspace = await workspaceOfRoute(deps, c);
    const query = parseQuery(c, V1ChatsQuery);
    return c.json({ history: await workspaceChatHistory(deps, workspace, query) });
  });

  router.post("/workspace/:slug/update-embeddings", needs.workspace("documents"), {
    summary: "Add documents to a workspace or remove them",
    description: "`adds` and `deletes` are document locations (`folder/file.json`, as the documents calls " +
      "name them). Documents that failed to embed are listed in `message`.",
    tag,
    body: UpdateEmbeddingsInput,
    response: UpdateEmbeddingsAnswer,
  }, async (c) => {
    const workspace = await workspaceOfRoute(deps, c, workspaceOrMessage);
    const input = await parseJson(c, UpdateEmbeddingsInput, workspaceOrMessage);
    const message = await updateEmbeddings(deps, workspace, input, c.var.actor.userId);
    return c.json({ workspace: await workspaceDetail(deps, workspace), message });
  });

  router.post("/workspace/:slug/update-pin", needs.workspace("documents"), {
    summary: "Pin or unpin a workspace's document",
    description:
      "A pinned document goes whole into every answer's context. `pinStatus` defaults to false. A " +
      "document that is not in the workspace is a 404.",
    tag,
    body: V1UpdatePinInput,
    response: V1UpdatePinAnswer,
  }, async (c) => {
    const workspace = await workspaceOfRoute(deps, c);
    const input = await parseJson(c, V1UpdatePinInput, errorOnly, { bareMessages: true });
    await withErrorBody(errorOnly, () => setPinned(deps, workspace, input.docPath, input.pinStatus));
    return c.json({ message: "Pin status updated successfully" });
  });

  router.post("/workspace/:slug/vector-search", needs.workspace("read"), {
    summary: "Search a workspace's documents",
    description: "The chunks closest to `query`, found as a chat finds them; `topN` and `scoreThreshold` " +
      "(0 to 1) default to the workspace's settings.",
    tag,
    body: V1VectorSearchInput,
    response: V1VectorSearchAnswer,
  }, async (c) => {
    const messageOnly: ErrorBody = (message) => ({ message });
    const workspace = await workspaceOfRoute(deps, c, messageOnly);
    const input = await parseJson(c, V1VectorSearchInput, messageOnly, { bareMessages: true });
    const results = await vectorSearch(deps, workspace, input, c.req.raw.signal);
    if (!results) return c.json({ results: [], message: "No embeddings found for this workspace." });
    return c.json({ results });
  });
}
