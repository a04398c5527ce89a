import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { eq } from "drizzle-orm";
import { workspaces } from "../../db/schema.ts";
import { ExtensionContentInput, ExtensionEmbedInput } from "../../shared/api/browser_extension.ts";
import type { StoredDocument } from "../../shared/api/documents.ts";
import { allows, workspaceRoleReaches } from "../../shared/roles.ts";
import type { Deps } from "../deps.ts";
import { AppError, fail, messageOf } from "../errors.ts";
import { logEvent } from "../events/log.ts";
import { bearerToken, requirePermission } from "../http/auth_guard.ts";
import { parseJson } from "../http/body.ts";
import type { AppEnv } from "../http/env.ts";
import { idParam } from "../users/routes.ts";
import { addDocuments } from "../documents/ingest.ts";
import { logWorkspaceDocuments } from "../documents/events.ts";
import { purgeDocuments } from "../documents/library.ts";
import { saveRawText } from "../documents/raw_text.ts";
import { DEFAULT_FOLDER } from "../documents/store.ts";
import { presentWorkspace } from "../workspaces/present.ts";
import { listWorkspaces } from "../workspaces/service.ts";
import { workspaceRoleOf } from "../workspaces/access.ts";
import {
  createBrowserExtensionKey,
  type ExtensionCaller,
  listBrowserExtensionKeys,
  resolveExtensionKey,
  revokeBrowserExtensionKey,
} from "./service.ts";

// The origin guard's and CORS's decisions on the extension's calls live in ./access.ts (loaded at start, without
// these routes); re-exported for the modules that import them from here.
export { extensionCorsDecider, isExtensionCall } from "./access.ts";

/** The screen's calls (`/settings/browser-extension`): admins only (spec 02's route table). */
export function browserExtensionKeyRoutes(deps: Deps) {
  const admin = requirePermission("settings:manage");
  return new Hono<AppEnv>()
    .get("/browser-extension/api-keys", admin, async (c) => {
      return c.json({ success: true, apiKeys: await listBrowserExtensionKeys(deps), error: null });
    })
    .post("/browser-extension/api-keys/new", admin, async (c) => {
      const apiKey = await createBrowserExtensionKey(deps, c.var.actor);
      await logEvent(deps, "browser_extension_key_created", {}, c.var.actor.userId);
      return c.json({ apiKey, error: null });
    })
    .delete("/browser-extension/api-keys/:id", admin, async (c) => {
      const id = idParam(c.req.param("id"), "browser extension key");
      await revokeBrowserExtensionKey(deps, id);
      await logEvent(deps, "browser_extension_key_deleted", { id }, c.var.actor.userId);
      return c.json({ success: true, error: null });
    });
}

const errorBody = (message: string) => ({ success: false, error: message });

/** The workspaces the key's owner may see, as the reference lists them. */
async function visibleWorkspaces(deps: Deps, caller: ExtensionCaller) {
  return (await listWorkspaces(deps, caller.actor)).map(presentWorkspace);
}

/** Keeps the page's text as a document (the developer API's raw-text service) and records the upload. */
async function savePage(
  deps: Deps,
  caller: ExtensionCaller,
  input: ExtensionContentInput,
  workspaceEditor = false,
) {
  if (!workspaceEditor && !allows(caller.actor.role, "documents:manage")) {
    const message = "You do not have permission to do that.";
    throw new AppError("forbidden", message, { body: errorBody(message) });
  }
  const document = await saveRawText(deps, input.textContent, input.metadata);
  const folder = document.location.split("/")[0];
  await logEvent(deps, "document_uploaded", {
    documentName: document.title,
    ...(folder && folder !== DEFAULT_FOLDER ? { folder } : {}),
    via: "browser extension",
  }, caller.actor.userId);
  return document;
}

/**
 * Embeds the new document into the workspace; if that fails the document is removed again, so the extension
 * can simply try again.
 */
async function embedPage(
  deps: Deps,
  caller: ExtensionCaller,
  workspace: typeof workspaces.$inferSelect,
  document: StoredDocument,
) {
  let failure: string | null;
  try {
    const outcome = await addDocuments(deps, workspace, [document.location]);
    await logWorkspaceDocuments(deps, workspace, { outcome }, caller.actor.userId);
    failure = outcome.failures[0] ?? null;
  } catch (error) {
    failure = messageOf(error);
  }
  if (failure === null) return;
  await purgeDocuments(deps, [document.location]);
  const reason = failure.replace(`${document.location}: `, "").replace(/\.$/, "");
  const message = `The page could not be embedded into the workspace "${workspace.name}" (${reason}).`;
  fail("provider_failed", message, errorBody(message));
}

/**
 * The extension's calls (the reference's `browserExtension.js`), before the session guard: each carries the
 * extension's key and acts as the account that made it (in multi-user mode), seeing that account's workspaces.
 */
export function browserExtensionRoutes(deps: Deps) {
  const caller = (authorization: string | undefined) => resolveExtensionKey(deps, bearerToken(authorization));
  // A page's text, within the upload limit (saveRawText says so in a sentence), plus its metadata.
  const limit = bodyLimit({
    maxSize: deps.config.maxUploadBytes + 256 * 1024,
    onError: () => {
      const message = `The page is too large: the limit is ${
        Math.round(deps.config.maxUploadBytes / 1024 / 1024)
      } MB.`;
      throw new AppError("too_large", message, { body: errorBody(message) });
    },
  });
  return new Hono<AppEnv>()
    .get("/browser-extension/check", async (c) => {
      const found = await caller(c.req.header("Authorization"));
      return c.json({
        connected: true,
        workspaces: await visibleWorkspaces(deps, found),
        apiKeyId: found.keyId,
      });
    })
    .get("/browser-extension/workspaces", async (c) => {
      const found = await caller(c.req.header("Authorization"));
      return c.json({ workspaces: await visibleWorkspaces(deps, found) });
    })
    .delete("/browser-extension/disconnect", async (c) => {
      const found = await caller(c.req.header("Authorization"));
      await revokeBrowserExtensionKey(deps, found.keyId);
      await logEvent(
        deps,
        "browser_extension_key_deleted",
        { id: found.keyId, disconnected: true },
        found.actor.userId,
      );
      return c.json({ success: true });
    })
    .post("/browser-extension/upload-content", limit, async (c) => {
      const found = await caller(c.req.header("Authorization"));
      const input = await parseJson(c, ExtensionContentInput, errorBody);
      await savePage(deps, found, input);
      return c.json({ success: true });
    })
    .post("/browser-extension/embed-content", limit, async (c) => {
      const found = await caller(c.req.header("Authorization"));
      const input = await parseJson(c, ExtensionEmbedInput, errorBody);
      const [row] = await deps.db.select().from(workspaces).where(eq(workspaces.id, input.workspaceId));
      const role = row ? await workspaceRoleOf(deps, found.actor, row) : null;
      if (!row || role === null) {
        fail("not_found", "Workspace not found.", errorBody("Workspace not found."));
      }
      // A workspace's editor adds to it (server/workspaces/access.ts); a viewer is refused below.
      const document = await savePage(deps, found, input, workspaceRoleReaches(role, "editor"));
      await embedPage(deps, found, row, document);
      return c.json({ success: true });
    });
}
