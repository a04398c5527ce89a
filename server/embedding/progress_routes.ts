import { Hono } from "hono";
import type { Deps } from "../deps.ts";
import type { AppEnv } from "../http/env.ts";
import { readJson } from "../http/body.ts";
import { requirePermission } from "../http/auth_guard.ts";
import { sseResponse } from "../http/sse.ts";
import { streamFailureFrame } from "../chat/frames.ts";
import { fail } from "../errors.ts";
import { requireWorkspace } from "../workspaces/service.ts";

/**
 * A workspace's embedding progress as the reference's document manager reads it
 * (embed-progress and embed-queue): an SSE stream of `batch_starting`, `doc_starting`, `chunk_progress`,
 * `doc_complete`, `doc_failed`, `file_removed` and `all_complete` frames, and the removal of a document still
 * waiting in the queue. Admins and managers, as embedding is.
 */
export function embedProgressRoutes(deps: Deps) {
  const manage = requirePermission("documents:manage");
  return new Hono<AppEnv>()
    .get("/workspace/:slug/embed-progress", manage, async (c) => {
      const workspace = await requireWorkspace(deps, c.var.actor, c.req.param("slug"));
      return sseResponse(deps, c.req.raw, (signal) => deps.embedProgress.frames(workspace.id, signal), {
        failureFrame: streamFailureFrame,
      });
    })
    .delete("/workspace/:slug/embed-queue", manage, async (c) => {
      const workspace = await requireWorkspace(deps, c.var.actor, c.req.param("slug"));
      const body = await readJson(c);
      const filename = body && typeof body === "object"
        ? (body as { filename?: unknown }).filename
        : undefined;
      if (typeof filename !== "string" || filename.trim() === "") {
        fail("invalid_input", "Missing filename", { success: false, error: "Missing filename" });
      }
      return c.json({ success: deps.embedProgress.removeQueued(workspace.id, filename) });
    });
}
