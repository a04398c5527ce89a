import * as z from "zod";
import { WorkspaceDocument } from "./workspaces.ts";

/** At most this many files are kept attached to one user's thread of a workspace. */
export const MAX_PARSED_FILES = 50;

/** A `workspace_parsed_files` row as `POST /workspace/:slug/parse` answers it. */
export const ParsedFileRow = z.object({
  id: z.number(),
  filename: z.string(),
  workspaceId: z.number(),
  userId: z.number().nullable(),
  threadId: z.number().nullable(),
  /** JSON of the parsed document without its text (title, docAuthor, …, location). */
  metadata: z.string(),
  tokenCountEstimate: z.number(),
  createdAt: z.string(),
});
export type ParsedFileRow = z.infer<typeof ParsedFileRow>;

export const ParseAnswer = z.object({
  success: z.boolean(),
  error: z.string().nullable(),
  files: z.array(ParsedFileRow),
});

/** One attached file as `GET /workspace/:slug/parsed-files` lists it. */
export const ParsedFileItem = z.object({
  id: z.number(),
  title: z.string(),
  location: z.string(),
  token_count_estimate: z.number(),
});
export type ParsedFileItem = z.infer<typeof ParsedFileItem>;

export const ParsedFilesAnswer = z.object({
  files: z.array(ParsedFileItem),
  /** The workspace model's context window in tokens; null when no model is set up. */
  contextWindow: z.number().nullable(),
  currentContextTokenCount: z.number(),
});
export type ParsedFilesAnswer = z.infer<typeof ParsedFilesAnswer>;

export const DeleteParsedFilesInput = z.object({
  fileIds: z.array(z.coerce.number().int().positive(), {
    error: "fileIds must be a list of parsed file ids.",
  }).min(1, "fileIds is empty: name the parsed files to remove.").max(
    1000,
    "At most 1000 parsed files can be removed at once.",
  ),
});

export const EmbedParsedFileAnswer = z.object({
  success: z.boolean(),
  error: z.string().nullable(),
  document: WorkspaceDocument.nullable(),
});
