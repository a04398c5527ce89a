import * as z from "zod";
import { NATIVE_EMBEDDING_MODELS } from "../providers/embedder_catalog.ts";
import { jsonObject } from "./body.ts";

/** A re-embedding run after the embedder changed (`embedding_jobs`). */
export const EmbeddingJob = z.object({
  id: z.number(),
  state: z.enum(["running", "done", "failed", "cancelled"]),
  engine: z.string(),
  model: z.string().nullable(),
  done: z.number(),
  total: z.number(),
  failed: z.number(),
  error: z.string().nullable(),
});
export type EmbeddingJob = z.infer<typeof EmbeddingJob>;

/** The embedder that answers chats now. */
export const ActiveEmbedder = z.object({
  engine: z.string(),
  model: z.string(),
  fingerprint: z.string().nullable(),
  error: z.string().nullable(),
});
export type ActiveEmbedder = z.infer<typeof ActiveEmbedder>;

/** `GET /api/system/embedding-jobs`: the active embedder and the running (or last) job. */
export const EmbeddingJobsAnswer = z.object({ active: ActiveEmbedder, job: EmbeddingJob.nullable() });
export type EmbeddingJobsAnswer = z.infer<typeof EmbeddingJobsAnswer>;

/**
 * One frame of `GET /api/system/embedding-jobs/progress` (SSE). The stream opens with the current state
 * (`idle` when no job runs) and ends after `done`, `failed` or `cancelled`.
 */
export const EmbeddingProgressFrame = z.object({
  type: z.enum(["idle", "started", "progress", "done", "failed", "cancelled"]),
  jobId: z.number().nullable(),
  done: z.number(),
  total: z.number(),
  failed: z.number(),
  error: z.string().optional(),
});
export type EmbeddingProgressFrame = z.infer<typeof EmbeddingProgressFrame>;

/** `GET /api/system/native-embedding-models`: the native engine's models and whether each is ready. */
export const NativeModelsAnswer = z.object({
  models: z.array(z.object({
    id: z.string(),
    name: z.string(),
    builtIn: z.boolean(),
    installed: z.boolean(),
    downloadMb: z.number().nullable(),
    download: z.object({
      state: z.enum(["idle", "downloading", "ready", "failed"]),
      receivedBytes: z.number(),
      error: z.string().nullable(),
    }),
  })),
});
export type NativeModelsAnswer = z.infer<typeof NativeModelsAnswer>;

/** The instance preference labels `GET /api/admin/system-preferences-for` can read. */
export const READABLE_PREFERENCES = [
  "text_splitter_chunk_size",
  "text_splitter_chunk_overlap",
  "max_embed_chunk_size",
  "custom_app_name",
  "support_email",
  "footer_data",
  "meta_page_title",
  "meta_page_favicon",
  "experimental_live_file_sync",
] as const;

/** `POST /api/admin/system-preferences` for the text splitter: whole numbers, as numbers or digit strings. */
const wholeNumber = z.union([z.number(), z.string().trim().regex(/^-?\d+(\.\d+)?$/).transform(Number)], {
  error: "must be a number.",
});
export const TextSplitterPreferences = z.object({
  text_splitter_chunk_size: wholeNumber.optional(),
  text_splitter_chunk_overlap: wholeNumber.optional(),
}).strict();
export type TextSplitterPreferences = z.infer<typeof TextSplitterPreferences>;

export const SystemPreferencesAnswer = z.object({
  settings: z.record(z.string(), z.union([z.string(), z.number(), z.null()])),
});

/** `POST /api/system/native-embedding-models/download`: a native model that is not built in. */
export const NativeModelDownloadInput = jsonObject({
  model: z.unknown().optional().transform((value, context) => {
    const model = NATIVE_EMBEDDING_MODELS.find((entry) => entry.id === value);
    const problem = !model
      ? typeof value === "string"
        ? `Unknown native embedding model "${value}".`
        : "model must be the id of a native embedding model."
      : model.builtIn
      ? `${model.name} is built in and needs no download.`
      : null;
    if (problem || !model) {
      context.addIssue({ code: "custom", message: problem ?? "" });
      return z.NEVER;
    }
    return model;
  }),
});

/** `DELETE /api/workspace/:slug/embed-queue`: the queued document to drop. */
export const EmbedQueueRemovalInput = jsonObject({
  filename: z.string({ error: "Missing filename" }).refine((name) => name.trim() !== "", "Missing filename"),
});
