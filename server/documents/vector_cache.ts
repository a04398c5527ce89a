import { Buffer } from "node:buffer";
import { createHash } from "../hash.ts";
import { join } from "node:path";
import { writeFileAtomic } from "../storage.ts";

/** The RFC 4122 URL namespace, as the reference names its cache files. */
const URL_NAMESPACE = "6ba7b811-9dad-11d1-80b4-00c04fd430c8";

/** A name-based (SHA-1) UUID, RFC 4122 version 5. */
export function uuidv5(name: string, namespace = URL_NAMESPACE): string {
  const space = Uint8Array.from(
    namespace.replaceAll("-", "").match(/../g)!.map((byte) => parseInt(byte, 16)),
  );
  const hash = createHash("sha1").update(space).update(new TextEncoder().encode(name)).digest();
  hash[6] = (hash[6] & 0x0f) | 0x50;
  hash[8] = (hash[8] & 0x3f) | 0x80;
  const hex = Array.from(hash.subarray(0, 16), (byte) => byte.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export interface CachedChunk {
  /** The embedded text: metadata header plus chunk. */
  text: string;
  vector: number[];
  page?: number;
}

/** Writes one cache entry a batch at a time (VectorCache.writer). */
export interface CacheWriter {
  /** Vectors may be float32 already (the parse worker's). */
  add(chunks: { text: string; vector: ArrayLike<number>; page?: number }[]): Promise<void>;
  /** Chunks already encoded (`encodeCacheChunks`'s text as UTF-8). */
  addEncoded(bytes: Uint8Array): Promise<void>;
  /** Makes the written chunks the entry. */
  commit(): Promise<void>;
  /** Forgets what was written. */
  abort(): void;
}

/** What a cache entry was made from; any difference makes it a miss. */
export interface CacheKey {
  docpath: string;
  fingerprint: string;
  /** Hash of the document text and the header its chunks carry. */
  contentHash: string;
  chunkSize: number;
  chunkOverlap: number;
}

interface CacheFile extends CacheKey {
  version: 1;
  chunks: { text: string; page?: number; vector: string }[];
}

/** Where a vector of numbers becomes float32 to be encoded (one array, not one per chunk). */
let scratch = new Float32Array(0);

// Vectors are kept as base64 float32 (little-endian): a third of the size of JSON numbers and much faster to read
// back. Uint8Array's toBase64 is native (Buffer's, in Deno, is several times slower).
function encodeVector(vector: ArrayLike<number>): string {
  let floats: Float32Array;
  if (vector instanceof Float32Array) floats = vector;
  else {
    if (scratch.length !== vector.length) scratch = new Float32Array(vector.length);
    scratch.set(vector);
    floats = scratch;
  }
  return new Uint8Array(floats.buffer, floats.byteOffset, floats.byteLength).toBase64();
}

function decodeVector(text: string): number[] {
  const bytes = Buffer.from(text, "base64");
  const aligned = new Uint8Array(bytes.length);
  aligned.set(bytes);
  return Array.from(new Float32Array(aligned.buffer, 0, Math.floor(aligned.length / 4)));
}

export { contentHash } from "./split.ts";

/**
 * The chunks as they appear in a cache file's array (without its brackets, comma-separated). The parse worker
 * makes this text for the chunks it embeds (prepared_chunks.ts), so the server writes its bytes as they come.
 */
export function encodeCacheChunks(
  chunks: { text: string; vector: ArrayLike<number>; page?: number }[],
): string {
  // The JSON of `{ text, page?, vector }` (the order CacheFile's chunks have), made without an object per chunk.
  let out = "";
  for (let index = 0; index < chunks.length; index++) {
    const { text, page, vector } = chunks[index];
    out += `${index === 0 ? "" : ","}{"text":${JSON.stringify(text)}${
      page === undefined ? "" : `,"page":${JSON.stringify(page)}`
    },"vector":"${encodeVector(vector)}"}`;
  }
  return out;
}

/**
 * Embedded chunks per document and embedder under STORAGE_DIR/vector-cache/, so adding a document that was
 * embedded before (into any workspace, or again after a switch back to an earlier embedder) costs no
 * embedding calls. Files are written atomically; a damaged or outdated file is treated as absent.
 */
export class VectorCache {
  constructor(private readonly directory: string) {}

  fileFor(docpath: string, fingerprint: string): string {
    return join(this.directory, `${uuidv5(`${docpath}\n${fingerprint}`)}.json`);
  }

  async read(key: CacheKey): Promise<CachedChunk[] | null> {
    let file: CacheFile;
    try {
      file = JSON.parse(await Deno.readTextFile(this.fileFor(key.docpath, key.fingerprint)));
    } catch {
      return null;
    }
    if (
      file?.version !== 1 || file.docpath !== key.docpath || file.fingerprint !== key.fingerprint ||
      file.contentHash !== key.contentHash || file.chunkSize !== key.chunkSize ||
      file.chunkOverlap !== key.chunkOverlap || !Array.isArray(file.chunks)
    ) {
      return null;
    }
    return file.chunks.map((chunk) => ({
      text: chunk.text,
      vector: decodeVector(chunk.vector),
      ...(chunk.page === undefined ? {} : { page: chunk.page }),
    }));
  }

  async write(key: CacheKey, chunks: CachedChunk[]): Promise<void> {
    await Deno.mkdir(this.directory, { recursive: true });
    const file: CacheFile = {
      version: 1,
      ...key,
      chunks: chunks.map((chunk) => ({
        text: chunk.text,
        ...(chunk.page === undefined ? {} : { page: chunk.page }),
        vector: encodeVector(chunk.vector),
      })),
    };
    // A cache: a file lost or damaged by a crash reads as absent, so it is not synced to disk.
    await writeFileAtomic(this.fileFor(key.docpath, key.fingerprint), JSON.stringify(file), undefined, {
      sync: false,
    });
  }

  /**
   * A writer of the entry for `key` a batch of chunks at a time, so a book's entry is never one string in
   * memory: the chunks go to a temporary file, which becomes the entry on `commit` (atomically, as `write`);
   * `abort` removes it. The file is the same JSON `write` makes.
   */
  async writer(key: CacheKey): Promise<CacheWriter> {
    const path = this.fileFor(key.docpath, key.fingerprint);
    const temporary = `${path}.${crypto.randomUUID()}.tmp`;
    // The folder is made when it is missing (not a system call per document).
    const file = await Deno.open(temporary, { write: true, createNew: true }).catch(async (error) => {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
      await Deno.mkdir(this.directory, { recursive: true });
      return await Deno.open(temporary, { write: true, createNew: true });
    });
    const encoder = new TextEncoder();
    let open = true;
    let first = true;
    let tail: Promise<void> = Promise.resolve();
    const put = (text: string | Uint8Array) => {
      tail = tail.then(async () => {
        const bytes = typeof text === "string" ? encoder.encode(text) : text;
        let offset = 0;
        while (offset < bytes.length) offset += await file.write(bytes.subarray(offset));
      });
      return tail;
    };
    const close = () => {
      if (!open) return;
      open = false;
      file.close();
    };
    // The head of the file `write` makes, up to the array of chunks: `..."chunks":[`.
    const head = JSON.stringify({ version: 1, ...key, chunks: [] } satisfies CacheFile);
    const start = put(head.slice(0, -2));
    start.catch(() => {});
    return {
      add: (chunks) => {
        if (chunks.length === 0) return tail;
        const text = encodeCacheChunks(chunks);
        const written = put(first ? text : `,${text}`);
        first = false;
        return written;
      },
      addEncoded: (bytes) => {
        if (bytes.length === 0) return tail;
        if (!first) put(",");
        first = false;
        return put(bytes);
      },
      commit: async () => {
        try {
          await put("]}");
          close();
          await Deno.rename(temporary, path);
        } catch (error) {
          close();
          await Deno.remove(temporary).catch(() => {});
          throw error;
        }
      },
      abort: () => {
        // After a write under way, if any.
        tail.catch(() => {}).then(() => {
          close();
          return Deno.remove(temporary);
        }).catch(() => {});
      },
    };
  }

  /** Drops a document's entries for the given embedders (a removed document). */
  async forget(docpath: string, fingerprints: string[]): Promise<void> {
    for (const fingerprint of new Set(fingerprints)) {
      await Deno.remove(this.fileFor(docpath, fingerprint)).catch(() => {});
    }
  }

  /** Whether any document's chunks are cached. */
  async hasEntries(): Promise<boolean> {
    try {
      for await (const entry of Deno.readDir(this.directory)) {
        if (entry.isFile && entry.name.endsWith(".json")) return true;
      }
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
    return false;
  }

  /** Empties the cache (the text splitter settings changed). */
  async purge(): Promise<number> {
    let removed = 0;
    try {
      for await (const entry of Deno.readDir(this.directory)) {
        if (!entry.isFile || !entry.name.endsWith(".json")) continue;
        await Deno.remove(join(this.directory, entry.name)).catch(() => {});
        removed++;
      }
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
    return removed;
  }
}
