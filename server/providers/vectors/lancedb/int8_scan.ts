// Large tables' vectors in memory as 8-bit integers, scanned with WebAssembly SIMD (int8_scan.wat). A 384-d row
// takes 384 bytes instead of 1,536, so 100k rows fit in 40 MB, and the scan of all of them takes 2-8 ms on
// 2 cores where LanceDB's IVF_HNSW_SQ index answers in about 15 ms. The scan only picks candidates: the best
// of them are then scored again with their float vectors, so the hits and scores are the exact search's
// unless a true hit ranked below every candidate (measured recall@10 against exact search: see bench/retrieval.ts).
import { wasmModuleOnce } from "./wasm_module.ts";
import { INT8_SCAN_WASM } from "./int8_scan_wasm.ts";

/** The query's int16 scale: products with int8 rows stay within int32 up to 4,096 dimensions. */
const QUERY_SCALE = 16_383;

/** The scan's module, compiled once; null where WebAssembly SIMD is not supported. */
const scanModule = wasmModuleOnce(INT8_SCAN_WASM);

/**
 * How many candidates of the quantised scan are scored again with their float vectors for `limit` hits. On 100k
 * chunks of the corpus (bench/retrieval.ts's queries), the exact top 10 were among the scan's best 10 for 0.981
 * of them, the best 20 for 0.998 and the best 30 for all.
 */
export function rerankDepth(limit: number): number {
  return limit + 20;
}

/** Bytes a table of `rows` rows of `dimensions` takes as int8 rows (with the scan's buffers and row ids). */
export function int8BytesPerRow(dimensions: number): number {
  return Math.ceil(dimensions / 16) * 16 + 4 + 4 + 8;
}

/**
 * One table's rows, each scaled to length 1 and then so that its largest component is 127, kept in the memory of
 * a WebAssembly instance of its own (freed with the object).
 */
export class Int8Rows {
  private readonly scan: (
    vectors: number,
    rows: number,
    stride: number,
    query: number,
    scales: number,
    out: number,
  ) => void;
  private readonly memory: WebAssembly.Memory;
  private readonly stride: number;
  private readonly queryAt = 0;
  private readonly scalesAt: number;
  private readonly outAt: number;
  private readonly vectorsAt: number;
  /** Rows written so far by `append`. */
  filled = 0;

  private constructor(module: WebAssembly.Module, readonly capacity: number, readonly dimensions: number) {
    const instance = new WebAssembly.Instance(module, {});
    this.memory = instance.exports.memory as WebAssembly.Memory;
    this.scan = instance.exports.scan as Int8Rows["scan"];
    this.stride = Math.ceil(dimensions / 16) * 16;
    this.scalesAt = Math.ceil((this.stride * 2) / 64) * 64;
    this.outAt = this.scalesAt + capacity * 4;
    this.vectorsAt = this.outAt + capacity * 4;
    const needed = this.vectorsAt + capacity * this.stride;
    const pages = Math.ceil(needed / 65_536) - this.memory.buffer.byteLength / 65_536;
    if (pages > 0) this.memory.grow(pages);
  }

  /** Room for `capacity` rows; null where WebAssembly SIMD is not supported. */
  static create(capacity: number, dimensions: number): Int8Rows | null {
    const module = scanModule();
    return module ? new Int8Rows(module, capacity, dimensions) : null;
  }

  /** Bytes of its memory. */
  bytes(): number {
    return this.memory.buffer.byteLength;
  }

  /** Adds `count` rows from `values` (row after row, `dimensions` each, from `start`). */
  append(values: ArrayLike<number>, start: number, count: number): void {
    if (this.filled + count > this.capacity) throw new RangeError("More rows than the table counted.");
    const { dimensions, stride } = this;
    const buffer = this.memory.buffer;
    const scales = new Float32Array(buffer, this.scalesAt, this.capacity);
    const vectors = new Int8Array(buffer, this.vectorsAt, this.capacity * stride);
    for (let row = 0; row < count; row++) {
      const from = start + row * dimensions;
      let sum = 0;
      let largest = 0;
      for (let d = 0; d < dimensions; d++) {
        const value = values[from + d];
        sum += value * value;
        const size = Math.abs(value);
        if (size > largest) largest = size;
      }
      const at = (this.filled + row) * stride;
      const norm = Math.sqrt(sum);
      if (norm === 0 || !Number.isFinite(norm)) {
        scales[this.filled + row] = 0;
        vectors.fill(0, at, at + stride);
        continue;
      }
      // value / norm × (127 norm / largest): the largest component becomes ±127.
      const factor = 127 / largest;
      for (let d = 0; d < dimensions; d++) vectors[at + d] = Math.round(values[from + d] * factor);
      scales[this.filled + row] = largest / (127 * norm);
    }
    this.filled += count;
  }

  /**
   * The `count` rows of highest approximate cosine similarity with `query`, best first (ties: the earlier row
   * first), as row positions.
   */
  candidates(query: ArrayLike<number>, count: number): number[] {
    const { dimensions, stride, filled } = this;
    const buffer = this.memory.buffer;
    const wanted = new Int16Array(buffer, this.queryAt, stride);
    let largest = 0;
    for (let d = 0; d < dimensions; d++) largest = Math.max(largest, Math.abs(query[d]));
    const factor = largest > 0 && Number.isFinite(largest) ? QUERY_SCALE / largest : 0;
    for (let d = 0; d < stride; d++) wanted[d] = d < dimensions ? Math.round(query[d] * factor) : 0;
    this.scan(this.vectorsAt, filled, stride, this.queryAt, this.scalesAt, this.outAt);
    const scores = new Float32Array(buffer, this.outAt, filled);
    const size = Math.min(count, filled);
    if (size <= 0) return [];
    const bestScores = new Float64Array(size).fill(-Infinity);
    const bestRows = new Int32Array(size).fill(-1);
    let worst = -Infinity;
    let found = 0;
    for (let row = 0; row < filled; row++) {
      const score = scores[row];
      if (found === size && score <= worst) continue;
      let at = found < size ? found++ : size - 1;
      while (at > 0 && bestScores[at - 1] < score) {
        bestScores[at] = bestScores[at - 1];
        bestRows[at] = bestRows[at - 1];
        at--;
      }
      bestScores[at] = score;
      bestRows[at] = row;
      worst = found === size ? bestScores[size - 1] : -Infinity;
    }
    return Array.from(bestRows.subarray(0, found));
  }
}
