import { Hono } from "hono";
import type { Deps } from "../deps.ts";
import type { AppEnv } from "../http/env.ts";
import { parseJson } from "../http/body.ts";
import { EmbedQueueRemovalInput } from "../../shared/api/embedding.ts";
import { sseResponse } from "../http/sse.ts";
import { streamFailureFrame } from "../chat/frames.ts";
import { requireWorkspaceRole } from "../workspaces/access.ts";

/**
 * A workspace's embedding progress as the reference's document manager reads it
 * (embed-progress and embed-queue): an SSE stream of `batch_starting`, `doc_starting`, `chunk_progress`,
 * `doc_complete`, `doc_failed`, `file_removed` and `all_complete` frames, and the removal of a document still
 * waiting in the queue. A workspace's editors, as embedding is.
 */
export function embedProgressRoutes(deps: Deps) {
  return new Hono<AppEnv>()
    .get("/workspace/:slug/embed-progress", async (c) => {
      const workspace = await requireWorkspaceRole(deps, c.var.actor, c.req.param("slug"), "editor");
      return sseResponse(deps, c.req.raw, (signal) => deps.embedProgress.frames(workspace.id, signal), {
        failureFrame: streamFailureFrame,
      });
    })
    .delete("/workspace/:slug/embed-queue", async (c) => {
      const workspace = await requireWorkspaceRole(deps, c.var.actor, c.req.param("slug"), "editor");
      const { filename } = await parseJson(c, EmbedQueueRemovalInput, undefined, { bareMessages: true });
      return c.json({ success: deps.embedProgress.removeQueued(workspace.id, filename) });
    });
}
