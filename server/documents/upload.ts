import { join } from "node:path";
import type { Deps } from "../deps.ts";
import { fail } from "../errors.ts";
import { FormFile } from "../http/form.ts";
import { writeFileAtomic } from "../storage.ts";
import { freeBytes } from "../memory.ts";
import { documentFileStem } from "../workspaces/slug.ts";
import { type StoredDocument, UploadMetadata } from "../../shared/api/documents.ts";
import { extensionOf } from "./text.ts";
import { DEFAULT_FOLDER, type PreparedSave } from "./store.ts";
import { holdPreparedSlot, parseAndChunk, type ParsedFile, parseFile, parseLimits } from "./parse_worker.ts";
import type { Embedder } from "../providers/embedders/types.ts";
import { isLexicalEmbedder } from "../providers/embedders/native.ts";
import { chunkHeader, chunkSettings } from "./chunker.ts";
import { type ChunkPlan, PreparedChunks } from "./prepared_chunks.ts";
import type { PreparedDocument } from "./ingest.ts";
import { type ParsedDocument, ParseFailure } from "./parsers/types.ts";
import { isMediaFile, transcribeUpload } from "../speech/transcribe.ts";

/**
 * The optional `metadata` of an upload: a JSON object (as text in a form field, or as an object in a JSON body)
 * whose fields replace the per-type defaults.
 */
export function uploadMetadata(value: unknown): UploadMetadata {
  if (value === undefined || value === null || value === "") return {};
  let object: unknown;
  try {
    object = typeof value === "string"
      ? JSON.parse(value)
      : value instanceof File || value instanceof FormFile
      ? null
      : value;
  } catch (error) {
    fail("invalid_input", `metadata is not valid JSON: ${(error as Error).message}`);
  }
  const parsed = UploadMetadata.safeParse(object);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    fail(
      "invalid_input",
      `metadata${issue?.path.length ? `.${issue.path.join(".")}` : ""}: ${issue?.message}`,
    );
  }
  return parsed.data;
}

/** The folder an upload goes to: `custom-documents` unless the form names one (one plain name, no path). */
export function uploadFolder(value: unknown): string {
  if (value === undefined || value === null || value === "") return DEFAULT_FOLDER;
  const name = String(value).trim();
  if (!/^[\p{L}\p{N}_][\p{L}\p{N}._-]{0,200}$/u.test(name)) {
    fail("invalid_input", `"${name}" is not a folder name: use letters, digits, ".", "_" and "-".`);
  }
  return name;
}

/**
 * Parses a file in the parse worker; a file that cannot be read is a 400 saying why. Audio and video become
 * their transcript (server/speech/transcribe.ts).
 */
export async function parseUpload(deps: Deps, name: string, bytes: Uint8Array): Promise<ParsedDocument> {
  if (isMediaFile(name)) return await transcribeUpload(deps, name, bytes);
  try {
    return await parseFile({ name, bytes }, parseLimits(deps.config), deps.log);
  } catch (error) {
    if (error instanceof ParseFailure) fail("invalid_input", error.message);
    throw error;
  }
}

/**
 * Reads the `file` of an upload form (with its `metadata` and `folderName`), parses it in the parse worker
 * within the upload limits, and stores the document; the original is kept under a generated name. Nothing is
 * stored when the file is too large or cannot be read.
 */
export async function receiveUpload(
  deps: Deps,
  request: Request,
  form: Record<string, unknown>,
): Promise<StoredDocument> {
  const received = await receive(deps, request, form, null);
  try {
    await deps.documents.commitPrepared(received.save);
  } catch (error) {
    await received.discard();
    throw error;
  }
  return received.save.stored;
}

/** The embedder an upload will be embedded with, or null when none is usable (the embedding then says why). */
export function activeEmbedder(deps: Deps): Embedder | null {
  try {
    return deps.providers.embedder();
  } catch {
    return null;
  }
}

/**
 * An upload received for embedding: its document file and original are written, its library row is not yet
 * (`save.row`): the caller commits it with the embedding's first write (one commit for both), or alone.
 */
export interface ReceivedUpload {
  save: PreparedSave;
  prepared?: PreparedDocument;
  /** Removes the document's file and the kept original (when the row could not be written). */
  discard(): Promise<void>;
}

/**
 * `receiveUpload` for an upload embedded next with `embedder`, its library row not yet written (ReceivedUpload):
 * when the embedder is the built-in lexical embedder, the parse worker also splits the text and embeds the chunks
 * (prepared_chunks.ts), and they come back with the document for `addDocuments`; otherwise there are none and
 * the embedding happens as usual.
 */
export async function receiveUploadToEmbed(
  deps: Deps,
  request: Request,
  form: Record<string, unknown>,
  embedder: Embedder | null,
): Promise<ReceivedUpload> {
  return await receive(deps, request, form, embedder && isLexicalEmbedder(embedder) ? embedder : null);
}

/** `receiveUploadToEmbed` with the library row written at once (for callers that embed it later, or not). */
export async function receiveAndSaveToEmbed(
  deps: Deps,
  request: Request,
  form: Record<string, unknown>,
  embedder: Embedder | null,
): Promise<{ stored: StoredDocument; prepared?: PreparedDocument }> {
  const received = await receiveUploadToEmbed(deps, request, form, embedder);
  try {
    await deps.documents.commitPrepared(received.save);
  } catch (error) {
    received.prepared?.release();
    await received.discard();
    throw error;
  }
  return { stored: received.save.stored, prepared: received.prepared };
}

