// The approximate-nearest-neighbour (IVF_HNSW_SQ) index of a LanceDB table: when one is built, how big it is,
// and how searches use it.

/**
 * Rows from which a table gets an ANN index. Measured on 2 cores with 384-d vectors: an exact scan costs about
 * 3.5 µs a row (20k rows ≈ 70 ms a query, 100k ≈ 300 ms), while IVF_HNSW_SQ answers in under 15 ms at any of
 * those sizes and takes about 0.7 s of background CPU per 1,000 rows to build. Below 20k rows the exact scan is
 * fast enough and has perfect recall, so the build is not worth its CPU; above, latency grows with every row.
 */
export const ANN_MIN_ROWS = 20_000;
/** The index is built again from scratch once the table has grown this many times over the rows it was built on. */
export const ANN_REBUILD_GROWTH = 2;
/**
 * Candidates the HNSW graph returns per wanted hit, re-ranked with the full vectors (the index stores 8-bit
 * scalar-quantised copies).
 */
export const ANN_REFINE_FACTOR = 10;
/**
 * Lower bound of the HNSW search breadth (`ef`); it must also cover limit × refine factor. Measured on 100k real
 * chunks (2 cores): ef 600 gave recall@10 0.990 against exact search (ties counted) at 15 ms p50, ef 1500 gave
 * 0.995 at the same p50 and a lower p95; above 1500 recall stays put and latency grows.
 */
export const ANN_MIN_EF = 1500;
/** One HNSW graph per this many rows: a single graph over millions of rows needs too much memory to train. */
const HNSW_ROWS_PER_PARTITION = 500_000;

const ANN_INDEX = /^vector_ann_(\d+)$/;

export interface AnnIndex {
  name: string;
  /** Rows the index was trained on (kept in its name, so it survives a restart). */
  rows: number;
  /** Its HNSW graphs; 0 for an index Lectern did not make. */
  partitions: number;
}

/** The index Lectern builds over `rows` rows. */
export function annIndexFor(rows: number): AnnIndex {
  return {
    name: `vector_ann_${rows}`,
    rows,
    partitions: Math.max(1, Math.ceil(rows / HNSW_ROWS_PER_PARTITION)),
  };
}

/** The index Lectern made under this name, or null for any other name. */
export function annIndexOf(name: string): AnnIndex | null {
  const match = ANN_INDEX.exec(name);
  return match ? { ...annIndexFor(Number(match[1])), name } : null;
}
