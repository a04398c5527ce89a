// Tables' vectors held in memory for a scan in plain JS or WebAssembly. Under the ANN threshold LanceDB answers a
// vector search by reading and scanning every row from its files (about 3.5 µs a row on 2 cores: 35 ms at 10k
// rows); the same scan over a Float32Array in memory takes a few milliseconds. Larger tables are held as int8
// rows (int8_scan.ts), a quarter of the memory, whose scan picks candidates then scored with their float
// vectors. Only the vectors and LanceDB's row ids are kept; the hits' text and metadata are taken by row id.
import type { Table } from "@lancedb/lancedb";
import { FloatRows, floatScanError } from "./float_scan.ts";
import { int8BytesPerRow, Int8Rows } from "./int8_scan.ts";

/** Memory for all tables' vectors together; the table used longest ago leaves first. */
export const EXACT_CACHE_BYTES = 64 * 1024 * 1024;
/** Tables up to this many rows are held as float32 (an exact scan); larger ones as int8 rows (int8_scan.ts). */
export const FLOAT_MAX_ROWS = 20_000;
/**
 * A table with an ANN index is read into memory in the background, and only once this long has passed since its
 * last write: during an ingest each write would make the read start again, and the index answers meanwhile.
 */
export const QUIET_BEFORE_LOAD_MS = 2_000;

export interface ExactCacheOptions {
  floatMaxRows?: number;
  quietBeforeLoadMs?: number;
}

/** One table's vectors at one version of its handle. */
export interface ExactRows {
  table: Table;
  /** The handle's version the rows were read at: any commit or checkout makes another. */
  version: number;
  rows: number;
  dimensions: number;
  /** Row after row, `dimensions` each; empty when the rows are held as int8. */
  vectors: Float32Array;
  /** The WebAssembly memory `vectors` is a view of, for the SIMD pass of `exactSearch` (float_scan.ts), or null. */
  scan: FloatRows | null;
  /** The length of each row's vector; empty when the rows are held as int8. */
  norms: Float32Array;
  /** The rows as int8 (a table over FLOAT_MAX_ROWS), or null. */
  int8: Int8Rows | null;
  /** LanceDB's `_rowid` of each row, valid at `version`. */
  rowIds: BigInt64Array;
  /** Whether `rowIds` increase row after row (LanceDB reads the fragments in order): a row is found by halving. */
  sortedIds: boolean;
  /** Whether `vectors` hold the stored values as they are (a float32 column, not one widened or narrowed). */
  storedFloats: boolean;
  bytes: number;
}

/** A table found too large for the cache at a version: not counted again until it changes. */
interface TooLarge {
  table: Table;
  version: number;
  tooLarge: true;
}

export interface ExactHit {
  rowId: bigint;
  /** Cosine similarity clamped to [0, 1], as `similarityOf` makes of LanceDB's cosine distance. */
  score: number;
}

function bytesPerRow(dimensions: number): number {
  // The vector, its norm, and a row id.
  return dimensions * 4 + 4 + 8;
}

/** A Float32Array of a vector column whatever Arrow type LanceDB gave it (float32, or float16/64 widened). */
function floatsOf(values: ArrayLike<number>): Float32Array {
  return values instanceof Float32Array ? values : Float32Array.from(values);
}

/**
 * The tables' vectors in memory, each valid for one version of one table handle. A search checks the handle's
 * version first: a write through the store, a compaction taken in with checkoutLatest, a move to a fresh
 * connection, each gives another version or handle, and the rows are read again on the next search.
 * `invalidate` drops a table's rows at once (the store calls it on every write, so memory is not held for rows
 * about to be read again).
 */
export class ExactCache {
  private readonly entries = new Map<string, ExactRows | TooLarge>();
  private readonly loading = new Map<string, Promise<ExactRows | null>>();
  /** When each table was last written (invalidated). */
  private readonly written = new Map<string, number>();
  /** Rows of each table at its last read. */
  private readonly sizes = new Map<string, number>();
  private used = 0;
  private loads = 0;
  private readonly floatMaxRows: number;
  private readonly quietMs: number;

  constructor(private readonly budgetBytes: number = EXACT_CACHE_BYTES, options: ExactCacheOptions = {}) {
    this.floatMaxRows = options.floatMaxRows ?? FLOAT_MAX_ROWS;
    this.quietMs = options.quietBeforeLoadMs ?? QUIET_BEFORE_LOAD_MS;
  }

