import * as z from "zod";
import { StoredDocument } from "./documents.ts";

export { DEFAULT_FOLDER } from "../limits.ts";

/** `GET /system/local-files?folder=` pages: default and largest page size. */
export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 1000;

/**
 * A folder name a user may create: letters, digits, space, `_`, `-` and `.`, starting with a letter, digit or
 * `_` (so never `.`, `..` or a hidden name) and never a path.
 */
export const FOLDER_NAME = /^[\p{L}\p{N}_][\p{L}\p{N} _.-]{0,63}$/u;

/**
 * Documents that live document sync can fetch again: from a link, or from a data connector (a repository
 * file, a video's captions, a crawled page, a Confluence page); their chunk source starts with one of these.
 */
export const WATCHABLE_SOURCES = [
  "link://",
  "github://",
  "gitlab://",
  "youtube://",
  "website-depth://",
  "confluence://",
] as const;

export const watchableSource = (chunkSource: string): boolean =>
  WATCHABLE_SOURCES.some((prefix) => chunkSource.startsWith(prefix));

/** A watchable document from a data connector (fetched again from its source, not from a link). */
export const connectorSource = (chunkSource: string): boolean =>
  watchableSource(chunkSource) && !chunkSource.startsWith("link://");

/**
 * A stored document as the picker lists it: its metadata plus where it is used
 * (docs/api-compat.md#document-json).
 */
export const LocalFile = z.looseObject({
  ...StoredDocument.shape,
  name: z.string(),
  type: z.literal("file"),
  /** `folder/name`, the value `update-embeddings` takes (Lectern's addition). */
  location: z.string(),
  folder: z.string(),
  cached: z.boolean(),
  canWatch: z.boolean(),
  pinnedWorkspaces: z.array(z.number()),
  watched: z.boolean(),
});
export type LocalFile = z.infer<typeof LocalFile>;

export const FolderShell = z.object({
  name: z.string(),
  type: z.literal("folder"),
  fileCount: z.number(),
  items: z.array(z.unknown()),
});
export type FolderShell = z.infer<typeof FolderShell>;

/** `GET /system/local-files` without a folder: the folder shells. */
export const LocalFilesAnswer = z.object({
  localFiles: z.object({ name: z.string(), type: z.literal("folder"), items: z.array(FolderShell) }),
});

/** `GET /system/local-files?folder=X&offset&limit&q`: one page of a folder. */
export const FolderPageAnswer = z.object({
  folder: z.string(),
  documents: z.array(LocalFile),
  totalCount: z.number(),
  hasMore: z.boolean(),
});
export type FolderPageAnswer = z.infer<typeof FolderPageAnswer>;

/** `GET /system/local-files/search?q=&offset&limit`: matching documents of every folder. */
export const SearchAnswer = z.object({
  results: z.array(LocalFile),
  totalCount: z.number(),
  hasMore: z.boolean(),
});

const location = (field: string) =>
  z.string({ error: `${field} must be a document location ("folder/file.json").` }).min(
    1,
    `${field} must be a document location ("folder/file.json").`,
  );

/** `POST /system/local-files/by-docpaths`: the documents to describe, as `folder/file.json`. */
export const DocpathsInput = z.object({
  docpaths: z.array(z.string({ error: "docpaths must be a list of document paths." }), {
    error: "docpaths must be a list of document paths.",
  }).max(100_000, "At most 100000 document paths can be asked at once."),
});

/** `by-docpaths` answers each picker entry with the `docpath` it was asked by. */
export const DocpathsAnswer = z.object({
  documents: z.array(LocalFile.extend({ docpath: z.string() })),
});

export const RemoveDocumentInput = z.object({ name: location("name") });
export const RemoveDocumentsInput = z.object({
  names: z.array(location("names[]"), { error: "names must be a list of document locations." }).max(
    10_000,
    "At most 10000 documents can be removed at once.",
  ),
});
export const FolderInput = z.object({
  name: z.string({ error: "name must be a folder name." }).trim().min(1, "The folder name cannot be empty."),
});
export const MoveFilesInput = z.object({
  files: z.array(z.object({ from: location("from"), to: location("to") }), {
    error: "files must be a list of {from, to}.",
  }).min(1, "No files to move.").max(10_000, "At most 10000 documents can be moved at once."),
});
export const RemoveAndUnembedInput = z.object({ documentLocation: location("documentLocation") });
export const UpdatePinInput = z.object({
  docPath: location("docPath"),
  pinStatus: z.boolean({ error: "pinStatus must be true or false." }),
});
export const UpdateWatchInput = z.object({
  docPath: location("docPath"),
  watchStatus: z.boolean({ error: "watchStatus must be true or false." }),
});

export const SuccessOrMessage = z.object({ success: z.boolean(), message: z.string().nullable() });
export const SuccessOrError = z.object({ success: z.boolean(), error: z.string().nullable() });
