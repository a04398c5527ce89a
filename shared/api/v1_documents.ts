import * as z from "zod";
import { StoredDocument, UploadMetadata } from "./documents.ts";
import { FolderPageAnswer, FolderShell, LocalFile } from "./library.ts";

/**
 * The developer API's document calls (`/api/v1/document/*`, api-contract.md §11): bodies and answers, as the
 * reference's clients send and read them.
 */

const WORKSPACES_MESSAGE = "addToWorkspaces must be a string of comma-separated workspace slugs.";

/** `addToWorkspaces`: `"a,b"`, the slugs of the workspaces to embed the new document into. */
export const AddToWorkspaces = z.string({ error: WORKSPACES_MESSAGE }).max(10_000, WORKSPACES_MESSAGE)
  .nullish()
  .describe("Comma-separated workspace slugs to embed the document into once it is stored, e.g. `a,b`.");

/** The slugs of an `addToWorkspaces` value: trimmed, lower-cased as the reference does, each once. */
export function workspaceSlugsOf(value: string | null | undefined): string[] {
  const slugs = (value ?? "").split(",").map((slug) => slug.trim().toLowerCase()).filter(Boolean);
  return [...new Set(slugs)];
}

/** A JSON object sent as text (a form field, or a client that stringifies it) is read as that object. */
function objectFromText(value: unknown): unknown {
  if (typeof value !== "string") return value;
  if (value.trim() === "") return undefined;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/** `metadata` of an upload or a link: fields that replace the document's defaults. */
const Metadata = z.preprocess(objectFromText, UploadMetadata).nullish();

/** `POST /v1/document/upload` and `/v1/document/upload/:folderName`: a multipart form. */
export const UploadForm = z.object({
  file: z.string().describe("The file to upload (binary)."),
  addToWorkspaces: AddToWorkspaces,
  metadata: z.string().optional().describe(
    'A JSON object of fields replacing the defaults: {"title", "docAuthor", "description", "docSource", "chunkSource"}.',
  ),
});

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;

/** `POST /v1/document/upload-link`. Each message is completed by its field's path. */
export const UploadLinkV1Input = z.object({
  link: z.string({ error: "must be the URL of a page or a file." }).trim().min(
    1,
    "must be the URL of a page or a file.",
  ).max(4096, "Not a valid URL."),
  addToWorkspaces: AddToWorkspaces,
  scraperHeaders: z.record(
    z.string(),
    z.string({ error: "must be text." }).max(8192, "must be at most 8192 characters.").refine(
      (value) => !/[\r\n\0]/.test(value),
      "must not hold a line break.",
    ),
    { error: "must be an object of header names and values." },
  ).refine(
    (headers) => Object.keys(headers).every((name) => HEADER_NAME.test(name)),
    "must name HTTP headers.",
  )
    .refine((headers) => Object.keys(headers).length <= 50, "must name at most 50 headers.").nullish(),
  metadata: Metadata,
});
export type UploadLinkV1Input = z.infer<typeof UploadLinkV1Input>;

const TITLE_MESSAGE =
  "You are missing required metadata key:value pairs in your request. Required metadata key:values are 'title'.";
/** A text field of raw text's metadata; `field` is its path, such as `metadata.url`. */
const text = (field: string) =>
  z.string({ error: `${field} must be text.` }).max(5000, `${field} is too long.`).nullish();

/** `metadata` of raw text: `title` is required, the other keys are those of `GET /v1/document/metadata-schema`. */
export const RawTextMetadata = z.looseObject({
  title: z.string({ error: TITLE_MESSAGE }).trim().min(1, TITLE_MESSAGE).max(
    500,
    "metadata.title is too long.",
  ),
  url: text("metadata.url"),
  docAuthor: text("metadata.docAuthor"),
  description: text("metadata.description"),
  docSource: text("metadata.docSource"),
  chunkSource: text("metadata.chunkSource"),
  published: z.union([z.number(), z.string()], {
    error: "metadata.published must be a time in milliseconds.",
  })
    .nullish(),
}, { error: "metadata must be a JSON object with at least a title." });
export type RawTextMetadata = z.infer<typeof RawTextMetadata>;

const TEXT_MESSAGE = "The 'textContent' key cannot have an empty value.";

/**
 * `POST /v1/document/raw-text`. The checks run in the reference's order: the metadata's title first, then the
 * text.
 */
export const RawTextInput = z.object({
  metadata: z.preprocess((value) => objectFromText(value) ?? {}, RawTextMetadata),
  textContent: z.string({ error: TEXT_MESSAGE }).min(1, TEXT_MESSAGE),
  addToWorkspaces: AddToWorkspaces,
});
export type RawTextInput = z.infer<typeof RawTextInput>;

/** The answer of every upload: the stored documents, each with its `location`. */
export const UploadV1Answer = z.object({
  success: z.boolean(),
  error: z.string().nullable(),
  documents: z.array(StoredDocument),
});

/** `GET /v1/documents`: every folder with every document in it. */
export const DocumentTreeAnswer = z.object({
  localFiles: z.object({
    name: z.literal("documents"),
    type: z.literal("folder"),
    items: z.array(FolderShell.extend({ items: z.array(LocalFile) })),
  }),
});

/** `GET /v1/documents/folder/:folderName`: the folder's documents (all of them unless `limit` says). */
export const FolderV1Answer = FolderPageAnswer.extend({ error: z.string().nullable().optional() });

/** `GET /v1/document/:docName`. */
export const DocumentV1Answer = z.object({ document: LocalFile });

/** `GET /v1/document/metadata-schema`: the metadata keys raw text takes. */
export const METADATA_SCHEMA = {
  url: "string | nullable",
  title: "string",
  docAuthor: "string | nullable",
  description: "string | nullable",
  docSource: "string | nullable",
  chunkSource: "string | nullable",
  published: "epoch timestamp in ms | nullable",
} as const;
export const MetadataSchemaAnswer = z.object({ schema: z.record(z.string(), z.string()) });

/** `create-folder`, `remove-folder`, `move-files`: the reference's `{success, message}`. */
export const SuccessMessage = z.object({ success: z.boolean(), message: z.string().nullable() });