  /** Times rows were read from LanceDB (tests check that a write makes the next search read them again). */
  loadCount(): number {
    return this.loads;
  }

  /** Bytes held now. */
  bytes(): number {
    return this.used;
  }

  /** How the table's rows are in memory now: as float32, as int8, or not at all. */
  holds(namespace: string): "float32" | "int8" | null {
    const entry = this.entries.get(namespace);
    if (entry === undefined || "tooLarge" in entry) return null;
    return entry.int8 ? "int8" : "float32";
  }

  /** Resolves once the reads under way have ended. */
  async settled(): Promise<void> {
    while (this.loading.size > 0) await Promise.allSettled([...this.loading.values()]);
  }

  /** The table was written: its rows leave memory. */
  wrote(namespace: string): void {
    this.written.set(namespace, Date.now());
    this.invalidate(namespace);
  }

  invalidate(namespace: string): void {
    const entry = this.entries.get(namespace);
    if (entry && !("tooLarge" in entry)) this.used -= entry.bytes;
    this.entries.delete(namespace);
    this.loading.delete(namespace);
  }

  clear(): void {
    this.entries.clear();
    this.written.clear();
    this.sizes.clear();
    this.loading.clear();
    this.used = 0;
  }

  /** The table's rows when they are in memory at the handle's current version; never reads them. */
  async peek(namespace: string, table: Table): Promise<ExactRows | null> {
    const entry = this.entries.get(namespace);
    if (!entry || "tooLarge" in entry || entry.table !== table) return null;
    return entry.version === await table.version() ? entry : null;
  }

  /**
   * The table's rows at the handle's current version, read once per version; null when they do not fit in the
   * budget (the caller searches through LanceDB). A large table (int8) just written is not read again until it
   * has been quiet a while: during an ingest LanceDB answers rather than every search reading every row.
   */
  async rows(namespace: string, table: Table): Promise<ExactRows | null> {
    if (this.budgetBytes <= 0) return null;
    const version = await table.version();
    const entry = this.entries.get(namespace);
    if (entry && entry.table === table && entry.version === version) {
      if ("tooLarge" in entry) return null;
      // Most recently used last: eviction takes from the front.
      this.entries.delete(namespace);
      this.entries.set(namespace, entry);
      return entry;
    }
    const large = (this.sizes.get(namespace) ?? 0) > this.floatMaxRows;
    if (large && !this.loading.has(namespace) && !this.quiet(namespace)) return null;
    const loaded = await this.start(namespace, table, version);
    // Loaded for another handle or version than this search's (a write landed meanwhile): LanceDB answers.
    return loaded && loaded.table === table && loaded.version === version ? loaded : null;
  }

  /**
   * The table's rows when they are in memory at the handle's current version. Otherwise null at once (the
   * table's ANN index answers), and the rows are read in the background when the table has been quiet a while.
   */
  async ready(namespace: string, table: Table): Promise<ExactRows | null> {
    if (this.budgetBytes <= 0) return null;
    const version = await table.version();
    const entry = this.entries.get(namespace);
    if (entry && entry.table === table && entry.version === version) {
      if ("tooLarge" in entry) return null;
      this.entries.delete(namespace);
      this.entries.set(namespace, entry);
      return entry;
    }
    if (this.quiet(namespace)) this.start(namespace, table, version).catch(() => {});
    return null;
  }

  /** Whether the table has not been written for a while. */
  private quiet(namespace: string): boolean {
    return Date.now() - (this.written.get(namespace) ?? 0) >= this.quietMs;
  }

  private start(namespace: string, table: Table, version: number): Promise<ExactRows | null> {
    let pending = this.loading.get(namespace);
    if (!pending) {
      pending = this.load(namespace, table, version).finally(() => {
        if (this.loading.get(namespace) === pending) this.loading.delete(namespace);
      });
      this.loading.set(namespace, pending);
    }
    return pending;
  }

