import { and, eq, inArray } from "drizzle-orm";
import { workspaceDocuments } from "../../db/schema.ts";
import type { Database } from "../../db/client.ts";
import type { Logger } from "../log.ts";
import type { StoragePaths } from "../storage.ts";
import { messageOf, ProviderError } from "../errors.ts";
import type { Embedder } from "../providers/embedders/types.ts";
import { workspaceNamespace } from "../providers/vectors/namespace.ts";
import { floatVectors, type VectorRecord, type VectorStore } from "../providers/vectors/types.ts";
import type { WorkspaceRow } from "../workspaces/present.ts";
import { chunkHeader, chunkSettings, splitText } from "./chunker.ts";
import { type DocumentJson, type DocumentStore, metadataOf } from "./store.ts";
import { ChunkPages } from "./split.ts";
import { type CommitRiders, withReservedVectors } from "./pending_vectors.ts";
import { type CachedChunk, type CacheWriter, contentHash, VectorCache } from "./vector_cache.ts";
import type { EmbedBatch, EmbedProgress } from "../embedding/progress.ts";
import type { PreparedChunks } from "./prepared_chunks.ts";
import { freeBytes } from "../memory.ts";

/** A stored document with its chunks made where it was parsed (upload.ts's `receiveUploadToEmbed`). */
export interface PreparedDocument {
  document: DocumentJson;
  chunks: PreparedChunks;
  /** Frees the document's place among those the server holds (parse_worker.ts's holdPreparedSlot). */
  release(): void;
}

/** The embedders documents are embedded with, and the gate that holds an embedder switch off meanwhile. */
export interface EmbedderSource {
  /** The active embedder; throws a ProviderError when it is unusable. */
  embedder(): Embedder;
  /** The embedder a running re-embedding job embeds for, or null. */
  targetEmbedder(): Embedder | null;
  embedding: { whileFixed<T>(work: () => Promise<T>): Promise<T> };
}

/** What embedding documents into workspaces uses (each function takes the part it needs). */
export interface IngestDeps {
  db: Database;
  log: Logger;
  settings: { label(label: string): string | undefined };
  paths: Pick<StoragePaths, "vectorCache">;
  vectors: VectorStore;
  documents: Pick<DocumentStore, "read">;
  providers: EmbedderSource;
  embedProgress: EmbedProgress;
}

/**
 * About how many chunks of a document are embedded and written at a time (rounded up to whole calls of the
 * embedder), so a book's chunks are never all held with their vectors: memory stays bounded whatever the size
 * of the document (issue 21).
 */
export const EMBED_BATCH_CHUNKS = 512;

/** The chunks of one batch: `EMBED_BATCH_CHUNKS` rounded up to a whole number of the embedder's calls. */
export function embedBatchSize(
  embedder: Pick<Embedder, "maxInputsPerCall">,
  target = EMBED_BATCH_CHUNKS,
): number {
  const perCall = Math.max(1, embedder.maxInputsPerCall);
  return perCall * Math.max(1, Math.ceil(target / perCall));
}

/** Embeds texts in batches of the embedder's `maxInputsPerCall` (each batch retried by the embedder). */
export async function embedInBatches(
  embedder: Embedder,
  texts: string[],
  signal?: AbortSignal,
  onProgress?: ChunkProgress,
): Promise<number[][]> {
  const vectors: number[][] = [];
  const size = Math.max(1, embedder.maxInputsPerCall);
  for (let start = 0; start < texts.length; start += size) {
    signal?.throwIfAborted();
    const batch = texts.slice(start, start + size);
    const answer = await embedder.embed(batch, signal);
    if (answer.length !== batch.length) {
      throw new ProviderError(`The embedder returned ${answer.length} vectors for ${batch.length} texts.`);
    }
    vectors.push(...answer);
    onProgress?.(vectors.length, texts.length);
  }
  return vectors;
}

/** Told how many of a document's chunks are embedded so far, out of how many. */
export type ChunkProgress = (processed: number, total: number) => void;

/**
 * A document's chunks as `embedder` embeds them (docs/api-compat.md#splitting-and-chunk-headers: the metadata
 * header, then the chunk; each with the page it starts on). They come from the vector cache when it holds
 * this document, text, embedder and splitter settings; otherwise the text is split, embedded and the result
 * cached.
 */
