import { join, resolve, sep } from "node:path";
import { eq } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Database } from "../../db/client.ts";
import { groupCommit } from "../../db/group_commit.ts";
import { documents } from "../../db/schema.ts";
import type { StoredDocument } from "../../shared/api/documents.ts";
import { fail } from "../errors.ts";
import { freeBytes } from "../memory.ts";
import { writeAll, writeAtomically } from "../storage.ts";
import { documentFileStem } from "../workspaces/slug.ts";
import { estimateTokens } from "./tokens.ts";

export const DEFAULT_FOLDER = "custom-documents";

/** The document JSON of docs/api-compat.md#document-json. */
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

/** `wordCount` as the reference counts it: pieces between single spaces (counted without splitting a book). */
export function wordCount(text: string): number {
  let count = 1;
  for (let at = text.indexOf(" "); at !== -1; at = text.indexOf(" ", at + 1)) count++;
  return count;
}

const SEGMENT = /^[\p{L}\p{N}_][\p{L}\p{N}._-]{0,200}$/u;

/** Checks a `folder/file.json` location; anything else (a path, `..`, a bare name) is refused. */
export function parseLocation(location: string): { folder: string; filename: string } {
  const parts = location.split("/");
  if (parts.length !== 2 || !parts.every((part) => SEGMENT.test(part)) || !parts[1].endsWith(".json")) {
    fail("invalid_input", `"${location}" is not a document location (expected "folder/file.json").`);
  }
  return { folder: parts[0], filename: parts[1] };
}

/** The characters of `pageContent` a piece of `documentJsonPieces` holds at most. */
export const PAGE_CONTENT_PIECE_CHARS = 16 * 1024;

/**
 * The text of `JSON.stringify(document, null, 4)` in pieces, without ever making it whole: the JSON around
 * `pageContent`, and the text's JSON a slice at a time (never between the two halves of a surrogate pair, so the
 * escapes are the same). A book's document is then never a second copy of its text in memory, nor a third as
 * UTF-8 (issue 21).
 */
export function* documentJsonPieces(
  document: DocumentJson,
  sliceChars = PAGE_CONTENT_PIECE_CHARS,
): Generator<string> {
  const text = document.pageContent;
  const mark = `"${crypto.randomUUID()}"`;
  const outline = JSON.stringify({ ...document, pageContent: mark.slice(1, -1) }, null, 4);
  const at = outline.indexOf(mark);
  if (text.length <= sliceChars || at === -1 || outline.indexOf(mark, at + 1) !== -1) {
    yield JSON.stringify(document, null, 4);
    return;
  }
  yield outline.slice(0, at + 1);
  for (let start = 0; start < text.length;) {
    let end = Math.min(text.length, start + sliceChars);
    const last = text.charCodeAt(end - 1);
    // A high surrogate ends the slice: it goes with the next one, beside its low half (or, alone in a slice of
    // one, takes its low half along).
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end += end - 1 > start ? -1 : 1;
    yield JSON.stringify(text.slice(start, end)).slice(1, -1);
    start = end;
  }
  yield outline.slice(at + mark.length - 1);
}

/**
 * Writes `pieces` to `path` as `writeFileAtomic` writes a text (a temporary file, synced, renamed over the path;
 * removed again when the write fails), a piece at a time through one reused buffer.
 */
async function writePiecesAtomic(path: string, pieces: Iterable<string>): Promise<void> {
  const encoder = new TextEncoder();
  let room: Uint8Array | null = null;
  try {
    await writeAtomically(path, async (file) => {
      for (const piece of pieces) {
        // UTF-8 takes at most 3 bytes per UTF-16 unit.
        if (!room || room.length < piece.length * 3) {
          freeBytes(room);
          room = new Uint8Array(piece.length * 3);
        }
        await writeAll(file, room.subarray(0, encoder.encodeInto(piece, room).written));
      }
    });
  } finally {
    // Its memory now, not at the next full garbage collection.
    freeBytes(room);
  }
}

export function metadataOf(document: DocumentJson): DocumentMetadata {
  const { pageContent: _content, pageBreaks: _breaks, ...metadata } = document;
  return metadata;
}

export { pageAt } from "./split.ts";