  private async load(namespace: string, table: Table, version: number): Promise<ExactRows | null> {
    const [count, schema] = await Promise.all([table.countRows(), table.schema()]);
    this.sizes.set(namespace, count);
    if (count === 0) return null;
    const field = schema.fields.find((candidate) => candidate.name === "vector");
    const dimensions = (field?.type as { listSize?: number } | undefined)?.listSize ?? 0;
    const float = count <= this.floatMaxRows;
    const bytes = count * (float ? bytesPerRow(dimensions) : int8BytesPerRow(dimensions));
    const int8 = dimensions > 0 && !float && bytes <= this.budgetBytes
      ? Int8Rows.create(count, dimensions)
      : null;
    if (dimensions === 0 || bytes > this.budgetBytes || (!float && !int8)) {
      this.invalidate(namespace);
      this.entries.set(namespace, { table, version, tooLarge: true });
      return null;
    }
    const scan = float ? FloatRows.create(count, dimensions) : null;
    const vectors = scan ? scan.vectors : new Float32Array(float ? count * dimensions : 0);
    const rowIds = new BigInt64Array(count);
    let row = 0;
    let storedFloats = true;
    // Batch by batch: a large table's float vectors are never all in memory at once.
    for await (const batch of table.query().select(["vector"]).withRowId()) {
      if (row + batch.numRows > count) return null; // a write landed meanwhile: the count is stale
      const column = batch.getChild("vector")!;
      let at = row;
      for (const chunk of column.data) {
        const child = chunk.children[0];
        if (!(child.values instanceof Float32Array)) storedFloats = false;
        const values = floatsOf(child.values as ArrayLike<number>);
        const start = chunk.offset * dimensions + child.offset;
        if (int8) int8.append(values, start, chunk.length);
        else vectors.set(values.subarray(start, start + chunk.length * dimensions), at * dimensions);
        at += chunk.length;
      }
      for (const id of batch.getChild("_rowid")!) rowIds[row++] = BigInt(id as bigint | number);
    }
    const rows = row;
    let sortedIds = true;
    for (let index = 1; index < rows && sortedIds; index++) sortedIds = rowIds[index - 1] < rowIds[index];
    const norms = new Float32Array(float ? rows : 0);
    for (let index = 0; index < norms.length; index++) {
      let sum = 0;
      const offset = index * dimensions;
      for (let d = 0; d < dimensions; d++) sum += vectors[offset + d] * vectors[offset + d];
      norms[index] = Math.sqrt(sum);
    }
    this.loads++;
    const loaded: ExactRows = {
      table,
      version,
      rows,
      dimensions,
      vectors,
      scan,
      norms,
      int8,
      rowIds,
      sortedIds,
      storedFloats,
      bytes,
    };
    this.invalidate(namespace);
    this.entries.set(namespace, loaded);
    this.used += bytes;
    this.evict(namespace);
    return loaded;
  }

  /** Drops the tables used longest ago until the budget holds, never the one just read. */
  private evict(keep: string): void {
    for (const [namespace, entry] of this.entries) {
      if (this.used <= this.budgetBytes) return;
      if (namespace === keep || "tooLarge" in entry) continue;
      this.invalidate(namespace);
    }
  }
}

/**
 * The stored vector of the row of LanceDB's `_rowid` when the rows are held as float32 exactly as stored, or
 * null (held as int8, the column widened, or no such row at the rows' version).
 */
export function storedVector(rows: ExactRows, rowId: bigint): Float32Array | null {
  if (rows.int8 || !rows.storedFloats) return null;
  const { rowIds } = rows;
  let position = -1;
  if (rows.sortedIds) {
    let low = 0;
    let high = rows.rows - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const id = rowIds[middle];
      if (id === rowId) {
        position = middle;
        break;
      }
      if (id < rowId) low = middle + 1;
      else high = middle - 1;
    }
  } else position = rowIds.subarray(0, rows.rows).indexOf(rowId);
  if (position < 0) return null;
  return rows.vectors.subarray(position * rows.dimensions, (position + 1) * rows.dimensions);
}

/** The dot product of the row at `offset` and `q`, in double precision: the one sum every exact score uses. */
function dotAt(vectors: Float32Array, offset: number, q: Float32Array, dimensions: number): number {
  let dot = 0;
  let d = 0;
  for (; d + 4 <= dimensions; d += 4) {
    dot += vectors[offset + d] * q[d] + vectors[offset + d + 1] * q[d + 1] +
      vectors[offset + d + 2] * q[d + 2] + vectors[offset + d + 3] * q[d + 3];
  }
  for (; d < dimensions; d++) dot += vectors[offset + d] * q[d];
  return dot;
}