export async function embeddedChunks(
  deps: Pick<IngestDeps, "settings" | "paths" | "log">,
  embedder: Embedder,
  location: string,
  document: DocumentJson,
  signal?: AbortSignal,
  onProgress?: ChunkProgress,
): Promise<{ chunks: CachedChunk[]; cached: boolean }> {
  const chunks: CachedChunk[] = [];
  const batches = embeddedChunkBatches(deps, embedder, location, document, { signal, onProgress });
  for await (const batch of batches) chunks.push(...batch);
  return { chunks, cached: batches.cached };
}

/** The batches of a document's embedded chunks, and whether they came from the vector cache. */
export interface ChunkBatches extends AsyncIterable<CachedChunk[]> {
  /** Known once the first batch is out. */
  readonly cached: boolean;
}

/**
 * A document's embedded chunks as `embeddedChunks` gives them, a batch at a time (`embedBatchSize`): each batch
 * is embedded when the caller asks for it, and written to the vector cache as it goes (the cache file appears
 * only once the last batch is in). A caller that stops early leaves no cache entry.
 */
export function embeddedChunkBatches(
  deps: Pick<IngestDeps, "settings" | "paths" | "log">,
  embedder: Embedder,
  location: string,
  document: DocumentJson,
  options: {
    signal?: AbortSignal;
    onProgress?: ChunkProgress;
    batchSize?: number;
    /** The location was just made (a new upload's generated name): the cache cannot hold it, so it is not read. */
    fresh?: boolean;
  } = {},
): ChunkBatches {
  const state = { cached: false };
  const size = options.batchSize ?? embedBatchSize(embedder);
  async function* batches(): AsyncGenerator<CachedChunk[]> {
    const { signal, onProgress } = options;
    const settings = chunkSettings(deps.settings, embedder.maxChunkLength);
    const header = chunkHeader(document);
    const cache = new VectorCache(deps.paths.vectorCache);
    const key = {
      docpath: location,
      fingerprint: embedder.fingerprint,
      contentHash: contentHash([document.pageContent, header, document.pageBreaks ?? null]),
      ...settings,
    };
    const hit = options.fresh ? null : await cache.read(key);
    if (hit && hit.length > 0) {
      state.cached = true;
      onProgress?.(hit.length, hit.length);
      for (let start = 0; start < hit.length; start += size) yield hit.slice(start, start + size);
      return;
    }

    const pieces = await splitText(document.pageContent, settings);
    if (pieces.length === 0) throw new Error(`${document.title} has no text to embed`);
    const pages = new ChunkPages(document.pageContent, document.pageBreaks);
    // The entry's file opens while the first batch is embedded; each batch's cache write (and after the last,
    // the entry's commit) runs while the caller stores the batch, awaited before the next write (the writes go in
    // order) and before the generator ends. CacheEntry never rejects: a failure drops the entry.
    const opening = CacheEntry.open(cache, key, deps.log, location);
    let caching: Promise<unknown> = opening;
    try {
      for (let start = 0; start < pieces.length; start += size) {
        const batch = pieces.slice(start, start + size);
        const texts = batch.map((piece) => header + piece);
        const vectors = await embedInBatches(
          embedder,
          texts,
          signal,
          onProgress && ((processed) => onProgress(start + processed, pieces.length)),
        );
        const chunks = texts.map((text, index) => {
          const page = pages.pageOf(batch[index]);
          return { text, vector: vectors[index], ...(page === undefined ? {} : { page }) };
        });
        const entry = await opening;
        await caching;
        const last = start + size >= pieces.length;
        caching = entry.write((writer) => writer.add(chunks)).then(() => last ? entry.commit() : undefined);
        yield chunks;
      }
      await caching;
    } finally {
      await caching;
      (await opening).abort();
    }
  }
  const iterable = batches();
  return {
    get cached() {
      return state.cached;
    },
    [Symbol.asyncIterator]: () => iterable,
  };
}

/**
 * A document's vector cache entry while it is written beside its embedding: a failure to write it is logged and
 * drops the entry, never the embedding.
 */
