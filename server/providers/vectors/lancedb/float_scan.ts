// Small tables' float32 vectors in the memory of a WebAssembly instance, for exact_cache.ts's exact scan: one
// SIMD pass (float_scan.wat, float32 sums over 16 dimensions at a time) gives every row's dot product with the
// query, then only the rows those approximate sums place near the best are scored again in double precision,
// exactly as the plain scan scores every row. The hits, their order and their scores are the plain scan's: a
// float32 sum of n products is within (n + 1) × 2⁻²⁴ × |row| × |query| of the exact one (the usual bound of
// recursive summation), and every row whose sum could rank it among the best, by that bound, is scored again.
// At 10k rows of 384 dimensions on 2 cores the pass took about a quarter of the plain scan's time (issue 21).
import { wasmModuleOnce } from "./wasm_module.ts";
import { FLOAT_SCAN_WASM } from "./float_scan_wasm.ts";

/** The scan's module, compiled once; null where WebAssembly SIMD is not supported. */
const scanModule = wasmModuleOnce(FLOAT_SCAN_WASM);

/**
 * Room for `capacity` rows of `dimensions` float32 values in a WebAssembly instance of their own (freed with the
 * object): `vectors` is a view of that memory, filled by the caller row after row.
 */
export class FloatRows {
  /** Row after row, `dimensions` each. */
  readonly vectors: Float32Array;
  private readonly query: Float32Array;
  private readonly out: Float32Array;
  private readonly dots: (vectors: number, rows: number, stride: number, query: number, out: number) => void;

  private constructor(module: WebAssembly.Module, readonly capacity: number, readonly dimensions: number) {
    const instance = new WebAssembly.Instance(module, {});
    const memory = instance.exports.memory as WebAssembly.Memory;
    this.dots = instance.exports.dots as FloatRows["dots"];
    const queryBytes = Math.ceil((dimensions * 4) / 64) * 64;
    const outAt = queryBytes;
    const vectorsAt = outAt + Math.ceil((capacity * 4) / 64) * 64;
    const needed = vectorsAt + capacity * dimensions * 4;
    const pages = Math.ceil(needed / 65_536) - memory.buffer.byteLength / 65_536;
    if (pages > 0) memory.grow(pages);
    // Views made after the memory's growth (growing detaches the views made before).
    this.query = new Float32Array(memory.buffer, 0, dimensions);
    this.out = new Float32Array(memory.buffer, outAt, capacity);
    this.vectors = new Float32Array(memory.buffer, vectorsAt, capacity * dimensions);
  }

  /**
   * Room for `capacity` rows; null where WebAssembly SIMD is not supported or the rows' length is not a
   * multiple of 4 floats (the scan reads 4 at a time): the plain scan then runs.
   */
  static create(capacity: number, dimensions: number): FloatRows | null {
    if (dimensions <= 0 || dimensions % 4 !== 0 || capacity <= 0) return null;
    const module = scanModule();
    if (!module) return null;
    try {
      return new FloatRows(module, capacity, dimensions);
    } catch {
      return null; // no memory for it: the plain scan
    }
  }

  /** Bytes of its memory. */
  bytes(): number {
    return this.vectors.buffer.byteLength;
  }

  /** The float32 dot product of each of the first `rows` rows with `query` (a view, valid until the next call). */
  dotProducts(query: Float32Array, rows: number): Float32Array {
    this.query.set(query.subarray(0, this.dimensions));
    const stride = this.dimensions * 4;
    this.dots(this.vectors.byteOffset, rows, stride, this.query.byteOffset, this.out.byteOffset);
    return this.out.subarray(0, rows);
  }
}

/**
 * How far a row's cosine from its float32 sum (`FloatRows.dotProducts` divided by the two lengths) may be from
 * the one summed in double precision, with room to spare: the float32 sum of n products is within
 * (n + 1) × 2⁻²⁴ of the exact one, relative to |row| × |query|; the scan's four lanes and four accumulators make
 * each chain of sums about n / 16 long, and the bound takes n + 16.
 */
export function floatScanError(dimensions: number): number {
  return (dimensions + 16) * 2 ** -24;
}