async function receive(
  deps: Deps,
  request: Request,
  form: Record<string, unknown>,
  lexical: Embedder | null,
): Promise<ReceivedUpload> {
  const file = form.file;
  if (!(file instanceof File || file instanceof FormFile)) {
    fail("invalid_input", 'No file was sent: use a multipart form with the field "file".');
  }
  const metadata = uploadMetadata(form.metadata);
  const folder = uploadFolder(form.folderName);
  const title = file.name.split(/[\\/]/).pop() || "document";
  if (file.size > deps.config.maxUploadBytes) {
    fail(
      "too_large",
      `The file is too large: the limit is ${Math.round(deps.config.maxUploadBytes / 1024 / 1024)} MB.`,
    );
  }
  // The upload's bytes are let go once parsed and kept (issue 21): a large upload is not held while it is
  // stored and embedded. A FormFile hands them over without a copy.
  let bytes: Uint8Array | null = file instanceof FormFile
    ? file.take()
    : new Uint8Array(await file.arrayBuffer());
  const size = bytes.length;
  const started = performance.now();
  // The document's date and header are fixed before the parse when the worker makes its chunks.
  const published = new Date().toLocaleString("en-US");
  const documentTitle = metadata.title ?? title;
  const chunkSource = metadata.chunkSource ?? "";
  const plan: ChunkPlan | null = lexical && !isMediaFile(title)
    ? {
      ...chunkSettings(deps.settings, lexical.maxChunkLength),
      header: chunkHeader({ title: documentTitle, published, chunkSource }),
    }
    : null;
  // A file whose chunks the worker makes waits for a place among those the server holds (holdPreparedSlot);
  // the place is freed once the chunks are written (PreparedDocument.release) or when this fails.
  const release = plan ? await holdPreparedSlot() : () => {};
  let held = false;
  // The original is kept under a generated name (the user's file name never becomes a path). It is written
  // (and synced) while the file parses; a file that cannot be read leaves it removed again.
  const extension = extensionOf(title);
  const uploadName = `${crypto.randomUUID()}${/^\.[a-z0-9]{1,10}$/.test(extension) ? extension : ""}`;
  const uploadPath = join(deps.paths.uploads, uploadName);
  const keeping = writeFileAtomic(uploadPath, bytes).then(() => null, (error: unknown) => ({ error }));
  const removeOriginal = async () => {
    await keeping;
    await Deno.remove(uploadPath).catch(() => {});
  };
  try {
    let parsedFile: ParsedFile;
    try {
      parsedFile = plan
        ? await parseToChunks(deps, title, bytes, plan)
        : { document: await parseUpload(deps, title, bytes) };
    } catch (error) {
      await removeOriginal();
      throw error;
    }
    // The bytes are freed once the original's write is done too, not at V8's next full collection (issue 21).
    const parsedBytes = bytes;
    bytes = null;
    keeping.then(() => freeBytes(parsedBytes));
    const { document: parsed, chunks } = parsedFile;
    deps.log.debug("Upload parsed", {
      name: title,
      bytes: size,
      ms: Math.round(performance.now() - started),
      path: new URL(request.url).pathname,
    });
    try {
      const made = await deps.documents.prepare({
        fileStem: title,
        title: documentTitle,
        url: `file://${documentFileStem(title)}`,
        docAuthor: metadata.docAuthor ?? parsed.docAuthor,
        description: metadata.description ?? parsed.description,
        docSource: metadata.docSource ?? parsed.docSource,
        chunkSource,
        published,
        text: parsed.text,
        tokenCountEstimate: chunks?.summary.tokens ?? parsed.tokens,
        pageBreaks: parsed.pageBreaks,
        folder,
        uploadName,
      });
      // The original's write (begun before the parse) and the document's run on while the upload is embedded:
      // the library row waits for both (PreparedSave.written), and fails with the first's error.
      const written = Promise.all([
        made.written,
        keeping.then((kept) => {
          if (kept) throw kept.error;
        }),
      ]).then(() => {});
      written.catch(() => {});
      const save: PreparedSave = { ...made, written };
      const discard = async () => {
        await save.discard();
        await removeOriginal();
      };
      if (!plan || !lexical || !chunks) return { save, discard };
      held = true;
      return {
        save,
        discard,
        prepared: {
          document: save.document,
          chunks: new PreparedChunks(
            lexical.fingerprint,
            plan,
            chunks.summary,
            chunks.bytes,
            chunks.cacheText,
          ),
          // Released once the chunks are written or dropped: their vectors and cache text are freed with the place.
          release: () => {
            freeBytes(chunks.bytes);
            freeBytes(chunks.cacheText);
            release();
          },
        },
      };
    } catch (error) {
      await removeOriginal();
      throw error;
    }
  } finally {
    if (!held) release();
  }
}

async function parseToChunks(
  deps: Deps,
  name: string,
  bytes: Uint8Array,
  plan: ChunkPlan,
): Promise<ParsedFile> {
  try {
    return await parseAndChunk({ name, bytes }, parseLimits(deps.config), plan, deps.log);
  } catch (error) {
    if (error instanceof ParseFailure) fail("invalid_input", error.message);
    throw error;
  }
}