class CacheEntry {
  private constructor(
    private writer: CacheWriter | null,
    private readonly log: Pick<Logger, "warn">,
    private readonly location: string,
  ) {}

  static async open(
    cache: VectorCache,
    key: Parameters<VectorCache["writer"]>[0],
    log: Pick<Logger, "warn">,
    location: string,
  ): Promise<CacheEntry> {
    const entry = new CacheEntry(null, log, location);
    entry.writer = await cache.writer(key).catch((error) => entry.warn(error));
    return entry;
  }

  private warn(error: unknown): null {
    this.log.warn("Cannot write the vector cache", { location: this.location, error: messageOf(error) });
    return null;
  }

  async write(step: (writer: CacheWriter) => Promise<void>): Promise<void> {
    if (!this.writer) return;
    await step(this.writer).catch((error) => {
      this.warn(error);
      this.abort();
    });
  }

  async commit(): Promise<void> {
    await this.write((writer) => writer.commit());
    this.writer = null;
  }

  abort(): void {
    this.writer?.abort();
    this.writer = null;
  }
}

/**
 * `embeddedChunkBatches` for chunks the parse worker made (prepared_chunks.ts): the same batches, each written
 * to the vector cache as it goes, with the vectors as the worker's float32 views. A new upload has no cache
 * entry yet, so none is read.
 */
async function* preparedChunkBatches(
  deps: Pick<IngestDeps, "paths" | "log">,
  embedder: Embedder,
  location: string,
  document: DocumentJson,
  prepared: PreparedChunks,
  options: { signal?: AbortSignal; onProgress?: ChunkProgress },
): AsyncGenerator<{ text: string; vector: Float32Array; page?: number }[]> {
  const total = prepared.count;
  if (total === 0) throw new Error(`${document.title} has no text to embed`);
  const size = embedBatchSize(embedder);
  const cache = new VectorCache(deps.paths.vectorCache);
  const key = {
    docpath: location,
    fingerprint: embedder.fingerprint,
    contentHash: prepared.summary.contentHash,
    chunkSize: prepared.plan.chunkSize,
    chunkOverlap: prepared.plan.chunkOverlap,
  };
  // The worker encoded the cache entry's chunks: their bytes go to the file as they are. The same chunks
  // added to a second workspace have written their entry already.
  // The entry is written and committed while the caller stores the chunks; the generator ends once it is.
  // The bytes are let go once written, not held (by this generator's closure) until the document's last add.
  let cacheText = prepared.takeCacheText();
  const caching = cacheText
    ? CacheEntry.open(cache, key, deps.log, location).then(async (entry) => {
      const bytes = cacheText!;
      cacheText = null;
      await entry.write((writer) => writer.addEncoded(bytes));
      // Its memory now (a book's is megabytes), not at V8's next full collection (issue 21).
      freeBytes(bytes);
      return entry;
    })
    : null;
  let committed = false;
  try {
    for (let start = 0; start < total; start += size) {
      options.signal?.throwIfAborted();
      const chunks = [];
      for (let index = start; index < Math.min(total, start + size); index++) {
        chunks.push(prepared.chunk(document.pageContent, index));
      }
      options.onProgress?.(start + chunks.length, total);
      yield chunks;
    }
    await (await caching)?.commit();
    committed = true;
  } finally {
    if (!committed) (await caching)?.abort();
  }
}

export interface EmbedOutcome {
  added: number;
  failures: string[];
}

/** How addDocuments embeds its documents. */
interface EmbedOptions {
  signal?: AbortSignal;
  prepared?: Map<string, PreparedDocument>;
  /** Writes committed with a document's own (its library row, its events): see withPendingVectors. */
  riders?: Map<string, CommitRiders>;
  /** Documents the caller holds already (just written): not read back from their files. */
  documents?: Map<string, DocumentJson>;
  /**
   * The locations were made for this call (new uploads' generated names): no workspace lists them and the
   * vector cache has no entry for them, so neither is looked up.
   */
  fresh?: boolean;
  /** Told once each document's first vectors are written (the answer of `expectIngest`). */
  written?: () => void;
}

/**
 * Announces to the vector store that an upload being received now will be embedded into the workspace (with the
 * active embedder), so that the adds of concurrent uploads are committed together (VectorStore.expectAdds). The
 * answer is called once the upload's first vectors are written (addDocuments' `written`) and again, for
 * nothing, when it ends in any other way.
 */
