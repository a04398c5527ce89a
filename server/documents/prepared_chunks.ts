// A document's chunks made where it was parsed (issue 21). With the built-in lexical embedder (pure JavaScript,
// deterministic, no model) the parse worker also splits the text and embeds the chunks, so the garbage of both is
// made in its process, which is counted apart and recycled, not in the server's. It answers with the chunks'
// places in the text (each chunk is a piece of it) and their pages, and the vectors as float32 bytes: the server
// keeps the text it holds anyway, takes each chunk as a slice of it, and writes rows. The chunks and vectors are
// the ones the server would make (ingest.ts's `embeddedChunkBatches`, from the same functions).
import { embedLexical, NATIVE_DIMENSIONS } from "../providers/embedders/native.ts";
import { ChunkPages, contentHash, type SplitOptions, splitText } from "./split.ts";
import { estimateTokens } from "./tokens.ts";
import { encodeCacheChunks } from "./vector_cache.ts";

/** What the worker needs to make a document's chunks as the server would: the splitter settings, the header. */
export interface ChunkPlan extends SplitOptions {
  /** The metadata header each chunk carries (chunkHeader). */
  header: string;
}

/** The JSON part of the worker's chunks; the binary part follows it (`chunkBytes`). */
export interface ChunkSummary {
  count: number;
  dimensions: number;
  /** The vector cache's hash of the text, header and page offsets. */
  contentHash: string;
  /**
   * The text's `token_count_estimate` (estimateTokens), counted here so the server need not load the tokenizer's
   * tables while it ingests.
   */
  tokens: number;
  /** The size of the chunks' vector-cache entry text (encodeCacheChunks, UTF-8), the binary part's last. */
  cacheBytes: number;
  /** Chunks the walk did not find in the text, by index (none in practice: each chunk is a piece of it). */
  literals?: Record<string, string>;
}

/**
 * The binary part's size: per chunk its start, end and page (int32; page 0 for none), then the vectors
 * (float32). The chunks' vector-cache text (`cacheBytes`) comes apart, so the server can let it go first.
 */
export function chunkBytes(summary: Pick<ChunkSummary, "count" | "dimensions">): number {
  return summary.count * (3 + summary.dimensions) * 4;
}

/**
 * The worker's side: the chunks of `text` split as `plan` says, embedded with the lexical embedder. The places
 * and pages come from the walk ingest.ts makes for pages (ChunkPages); the vectors are embedLexical's, rounded to
 * float32 as every store and the vector cache keep them.
 */
export async function lexicalChunks(
  text: string,
  pageBreaks: number[] | undefined,
  plan: ChunkPlan,
): Promise<{ summary: ChunkSummary; bytes: Uint8Array; cacheText: Uint8Array }> {
  const settings = { chunkSize: plan.chunkSize, chunkOverlap: plan.chunkOverlap };
  const pieces = await splitText(text, settings);
  const breaks = pageBreaks?.length ? pageBreaks : undefined;
  const summary: ChunkSummary = {
    count: pieces.length,
    dimensions: NATIVE_DIMENSIONS,
    contentHash: contentHash([text, plan.header, breaks ?? null]),
    tokens: await estimateTokens(text),
    cacheBytes: 0,
  };
  const places = new Int32Array(pieces.length * 3);
  const vectors = new Float32Array(pieces.length * NATIVE_DIMENSIONS);
  const cached: { text: string; vector: Float32Array; page?: number }[] = [];
  const walk = new ChunkPages(text, breaks);
  for (let index = 0; index < pieces.length; index++) {
    const piece = pieces[index];
    const { offset, page } = walk.place(piece);
    if (offset >= 0 && text.startsWith(piece, offset)) {
      places[index * 3] = offset;
      places[index * 3 + 1] = offset + piece.length;
    } else {
      places[index * 3] = -1;
      (summary.literals ??= {})[index] = piece;
    }
    places[index * 3 + 2] = page ?? 0;
    const chunk = plan.header + piece;
    vectors.set(embedLexical(chunk), index * NATIVE_DIMENSIONS);
    const vector = vectors.subarray(index * NATIVE_DIMENSIONS, (index + 1) * NATIVE_DIMENSIONS);
    cached.push({ text: chunk, vector, ...(page === undefined ? {} : { page }) });
  }
  const cacheText = new TextEncoder().encode(encodeCacheChunks(cached));
  summary.cacheBytes = cacheText.length;
  const bytes = new Uint8Array(chunkBytes(summary));
  bytes.set(new Uint8Array(places.buffer), 0);
  bytes.set(new Uint8Array(vectors.buffer), places.byteLength);
  return { summary, bytes, cacheText };
}

/** The server's side: a document's chunks as the worker made them, over the text the server holds. */
export class PreparedChunks {
  private readonly places: Int32Array;
  private readonly vectors: Float32Array;
  /** The chunks' vector-cache text, until it is taken. */
  private cacheText: Uint8Array | null;

  constructor(
    /** The embedder the vectors are for, and the splitter settings and header they were made with. */
    readonly fingerprint: string,
    readonly plan: ChunkPlan,
    readonly summary: ChunkSummary,
    bytes: Uint8Array,
    cacheText: Uint8Array,
  ) {
    if (cacheText.length !== summary.cacheBytes) throw new Error("The parse worker's chunks are incomplete.");
    if (bytes.length !== chunkBytes(summary)) throw new Error("The parse worker's chunks are incomplete.");
    // Typed views need 4-byte alignment.
    const aligned = bytes.byteOffset % 4 === 0 ? bytes : bytes.slice();
    this.places = new Int32Array(aligned.buffer, aligned.byteOffset, summary.count * 3);
    this.vectors = new Float32Array(
      aligned.buffer,
      aligned.byteOffset + summary.count * 3 * 4,
      summary.count * summary.dimensions,
    );
    this.cacheText = cacheText;
  }

  /** The chunks' vector-cache text (once: the bytes are let go). */
  takeCacheText(): Uint8Array | null {
    const text = this.cacheText;
    this.cacheText = null;
    return text;
  }

  get count(): number {
    return this.summary.count;
  }

  /** Whether these chunks are what `fingerprint`'s embedder makes with `settings` and `header`. */
  fits(fingerprint: string, settings: SplitOptions, header: string): boolean {
    return fingerprint === this.fingerprint && settings.chunkSize === this.plan.chunkSize &&
      settings.chunkOverlap === this.plan.chunkOverlap && header === this.plan.header;
  }

  /** Chunk `index` of `content` (the document's text the worker parsed): header and piece, vector, page. */
  chunk(content: string, index: number): { text: string; vector: Float32Array; page?: number } {
    const start = this.places[index * 3];
    const piece = start >= 0
      ? content.slice(start, this.places[index * 3 + 1])
      : this.summary.literals?.[index] ?? "";
    const page = this.places[index * 3 + 2];
    const dimensions = this.summary.dimensions;
    return {
      text: this.plan.header + piece,
      vector: this.vectors.subarray(index * dimensions, (index + 1) * dimensions),
      ...(page > 0 ? { page } : {}),
    };
  }
}
