import * as z from "zod";
import type { Deps } from "../deps.ts";
import { parseJson } from "../http/body.ts";
import { fail, messageOf, withErrorBody } from "../errors.ts";
import { logEvent } from "../events/log.ts";
import { workspaceNamespace } from "../providers/vectors/namespace.ts";
import { listWorkspaces } from "../workspaces/service.ts";
import { purgeDocuments } from "../documents/library.ts";
import { setupFacts } from "../system/status.ts";
import { exportChats } from "../chat_export/service.ts";
import { SettingsChanges } from "../../shared/api/system.ts";
import { RemoveDocumentsInput } from "../../shared/api/library.ts";
import { SuccessMessage } from "../../shared/api/v1_documents.ts";
import { CHAT_EXPORT_TYPES, chatExportType, unknownExportTypeMessage } from "../../shared/api/chat_export.ts";
import { needs } from "./access.ts";
import type { V1Router } from "./router.ts";

const TAG = "System";
const settingsError = (message: string) => ({ newValues: {}, error: message });
const messageBody = (message: string) => ({ success: false, message });

/** The developer API's system calls (api-contract.md §11; docs: /api/docs). */
export function systemRoutesV1(router: V1Router, deps: Deps): void {
  router.get("/system/env-dump", needs.any, {
    summary: "Not offered: dumping the settings to a .env file",
    description:
      "The reference writes its settings, secrets included, to a `.env` file here. Lectern keeps " +
      "settings in its database and never writes them out, so this call always answers 404 with `error`.",
    tag: TAG,
  }, () =>
    fail(
      "not_found",
      "GET /api/v1/system/env-dump is not offered by Lectern: it would print secrets. Read the settings, with secrets masked, from GET /api/v1/system.",
    ));

  router.get("/system", needs.read, {
    summary: "The instance's settings",
    description:
      "Every setting, as the admin's settings screens read them: a secret is only `true` (set) or " +
      "`false` (not set), never its value.",
    tag: TAG,
    response: z.object({ settings: z.record(z.string(), z.unknown()) }),
  }, async (c) => {
    const results = deps.settings.setupResults({
      full: true,
      requiresAuth: deps.settings.requiresAuth,
      simpleSso: deps.config.simpleSso,
      workspaceDeletionProtection: deps.config.workspaceDeletionProtection,
    });
    return c.json({ settings: { ...results, ...await setupFacts(deps) } });
  });

  router.get("/system/vector-count", needs.read, {
    summary: "How many vectors the workspaces hold",
    description: "The vectors of every workspace, for the active embedder.",
    tag: TAG,
    response: z.object({ vectorCount: z.number() }),
  }, async (c) => {
    const embedder = deps.providers.embedder();
    let vectorCount = 0;
    for (const row of await listWorkspaces(deps, c.var.actor)) {
      vectorCount += await deps.vectors.count(workspaceNamespace(row.id, embedder));
    }
    return c.json({ vectorCount });
  });

  router.post("/system/update-env", needs.write, {
    summary: "Change settings",
    description: "The same as the settings screens' save: every key is checked first and all or none are " +
      "applied (a 400 lists every problem in `error`); a secret sent as asterisks stays unchanged. Names and " +
      "values: `GET /v1/system`. Choosing another embedder starts re-embedding in the background.",
    tag: TAG,
    body: SettingsChanges,
    response: z.object({ newValues: z.record(z.string(), z.string()), error: z.literal(false) }),
  }, async (c) => {
    const changes = await parseJson(c, SettingsChanges, settingsError, { bareMessages: true });
    const { newValues } = await deps.settings.update(changes);
    deps.log.info("Settings updated through the developer API", {
      keys: Object.keys(newValues).join(",") || "none",
    });
    // As after the UI's save: an embedder change starts the re-embedding job.
    await deps.providers.embedding.reconcile().catch((error) =>
      deps.log.error("Cannot start re-embedding", { error: messageOf(error) })
    );
    return c.json({ newValues, error: false });
  });

  router.get("/system/export-chats", needs.read, {
    summary: "Export every workspace chat",
    description:
      `Every chat of every workspace and thread, oldest first, in the reference's formats: ${
        CHAT_EXPORT_TYPES.join(", ")
      } (default jsonl: one line per workspace, for fine-tuning). Chats made through this API are included, ` +
      'with the user "API". The file is streamed as it is read.',
    tag: TAG,
    query: { type: `The format: ${CHAT_EXPORT_TYPES.join(", ")} (default jsonl).` },
  }, async (c) => {
    const asked = c.req.query("type");
    const type = chatExportType(asked);
    if (!type) {
      const message = unknownExportTypeMessage(asked ?? "");
      fail("invalid_input", message, { message, error: message });
    }
    const exported = exportChats(deps, type);
    await logEvent(deps, "exported_chats", { type, through: "api" });
    return new Response(exported.body, {
      headers: {
        "Content-Type": exported.contentType,
        "Content-Disposition": `attachment; filename="${exported.filename}"`,
      },
    });
  });

  router.delete("/system/remove-documents", needs.write, {
    summary: "Remove documents",
    description: "Removes each document (`folder/file.json`) from every workspace, then from the library. " +
      "Names of documents that do not exist are skipped.",
    tag: TAG,
    body: RemoveDocumentsInput,
    response: SuccessMessage,
  }, async (c) => {
    const input = await parseJson(c, RemoveDocumentsInput, messageBody);
    await withErrorBody(messageBody, () => purgeDocuments(deps, input.names));
    return c.json({ success: true, message: "Documents removed successfully" });
  });
}