export interface NewDocument {
  /** What the JSON file is named after (the original file name, `url-<slug>` for a link); never a path. */
  fileStem: string;
  title: string;
  url: string;
  docAuthor: string;
  description: string;
  docSource: string;
  chunkSource: string;
  /** Defaults to now, as `toLocaleString("en-US")`. */
  published?: string;
  text: string;
  /** The text's `token_count_estimate` when the parse worker counted it already (estimateTokens). */
  tokenCountEstimate?: number;
  pageBreaks?: number[];
  /** A folder under `documents/` (default `custom-documents`): one name, no path. */
  folder?: string;
  /** Where the original bytes were kept (under `uploads/`), for reprocessing later. */
  uploadName?: string;
  /** The link a document was fetched from, for live sync. */
  sourceUrl?: string;
  /** A data connector's document: which source, its key there and its version (a second import compares). */
  connector?: ConnectorOrigin;
}

/** Where a connector's document came from (kept in the index row, never in the document JSON; no secrets). */
export interface ConnectorOrigin {
  source: string;
  key: string;
  version: string;
  /** What live sync needs to fetch it again besides its link (the source's `syncParams`; no secrets). */
  params?: Record<string, string | boolean>;
}

/** The upload of earlier versions: a text file with the text defaults of docs/api-compat.md#document-json. */
export interface NewTextDocument {
  originalName: string;
  text: string;
  docSource: string;
  uploadName: string;
}

/** A document whose file is written and whose index row is not yet (DocumentStore.prepare). */
export interface PreparedSave {
  stored: StoredDocument;
  document: DocumentJson;
  /** The index row's insert, not yet run: commit it only once `written` has resolved. */
  row: BatchItem<"sqlite">;
  /**
   * The document's file written and synced (it is written while the caller goes on: embedding the document,
   * committing its vectors' record); rejects with the write's error.
   */
  written: Promise<void>;
  /** Removes the document's file (when its row will not be written). */
  discard(): Promise<void>;
}

/** Documents as JSON files under `STORAGE_DIR/documents/<folder>/`, indexed in the `documents` table. */
export class DocumentStore {
  constructor(private readonly db: Database, private readonly root: string) {}

  private pathOf(location: string): string {
    const { folder, filename } = parseLocation(location);
    const path = resolve(this.root, folder, filename);
    if (!path.startsWith(resolve(this.root) + sep)) {
      fail("invalid_input", `"${location}" is outside the documents folder.`);
    }
    return path;
  }

  /**
   * Writes the document JSON under a generated name, and its index row; returns the
   * picker fields plus `location`.
   */
  async save(input: NewDocument): Promise<StoredDocument> {
    return (await this.saveDocument(input)).stored;
  }

  /** `save`, also giving the document as written (for a caller that embeds it next without reading it back). */
  async saveDocument(input: NewDocument): Promise<{ stored: StoredDocument; document: DocumentJson }> {
    return (await this.saveDocuments([input]))[0];
  }

  /**
   * Saves several documents as `save` does, with one statement for all their index rows (one commit): either
   * every document is saved, or none is and their files are removed again.
   */
  async saveMany(inputs: NewDocument[]): Promise<StoredDocument[]> {
    return (await this.saveDocuments(inputs)).map((saved) => saved.stored);
  }

  /**
   * Writes a document's file as `save` does, without its index row: the row's insert comes back unrun, for the
   * caller to commit with its own writes (an upload embedded next: one commit for the row and the vectors'
   * record). Until it is committed the document is not in the library; `discard` removes the file again.
   */
  async prepare(input: NewDocument): Promise<PreparedSave> {
    const { stored, document, row, path, folder } = await this.documentOf(input);
    const written = this.writeDocument(folder, path, document);
    written.catch(() => {});
    return {
      stored,
      document,
      row: this.db.insert(documents).values(row),
      written,
      discard: async () => {
        await written.catch(() => {});
        await Deno.remove(path).catch(() => {});
      },
    };
  }

  /** Writes a prepared document's index row once its file is written (through the group commit). */
  async commitPrepared(save: PreparedSave): Promise<void> {
    await save.written;
    await groupCommit(this.db).commit([save.row]);
  }

  private async writeOne(input: NewDocument) {
    const made = await this.documentOf(input);
    await this.writeDocument(made.folder, made.path, made.document);
    return made;
  }

