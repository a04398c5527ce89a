import { z } from "zod";

/** Extensions the upload accepts in this version, by MIME type (the shape of `accepted-document-types`). */
export const ACCEPTED_DOCUMENT_TYPES: Record<string, string[]> = {
  "text/plain": [".txt", ".md"],
};

/** The stored document JSON of api-contract.md §8.1, without pageContent, plus its `location`. */
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
