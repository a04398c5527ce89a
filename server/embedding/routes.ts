import { Hono } from "hono";
import type { Deps } from "../deps.ts";
import type { AppEnv } from "../http/env.ts";
import { parseJson } from "../http/body.ts";
import { requirePermission } from "../http/auth_guard.ts";
import { sseResponse } from "../http/sse.ts";
import { streamFailureFrame } from "../chat/frames.ts";
import { messageOf } from "../errors.ts";
import { chunkSettings } from "../documents/chunker.ts";
import { configuredMaximum, saveSystemPreferences } from "./preferences.ts";
import { SystemPreferences } from "../../shared/api/appearance.ts";
import { missingModelFiles } from "../providers/embedders/neural.ts";
import {
  type EmbeddingProgressFrame,
  NativeModelDownloadInput,
  READABLE_PREFERENCES,
} from "../../shared/api/embedding.ts";
import { NATIVE_EMBEDDING_MODELS } from "../../shared/providers/embedder_catalog.ts";
import type { EmbeddingService } from "./service.ts";

const TERMINAL = new Set<EmbeddingProgressFrame["type"]>(["idle", "done", "failed", "cancelled"]);

/**
 * The progress stream of the re-embedding job: the current state first, then every change until the job ends.
 * Progress frames that pile up while the client reads slowly collapse into the latest one.
 */
export async function* progressFrames(
  service: EmbeddingService,
  signal: AbortSignal,
): AsyncGenerator<EmbeddingProgressFrame> {
  const queue: EmbeddingProgressFrame[] = [];
  let wake: (() => void) | null = null;
  const unsubscribe = service.subscribe((frame) => {
    if (frame.type === "progress" && queue.at(-1)?.type === "progress") queue[queue.length - 1] = frame;
    else queue.push(frame);
    wake?.();
  });
  const aborted = new Promise<void>((resolve) =>
    signal.addEventListener("abort", () => resolve(), { once: true })
  );
  try {
    const first = service.currentFrame();
    yield first;
    if (TERMINAL.has(first.type)) return;
    while (!signal.aborted) {
      if (queue.length === 0) {
        await Promise.race([new Promise<void>((resolve) => wake = resolve), aborted]);
        wake = null;
      }
      while (queue.length > 0) {
        const frame = queue.shift()!;
        yield frame;
        if (TERMINAL.has(frame.type)) return;
      }
    }
  } finally {
    unsubscribe();
  }
}

/**
 * Embedder calls: the re-embedding job and its progress, the native models, and the text splitter preferences
 * (the admin system-preferences calls; mounted before the admin routes so a single-user instance has them).
 */
export function embeddingRoutes(deps: Deps) {
  const service = deps.providers.embedding;
  return new Hono<AppEnv>()
    // After a settings save that names another embedder, the re-embedding job starts.
    .use("/system/update-env", async (c, next) => {
      await next();
      if (c.req.method !== "POST" || c.res.status !== 200) return;
      await service.reconcile().catch((error) =>
        deps.log.error("Cannot start re-embedding", { error: messageOf(error) })
      );
    })
    .get(
      "/system/embedding-jobs",
      requirePermission("documents:manage"),
      async (c) => c.json({ active: service.activeInfo(), job: await service.latestJob() }),
    )
    .get(
      "/system/embedding-jobs/progress",
      requirePermission("settings:manage"),
      (c) =>
        sseResponse(deps, c.req.raw, (signal) => progressFrames(service, signal), {
          failureFrame: streamFailureFrame,
        }),
    )
    .post("/system/embedding-jobs/retry", requirePermission("settings:manage"), async (c) => {
      await service.restart();
      return c.json({ success: true, error: null, job: service.job() });
    })
    .get("/system/native-embedding-models", requirePermission("documents:manage"), async (c) => {
      const models = [];
      for (const model of NATIVE_EMBEDDING_MODELS) {
        const installed = model.builtIn ||
          (await missingModelFiles(deps.paths.models, model.id)).length === 0;
        models.push({
          id: model.id,
          name: model.name,
          builtIn: model.builtIn,
          installed,
          downloadMb: model.downloadMb ?? null,
          download: service.models.status(model.id),
        });
      }
      return c.json({ models });
    })
    .post("/system/native-embedding-models/download", requirePermission("settings:manage"), async (c) => {
      const { model } = await parseJson(c, NativeModelDownloadInput, undefined, { bareMessages: true });
      service.models.start(model.id).then(() => {
        const status = service.models.status(model.id);
        if (status.error) deps.log.warn("Model download failed", { model: model.id, error: status.error });
        else deps.log.info("Model downloaded", { model: model.id });
      });
      return c.json({ success: true, error: null, download: service.models.status(model.id) }, 202);
    })
    .get("/admin/system-preferences-for", requirePermission("documents:manage"), (c) => {
      const asked = (c.req.query("labels") ?? "").split(",").map((label) => label.trim()).filter(Boolean);
      const maximum = configuredMaximum(deps);
      const splitter = chunkSettings(deps.settings, maximum);
      const settings: Record<string, string | number | null> = {};
      for (const label of asked) {
        if (!(READABLE_PREFERENCES as readonly string[]).includes(label)) continue;
        if (label === "text_splitter_chunk_size") settings[label] = splitter.chunkSize;
        else if (label === "text_splitter_chunk_overlap") settings[label] = splitter.chunkOverlap;
        else if (label === "max_embed_chunk_size") settings[label] = maximum;
        else if (label === "footer_data") settings[label] = deps.settings.label(label) ?? "[]";
        else if (label === "experimental_live_file_sync") {
          settings[label] = deps.settings.label(label) === "enabled" ? "enabled" : "disabled";
        } else settings[label] = deps.settings.label(label) ?? null;
      }
      return c.json({ settings });
    })
    // Admins only (the reference lets managers too): the appearance and the text splitter are instance settings.
    .post("/admin/system-preferences", requirePermission("settings:manage"), async (c) => {
      const input = await parseJson(c, SystemPreferences);
      const changed = await saveSystemPreferences(deps, input, c.var.actor.userId);
      deps.log.info("System preferences saved", { labels: changed.join(",") || "none" });
      return c.json({ success: true, error: null });
    });
}
