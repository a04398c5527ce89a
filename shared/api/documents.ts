import * as z from "zod";

export { ACCEPTED_DOCUMENT_TYPES } from "./document_types.ts";

/** The stored document JSON of docs/api-compat.md#document-json, without pageContent, plus its `location`. */
export const StoredDocument = z.object({
  id: z.string(),
  url: z.string(),
  title: z.string(),
  docAuthor: z.string(),
  description: z.string(),
  docSource: z.string(),
  chunkSource: z.string(),
  published: z.string(),
  wordCount: z.number(),
  token_count_estimate: z.number(),
  location: z.string(),
});
export type StoredDocument = z.infer<typeof StoredDocument>;

export const UploadAnswer = z.object({
  success: z.boolean(),
  error: z.string().nullable(),
  documents: z.array(StoredDocument).optional(),
});

export const UploadAndEmbedAnswer = z.object({
  success: z.boolean(),
  error: z.string().nullable(),
  document: z.object({ id: z.string(), location: z.string() }).nullable(),
});

/** The optional `metadata` form field of an upload: these fields replace the per-type defaults. */
export const UploadMetadata = z.object({
  title: z.string().trim().min(1).max(500).optional(),
  docAuthor: z.string().max(500).optional(),
  description: z.string().max(5000).optional(),
  docSource: z.string().max(500).optional(),
  chunkSource: z.string().max(2000).optional(),
});
export type UploadMetadata = z.infer<typeof UploadMetadata>;

/** `POST /workspace/:slug/upload-link`. */
export const UploadLinkInput = z.object({
  link: z.string({ error: "Not a valid URL." }).trim().min(1, "Not a valid URL.").max(
    4096,
    "Not a valid URL.",
  ),
});
export type UploadLinkInput = z.infer<typeof UploadLinkInput>;