  /** A new document, its file's place and text, and its index row; nothing written yet. */
  private async documentOf(input: NewDocument) {
    const id = crypto.randomUUID();
    const folder = input.folder ?? DEFAULT_FOLDER;
    const filename = `${documentFileStem(input.fileStem)}-${id}.json`;
    const location = `${folder}/${filename}`;
    const path = this.pathOf(location);
    const document: DocumentJson = {
      id,
      url: input.url,
      title: input.title,
      docAuthor: input.docAuthor,
      description: input.description,
      docSource: input.docSource,
      chunkSource: input.chunkSource,
      published: input.published ?? new Date().toLocaleString("en-US"),
      wordCount: wordCount(input.text),
      pageContent: input.text,
      token_count_estimate: input.tokenCountEstimate ?? await estimateTokens(input.text),
      ...(input.pageBreaks?.length ? { pageBreaks: input.pageBreaks } : {}),
    };
    const metadata = metadataOf(document);
    const row: typeof documents.$inferInsert = {
      location,
      folder,
      filename,
      title: document.title,
      metadata: JSON.stringify({
        ...metadata,
        ...(input.uploadName ? { uploadName: input.uploadName } : {}),
        ...(input.sourceUrl ? { sourceUrl: input.sourceUrl } : {}),
        ...(input.connector ? { connector: input.connector } : {}),
      }),
      wordCount: document.wordCount,
      tokenCountEstimate: document.token_count_estimate,
    };
    return { stored: { ...metadata, location }, document, row, path, folder };
  }

  private async saveDocuments(
    inputs: NewDocument[],
  ): Promise<{ stored: StoredDocument; document: DocumentJson }[]> {
    if (inputs.length === 0) return [];
    const written: string[] = [];
    const rows: (typeof documents.$inferInsert)[] = [];
    const saved: { stored: StoredDocument; document: DocumentJson }[] = [];
    try {
      for (const input of inputs) {
        const { stored, document, row, path } = await this.writeOne(input);
        written.push(path);
        rows.push(row);
        saved.push({ stored, document });
      }
      await this.db.insert(documents).values(rows);
    } catch (error) {
      await Promise.all(written.map((path) => Deno.remove(path).catch(() => {})));
      throw error;
    }
    return saved;
  }

  /** Writes a document's file, making its folder only when it is missing (not a system call per document). */
  private async writeDocument(folder: string, path: string, document: DocumentJson) {
    try {
      await writePiecesAtomic(path, documentJsonPieces(document));
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
      await Deno.mkdir(join(this.root, folder), { recursive: true });
      await writePiecesAtomic(path, documentJsonPieces(document));
    }
  }

  saveText(input: NewTextDocument): Promise<StoredDocument> {
    const title = input.originalName.split(/[\\/]/).pop() || "document";
    return this.save({
      fileStem: title,
      title,
      url: `file://${documentFileStem(title)}`,
      docAuthor: "Unknown",
      description: "Unknown",
      docSource: input.docSource,
      chunkSource: "",
      text: input.text,
      uploadName: input.uploadName,
    });
  }

  /**
   * Gives a stored document new text (a watched link that changed): pageContent, page offsets, counts and
   * `published` are rewritten, everything else is kept. Embedding the new text is the caller's part.
   */
  async replaceContent(
    location: string,
    update: { text: string; pageBreaks?: number[]; published?: string; connector?: ConnectorOrigin },
  ): Promise<DocumentJson> {
    const current = await this.read(location);
    const { pageBreaks: _old, ...rest } = current;
    const document: DocumentJson = {
      ...rest,
      published: update.published ?? new Date().toLocaleString("en-US"),
      wordCount: wordCount(update.text),
      pageContent: update.text,
      token_count_estimate: await estimateTokens(update.text),
      ...(update.pageBreaks?.length ? { pageBreaks: update.pageBreaks } : {}),
    };
    await writePiecesAtomic(this.pathOf(location), documentJsonPieces(document));
    const [row] = await this.db.select({ metadata: documents.metadata }).from(documents).where(
      eq(documents.location, location),
    );
    if (row) {
      let extra: Record<string, unknown> = {};
      try {
        const { uploadName, sourceUrl, connector } = JSON.parse(row.metadata) as Record<string, unknown>;
        extra = { uploadName, sourceUrl, connector: update.connector ?? connector };
      } catch {
        // A damaged index row is rewritten from the document.
      }
      await this.db.update(documents).set({
        metadata: JSON.stringify({ ...metadataOf(document), ...extra }),
        wordCount: document.wordCount,
        tokenCountEstimate: document.token_count_estimate,
      }).where(eq(documents.location, location));
    }
    return document;
  }

  /** Reads a stored document; a missing or damaged file is a clear 404 / 400. */
  async read(location: string): Promise<DocumentJson> {
    const path = this.pathOf(location);
    let text: string;
    try {
      text = await Deno.readTextFile(path);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) fail("not_found", `Cannot find the document "${location}".`);
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