/** The best rows by score, best first; ties keep the earlier row (rows are offered in increasing order). */
class BestRows {
  readonly scores: Float64Array;
  readonly rows: Int32Array;
  filled = 0;
  private worst = -Infinity;

  constructor(readonly size: number) {
    this.scores = new Float64Array(size).fill(-Infinity);
    this.rows = new Int32Array(size).fill(-1);
  }

  offer(row: number, score: number): void {
    const { size, scores, rows } = this;
    if (this.filled === size && score <= this.worst) return;
    // Insertion into the sorted best list (small: topK or the fusion depth).
    let at = this.filled < size ? this.filled++ : size - 1;
    while (at > 0 && scores[at - 1] < score) {
      scores[at] = scores[at - 1];
      rows[at] = rows[at - 1];
      at--;
    }
    scores[at] = score;
    rows[at] = row;
    this.worst = this.filled === size ? scores[size - 1] : -Infinity;
  }
}

/** A row's exact score: its cosine with the query, 0 when either has length 0 (as LanceDB's NaN distance). */
function scoreOf(rows: ExactRows, row: number, q: Float32Array, queryNorm: number): number {
  const norm = rows.norms[row] * queryNorm;
  // Ranked by the cosine itself (as LanceDB ranks by distance); the score is clamped when reported.
  return norm === 0 ? 0 : dotAt(rows.vectors, row * rows.dimensions, q, rows.dimensions) / norm;
}

/**
 * The rows that may rank among the `size` best, in increasing order, from the SIMD pass's float32 sums: every
 * row whose cosine from its sum is within twice the sum's error bound of the `size`-th best such cosine (a row of
 * the exact best has an exact cosine at least the `size`-th best's, which is at least that cosine minus the
 * bound). Null when the pass cannot decide (a sum not finite, a length too small for the bound) or would leave
 * too many rows: the plain scan then scores every row.
 */
export function candidateRows(
  rows: ExactRows,
  q: Float32Array,
  queryNorm: number,
  size: number,
): Int32Array | null {
  if (!rows.scan || !(queryNorm > 1e-18) || !Number.isFinite(queryNorm)) return null;
  const { norms } = rows;
  const dots = rows.scan.dotProducts(q, rows.rows);
  const best = new BestRows(size);
  for (let row = 0; row < rows.rows; row++) {
    const norm = norms[row] * queryNorm;
    const score = norm === 0 ? 0 : dots[row] / norm;
    if (!Number.isFinite(score) || (norm !== 0 && norm < 1e-18)) return null;
    best.offer(row, score);
  }
  const threshold = best.scores[best.filled - 1] - 2 * floatScanError(rows.dimensions);
  const most = Math.max(4 * size, rows.rows >> 3);
  const picked = new Int32Array(most);
  let count = 0;
  for (let row = 0; row < rows.rows; row++) {
    const norm = norms[row] * queryNorm;
    if ((norm === 0 ? 0 : dots[row] / norm) < threshold) continue;
    if (count === most) return null;
    picked[count++] = row;
  }
  return picked.subarray(0, count);
}

/**
 * The `limit` rows closest to `query` by cosine similarity, best first: an exact scan. A row or query of length
 * 0 scores 0, as LanceDB's NaN distance does through `similarityOf`. With the rows in WebAssembly memory
 * (float_scan.ts) only the rows its SIMD pass finds near the best are scored: the same hits and scores.
 */
export function exactSearch(rows: ExactRows, query: ArrayLike<number>, limit: number): ExactHit[] {
  const { dimensions } = rows;
  const q = Float32Array.from(query);
  let queryNorm = 0;
  for (let d = 0; d < dimensions; d++) queryNorm += q[d] * q[d];
  queryNorm = Math.sqrt(queryNorm);
  const size = Math.min(limit, rows.rows);
  if (size <= 0) return [];
  const best = new BestRows(size);
  const candidates = candidateRows(rows, q, queryNorm, size);
  if (candidates) {
    for (const row of candidates) best.offer(row, scoreOf(rows, row, q, queryNorm));
  } else {
    for (let row = 0; row < rows.rows; row++) best.offer(row, scoreOf(rows, row, q, queryNorm));
  }
  const hits: ExactHit[] = [];
  for (let index = 0; index < best.filled; index++) {
    hits.push({ rowId: rows.rowIds[best.rows[index]], score: Math.min(1, Math.max(0, best.scores[index])) });
  }
  return hits;
}
