// Small tables' vectors held in memory for an exact scan in plain JS. Under the ANN threshold LanceDB answers a
// vector search by reading and scanning every row from its files (about 3.5 µs a row on 2 cores: 35 ms at 10k
// rows); the same scan over a Float32Array in memory takes a few milliseconds. Only the vectors and LanceDB's row
// ids are kept (about 1.5 KiB a 384-d row); the hits' text and metadata are then taken by row id.
import type { Table } from "@lancedb/lancedb";

/** Memory for all tables' vectors together; the table used longest ago leaves first. */
export const EXACT_CACHE_BYTES = 64 * 1024 * 1024;

/** One table's vectors at one version of its handle. */
export interface ExactRows {
  table: Table;
  /** The handle's version the rows were read at: any commit or checkout makes another. */
  version: number;
  rows: number;
  dimensions: number;
  /** Row after row, `dimensions` each. */
  vectors: Float32Array;
  /** The length of each row's vector. */
  norms: Float32Array;
  /** LanceDB's `_rowid` of each row, valid at `version`. */
  rowIds: bigint[];
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
  // The vector, its norm, and a row id (a bigint in an array: a pointer and a heap number).
  return dimensions * 4 + 4 + 24;
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
  private used = 0;
  private loads = 0;

  constructor(private readonly budgetBytes: number = EXACT_CACHE_BYTES) {}

  /** Times rows were read from LanceDB (tests check that a write makes the next search read them again). */
  loadCount(): number {
    return this.loads;
  }

  /** Bytes held now. */
  bytes(): number {
    return this.used;
  }

  /** Whether the table's rows are in memory now (for tests). */
  holds(namespace: string): boolean {
    const entry = this.entries.get(namespace);
    return entry !== undefined && !("tooLarge" in entry);
  }

  invalidate(namespace: string): void {
    const entry = this.entries.get(namespace);
    if (entry && !("tooLarge" in entry)) this.used -= entry.bytes;
    this.entries.delete(namespace);
    this.loading.delete(namespace);
  }

  clear(): void {
    this.entries.clear();
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
   * budget (the caller searches through LanceDB).
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
    let pending = this.loading.get(namespace);
    if (!pending) {
      pending = this.load(namespace, table, version).finally(() => {
        if (this.loading.get(namespace) === pending) this.loading.delete(namespace);
      });
      this.loading.set(namespace, pending);
    }
    const loaded = await pending;
    // Loaded for another handle or version than this search's (a write landed meanwhile): LanceDB answers.
    return loaded && loaded.table === table && loaded.version === version ? loaded : null;
  }

  private async load(namespace: string, table: Table, version: number): Promise<ExactRows | null> {
    const [count, schema] = await Promise.all([table.countRows(), table.schema()]);
    if (count === 0) return null;
    const field = schema.fields.find((candidate) => candidate.name === "vector");
    const dimensions = (field?.type as { listSize?: number } | undefined)?.listSize ?? 0;
    if (dimensions === 0 || count * bytesPerRow(dimensions) > this.budgetBytes) {
      this.invalidate(namespace);
      this.entries.set(namespace, { table, version, tooLarge: true });
      return null;
    }
    const data = await table.query().select(["vector"]).withRowId().toArrow();
    const rows = data.numRows;
    const bytes = rows * bytesPerRow(dimensions);
    const vectors = new Float32Array(rows * dimensions);
    const norms = new Float32Array(rows);
    const rowIds: bigint[] = new Array(rows);
    let row = 0;
    for (const batch of data.batches) {
      const column = batch.getChild("vector")!;
      const ids = batch.getChild("_rowid")!;
      for (const chunk of column.data) {
        const child = chunk.children[0];
        const values = floatsOf(child.values as ArrayLike<number>);
        const start = chunk.offset * dimensions + child.offset;
        vectors.set(values.subarray(start, start + chunk.length * dimensions), row * dimensions);
        row += chunk.length;
      }
      let at = row - batch.numRows;
      for (const id of ids) rowIds[at++] = BigInt(id as bigint | number);
    }
    for (let index = 0; index < rows; index++) {
      let sum = 0;
      const offset = index * dimensions;
      for (let d = 0; d < dimensions; d++) sum += vectors[offset + d] * vectors[offset + d];
      norms[index] = Math.sqrt(sum);
    }
    this.loads++;
    const loaded: ExactRows = { table, version, rows, dimensions, vectors, norms, rowIds, bytes };
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
 * The `limit` rows closest to `query` by cosine similarity, best first: an exact scan. A row or query of length
 * 0 scores 0, as LanceDB's NaN distance does through `similarityOf`.
 */
export function exactSearch(rows: ExactRows, query: ArrayLike<number>, limit: number): ExactHit[] {
  const { dimensions, vectors, norms } = rows;
  const q = Float32Array.from(query);
  let queryNorm = 0;
  for (let d = 0; d < dimensions; d++) queryNorm += q[d] * q[d];
  queryNorm = Math.sqrt(queryNorm);
  const size = Math.min(limit, rows.rows);
  if (size <= 0) return [];
  const bestScores = new Float64Array(size).fill(-Infinity);
  const bestRows = new Int32Array(size).fill(-1);
  let worst = -Infinity;
  let filled = 0;
  for (let row = 0; row < rows.rows; row++) {
    const offset = row * dimensions;
    let dot = 0;
    let d = 0;
    for (; d + 4 <= dimensions; d += 4) {
      dot += vectors[offset + d] * q[d] + vectors[offset + d + 1] * q[d + 1] +
        vectors[offset + d + 2] * q[d + 2] + vectors[offset + d + 3] * q[d + 3];
    }
    for (; d < dimensions; d++) dot += vectors[offset + d] * q[d];
    const norm = norms[row] * queryNorm;
    // Ranked by the cosine itself (as LanceDB ranks by distance); the score is clamped when reported.
    const score = norm === 0 ? 0 : dot / norm;
    if (filled === size && score <= worst) continue;
    // Insertion into the sorted best list (small: topK or the fusion depth).
    let at = filled < size ? filled++ : size - 1;
    while (at > 0 && bestScores[at - 1] < score) {
      bestScores[at] = bestScores[at - 1];
      bestRows[at] = bestRows[at - 1];
      at--;
    }
    bestScores[at] = score;
    bestRows[at] = row;
    worst = filled === size ? bestScores[size - 1] : -Infinity;
  }
  const hits: ExactHit[] = [];
  for (let index = 0; index < filled; index++) {
    hits.push({ rowId: rows.rowIds[bestRows[index]], score: Math.min(1, Math.max(0, bestScores[index])) });
  }
  return hits;
}