export function expectIngest(
  deps: Pick<IngestDeps, "vectors" | "providers">,
  workspace: WorkspaceRow,
): () => void {
  let embedder: Embedder;
  try {
    embedder = deps.providers.embedder();
  } catch {
    return () => {};
  }
  return deps.vectors.expectAdds?.(workspaceNamespace(workspace.id, embedder)) ?? (() => {});
}

/**
 * Splits, embeds and stores each document in the workspace
 * (docs/api-compat.md#embedding-documents-into-a-workspace) with the active embedder; one failure never stops
 * the rest. A re-embedding job in progress picks the new documents up before it switches, and a switch waits
 * for this to end. Each step is reported to the workspace's embedding progress (`embed-progress`), where a
 * document still queued can be taken out (`embed-queue`).
 */
export async function addDocuments(
  deps: IngestDeps,
  workspace: WorkspaceRow,
  locations: string[],
  options: EmbedOptions = {},
): Promise<EmbedOutcome> {
  const unique = [...new Set(locations)];
  if (unique.length === 0) return { added: 0, failures: [] };
  const progress = deps.embedProgress.begin(workspace, unique);
  try {
    return await deps.providers.embedding.whileFixed(() =>
      embedEach(deps, workspace, unique, progress, options)
    );
  } finally {
    progress.end();
  }
}

async function embedEach(
  deps: Omit<IngestDeps, "embedProgress">,
  workspace: WorkspaceRow,
  locations: string[],
  progress: EmbedBatch,
  options: EmbedOptions,
): Promise<EmbedOutcome> {
  const failures: string[] = [];
  let added = 0;
  let embedder: Embedder;
  try {
    embedder = deps.providers.embedder();
  } catch (error) {
    locations.forEach((location, index) => progress.failed(location, index, messageOf(error)));
    return { added, failures: locations.map((location) => `${location}: ${messageOf(error)}`) };
  }
  const namespace = workspaceNamespace(workspace.id, embedder);

  for (const [index, location] of locations.entries()) {
    if (progress.removed(location)) continue;
    progress.starting(location, index);
    try {
      const already = options.fresh ? [] : await deps.db.select({ id: workspaceDocuments.id }).from(
        workspaceDocuments,
      ).where(
        and(eq(workspaceDocuments.workspaceId, workspace.id), eq(workspaceDocuments.docpath, location)),
      );
      if (already.length > 0) {
        progress.complete(location, index);
        continue;
      }
      const prepared = options.prepared?.get(location);
      const document = prepared?.document ?? options.documents?.get(location) ??
        await deps.documents.read(location);
      await embedDocument(deps, embedder, namespace, {
        workspaceId: workspace.id,
        location,
        document,
        prepared: prepared?.chunks,
        riders: options.riders?.get(location),
        fresh: options.fresh,
        written: options.written,
        signal: options.signal,
        onProgress: (processed, total) => progress.chunks(location, processed, total),
      });
      added++;
      progress.complete(location, index);
    } catch (error) {
      deps.log.warn("Cannot embed document", {
        workspace: workspace.slug,
        location,
        error: messageOf(error),
      });
      failures.push(`${location}: ${messageOf(error)}`);
      progress.failed(location, index, messageOf(error));
    }
  }
  return { added, failures };
}

/**
 * Embeds one document and stores it in the workspace under a new document id: its chunks are split, embedded
 * and written to the vector table a batch at a time (embeddedChunkBatches), then its workspace row is committed
 * in one transaction with the end of its pending-vectors record (pending_vectors.ts's withReservedVectors: the
 * record, and so the id, was committed ahead). On any failure the vectors written so far are deleted, so a
 * document is either whole in the workspace or not in it at all; a process killed meanwhile leaves a record from
 * which the next start deletes them.
 */
