import { join, resolve, sep } from "node:path";
import type { Database } from "../../db/client.ts";
import { documents } from "../../db/schema.ts";
import type { StoredDocument } from "../../shared/api/documents.ts";
import { fail } from "../errors.ts";
import { writeFileAtomic } from "../storage.ts";
import { documentFileStem } from "../workspaces/slug.ts";
import { estimateTokens } from "./tokens.ts";

export const DEFAULT_FOLDER = "custom-documents";

/** The document JSON of api-contract.md §8.1. */
export interface DocumentJson {
  id: string;
  url: string;
  title: string;
  docAuthor: string;
  description: string;
  docSource: string;
  chunkSource: string;
  published: string;
  wordCount: number;
  pageContent: string;
  token_count_estimate: number;
  /**
   * Lectern's addition for paged formats (PDF): the character offset in `pageContent` where each page starts,
   * page 1 first. Chunks are cited with the page they start on.
   */
  pageBreaks?: number[];
}

export type DocumentMetadata = Omit<DocumentJson, "pageContent">;

const SEGMENT = /^[\p{L}\p{N}_][\p{L}\p{N}._-]{0,200}$/u;

/** Checks a `folder/file.json` location; anything else (a path, `..`, a bare name) is refused. */
export function parseLocation(location: string): { folder: string; filename: string } {
  const parts = location.split("/");
  if (parts.length !== 2 || !parts.every((part) => SEGMENT.test(part)) || !parts[1].endsWith(".json")) {
    fail("invalid_input", `"${location}" is not a document location (expected "folder/file.json")`);
  }
  return { folder: parts[0], filename: parts[1] };
}

export function metadataOf(document: DocumentJson): DocumentMetadata {
  const { pageContent: _content, pageBreaks: _breaks, ...metadata } = document;
  return metadata;
}

/** The page (1-based) that holds character `offset`, given the page start offsets. */
export function pageAt(pageBreaks: number[], offset: number): number {
  let page = 1;
  for (let index = 0; index < pageBreaks.length; index++) if (pageBreaks[index] <= offset) page = index + 1;
  return page;
}

export interface NewTextDocument {
  originalName: string;
  text: string;
  docSource: string;
  /** Where the original bytes were kept, for reprocessing later. */
  uploadName: string;
}

/** Documents as JSON files under `STORAGE_DIR/documents/<folder>/`, indexed in the `documents` table. */
export class DocumentStore {
  constructor(private readonly db: Database, private readonly root: string) {}

  private pathOf(location: string): string {
    const { folder, filename } = parseLocation(location);
    const path = resolve(this.root, folder, filename);
    if (!path.startsWith(resolve(this.root) + sep)) {
      fail("invalid_input", `"${location}" is outside the documents folder`);
    }
    return path;
  }

  /** Writes the document JSON (generated name) and its index row; returns the picker fields plus `location`. */
  async saveText(input: NewTextDocument): Promise<StoredDocument> {
    const id = crypto.randomUUID();
    const title = input.originalName.split(/[\\/]/).pop() || "document";
    const filename = `${documentFileStem(title)}-${id}.json`;
    const location = `${DEFAULT_FOLDER}/${filename}`;
    const document: DocumentJson = {
      id,
      url: `file://${documentFileStem(title)}`,
      title,
      docAuthor: "Unknown",
      description: "Unknown",
      docSource: input.docSource,
      chunkSource: "",
      published: new Date().toLocaleString("en-US"),
      wordCount: input.text.split(" ").length,
      pageContent: input.text,
      token_count_estimate: await estimateTokens(input.text),
    };
    await Deno.mkdir(join(this.root, DEFAULT_FOLDER), { recursive: true });
    const path = this.pathOf(location);
    await writeFileAtomic(path, JSON.stringify(document, null, 4));
    try {
      await this.db.insert(documents).values({
        location,
        folder: DEFAULT_FOLDER,
        filename,
        title,
        metadata: JSON.stringify({ ...metadataOf(document), uploadName: input.uploadName }),
        wordCount: document.wordCount,
        tokenCountEstimate: document.token_count_estimate,
      });
    } catch (error) {
      await Deno.remove(path).catch(() => {});
      throw error;
    }
    return { ...metadataOf(document), location };
  }

  /** Reads a stored document; a missing or damaged file is a clear 404 / 400. */
  async read(location: string): Promise<DocumentJson> {
    const path = this.pathOf(location);
    let text: string;
    try {
      text = await Deno.readTextFile(path);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) fail("not_found", `Cannot find the document "${location}"`);
      throw error;
    }
    try {
      const document = JSON.parse(text) as DocumentJson;
      if (typeof document.pageContent !== "string") throw new Error("pageContent is missing");
      return document;
    } catch (error) {
      fail("invalid_input", `The document "${location}" is damaged: ${(error as Error).message}`);
    }
  }
}
