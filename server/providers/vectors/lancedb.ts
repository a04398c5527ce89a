import type { Logger } from "../../log.ts";
import { ANN_MIN_ROWS } from "./lancedb/ann.ts";
import { LanceMaintenance, MAINTENANCE_DELAY_MS } from "./lancedb/maintenance.ts";
import { type LanceStore, LanceVectorStore } from "./lancedb/store.ts";
import { LanceTables, RECONNECT_AFTER_COMMITS } from "./lancedb/tables.ts";
import { EXACT_CACHE_BYTES, ExactCache } from "./lancedb/exact_cache.ts";

export { ANN_MIN_EF, ANN_MIN_ROWS, ANN_REBUILD_GROWTH, ANN_REFINE_FACTOR } from "./lancedb/ann.ts";
export type { IndexState, LanceStore } from "./lancedb/store.ts";

export interface LanceStoreOptions {
  log?: Logger;
  /** Rows from which a table gets an ANN index; tests lower it. */
  annMinRows?: number;
  maintenanceDelayMs?: number;
  /** Commits after which the store moves to a fresh connection; tests lower it. */
  reconnectAfterCommits?: number;
  /**
   * Memory for small tables' vectors, scanned exactly in memory instead of through LanceDB (exact_cache.ts);
   * 0 turns it off.
   */
  exactCacheBytes?: number;
  /** Tables up to this many rows are held as float32, larger ones as int8 rows; tests lower it. */
  exactFloatMaxRows?: number;
  /** Quiet time after a write before a table with an ANN index is read into memory; tests lower it. */
  quietBeforeLoadMs?: number;
  /** The longest a queued add waits for the adds of announced uploads (lancedb/store.ts); tests raise it. */
  gatherMaxMs?: number;
}

/**
 * LanceDB in one folder; one table per namespace. Each table has a BM25 full-text index on the chunk text, made
 * with the table, and once it is large an IVF_HNSW_SQ vector index, built in the background. Vector searches
 * scan the tables' vectors in memory while they fit (float32 for small tables, int8 for large ones; see
 * lancedb/exact_cache.ts), the index answering the tables that do not. The native library
 * loads on the first vector operation, so a server that has not searched or embedded yet does not carry it.
 *
 * Three parts in lancedb/: tables.ts (the connection and table handles), maintenance.ts (compaction and index
 * builds, scheduled after writes) and store.ts (the VectorStore calls).
 */
export function openLanceStore(directory: string, options: LanceStoreOptions = {}): Promise<LanceStore> {
  const log = options.log;
  const tables: LanceTables = new LanceTables(directory, {
    reconnectAfterCommits: options.reconnectAfterCommits ?? RECONNECT_AFTER_COMMITS,
    log,
    // Called only after both parts exist.
    events: {
      track: (task) => maintenance.track(task),
      unindexed: (namespace) => maintenance.schedule(namespace),
    },
  });
  const maintenance = new LanceMaintenance(tables, {
    delayMs: options.maintenanceDelayMs ?? MAINTENANCE_DELAY_MS,
    annMinRows: options.annMinRows ?? ANN_MIN_ROWS,
    log,
    // Called only once the store exists (maintenance runs after a write through it).
    moved: (namespace) => store.warm(namespace),
  });
  const cache = new ExactCache(options.exactCacheBytes ?? EXACT_CACHE_BYTES, {
    floatMaxRows: options.exactFloatMaxRows,
    quietBeforeLoadMs: options.quietBeforeLoadMs,
  });
  const store = new LanceVectorStore(tables, maintenance, log, cache, options.gatherMaxMs);
  return Promise.resolve(store);
}