export async function embedDocument(
  deps: Pick<IngestDeps, "db" | "settings" | "paths" | "log" | "vectors">,
  embedder: Embedder,
  namespace: string,
  target: {
    workspaceId: number;
    location: string;
    document: DocumentJson;
    /** The document's chunks as the parse worker made them; used when they are what `embedder` would make. */
    prepared?: PreparedChunks;
    /** Writes committed with the document's record and with its row (withPendingVectors). */
    riders?: CommitRiders;
    /** A new upload's location: the vector cache is not read for it (embeddedChunkBatches). */
    fresh?: boolean;
    /** Told once the document's first vectors are written. */
    written?: () => void;
    signal?: AbortSignal;
    onProgress?: ChunkProgress;
  },
): Promise<void> {
  const { location, document } = target;
  const metadata = metadataOf(document);
  let written: string | null = null;
  try {
    await withReservedVectors(deps.db, namespace, async (docId) => {
      const options = { signal: target.signal, onProgress: target.onProgress, fresh: target.fresh };
      const prepared = target.prepared &&
          target.prepared.fits(
            embedder.fingerprint,
            chunkSettings(deps.settings, embedder.maxChunkLength),
            chunkHeader(document),
          )
        ? target.prepared
        : null;
      if (prepared) {
        for await (
          const chunks of preparedChunkBatches(deps, embedder, location, document, prepared, options)
        ) {
          const records = floatVectors(chunks.map((chunk) => ({
            id: crypto.randomUUID(),
            docId,
            vector: chunk.vector,
            text: chunk.text,
            metadata: chunk.page === undefined ? metadata : { ...metadata, page: chunk.page },
          })));
          written = docId;
          await deps.vectors.upsert(namespace, records);
          target.written?.();
        }
        return;
      }
      const batches = embeddedChunkBatches(deps, embedder, location, document, options);
      for await (const chunks of batches) {
        const records: VectorRecord[] = chunks.map((chunk) => ({
          id: crypto.randomUUID(),
          docId,
          vector: chunk.vector,
          text: chunk.text,
          metadata: chunk.page === undefined ? metadata : { ...metadata, page: chunk.page },
        }));
        written = docId;
        await deps.vectors.upsert(namespace, records);
        target.written?.();
      }
    }, (db, docId) =>
      db.insert(workspaceDocuments).values({
        docId,
        filename: location.split("/").pop() ?? location,
        docpath: location,
        workspaceId: target.workspaceId,
        metadata: JSON.stringify(metadata),
      }), target.riders);
  } catch (error) {
    if (written) await deps.vectors.deleteDocuments(namespace, [written]).catch(() => {});
    throw error;
  }
}

/**
 * Removes documents from the workspace: their vectors (the active and a job's new embedder's), then their rows.
 * Returns how many of them the workspace held.
 */
export function removeDocuments(
  deps: Pick<IngestDeps, "db" | "vectors" | "providers">,
  workspace: WorkspaceRow,
  locations: string[],
): Promise<number> {
  if (locations.length === 0) return Promise.resolve(0);
  return deps.providers.embedding.whileFixed(async () => {
    const rows = await deps.db.select().from(workspaceDocuments).where(
      and(eq(workspaceDocuments.workspaceId, workspace.id), inArray(workspaceDocuments.docpath, locations)),
    );
    if (rows.length === 0) return 0;
    const docIds = rows.map((row) => row.docId);
    for (const embedder of [activeOrNull(deps.providers), deps.providers.targetEmbedder()]) {
      if (embedder) await deps.vectors.deleteDocuments(workspaceNamespace(workspace.id, embedder), docIds);
    }
    await deps.db.delete(workspaceDocuments).where(inArray(workspaceDocuments.docId, docIds));
    return new Set(rows.map((row) => row.docpath)).size;
  });
}

function activeOrNull(providers: EmbedderSource): Embedder | null {
  try {
    return providers.embedder();
  } catch {
    return null;
  }
}

/**
 * Drops a document's vector cache entries (for the active embedder and a job's new one), for callers that
 * delete the document itself (`remove-document`).
 */
export async function forgetCachedDocument(
  deps: Pick<IngestDeps, "providers" | "paths">,
  location: string,
): Promise<void> {
  const fingerprints = [activeOrNull(deps.providers), deps.providers.targetEmbedder()]
    .flatMap((embedder) => (embedder ? [embedder.fingerprint] : []));
  await new VectorCache(deps.paths.vectorCache).forget(location, fingerprints);
}
