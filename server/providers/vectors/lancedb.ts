import type { Connection, Table } from "@lancedb/lancedb";
import type { Logger } from "../../log.ts";
import { messageOf, ProviderError } from "../../errors.ts";
import { fullTextQuery, reciprocalRankFusion } from "./fusion.ts";
import {
  configureLanceRuntime,
  FTS_INDEX,
  fullTextIndexOptions,
  type MaintenanceTask,
  runMaintenance,
  type RunningTask,
} from "./maintenance_worker.ts";
import {
  cosineSimilarity,
  type SearchOptions,
  similarityOf,
  type VectorHit,
  type VectorRecord,
  type VectorStore,
} from "./types.ts";

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
/** Quiet time after the last write before a table is compacted and its indexes updated. */
const MAINTENANCE_DELAY_MS = 2_000;
/** Old table versions are kept this long (a reader may still be on one), then their files are removed. */
const KEEP_VERSIONS_MS = 10 * 60_000;
/**
 * LanceDB's caches default to 6 GB of index data and 1 GB of file metadata per process, which a long ingest
 * fills (the server grew past 1.3 GB on the corpus benchmark). These bounds keep an HNSW index of a few hundred
 * thousand 384-d chunks and the full-text indexes of the busy workspaces in memory.
 */
const INDEX_CACHE_BYTES = 256n * 1024n * 1024n;
const METADATA_CACHE_BYTES = 64n * 1024n * 1024n;
/**
 * Commits after which the store moves to a fresh connection. A LanceDB connection keeps memory for every version
 * committed through it, whatever its cache bounds: 1,700 adds of 34 rows grew the process by 600 MB, all of it
 * returned only when the tables and the connection were closed. Opening the tables again takes milliseconds.
 */
const RECONNECT_AFTER_COMMITS = 200;
/** Maintenance waits for a quiet moment, but no longer than this while writes keep coming (a long ingest). */
const MAINTENANCE_MAX_WAIT_MS = 60_000;
/** How long close() waits for background work before stopping it and closing the connection. */
const CLOSE_WAIT_MS = 5_000;

const ANN_INDEX = /^vector_ann_(\d+)$/;
const HIT_COLUMNS = ["id", "doc_id", "text", "metadata"];

const quote = (value: string) => `'${value.replaceAll("'", "''")}'`;

/** Runs tasks one at a time per key: LanceDB commits to one table must not race. */
class KeyedQueue {
  private readonly tails = new Map<string, Promise<unknown>>();
  /** Keys with queued or running tasks. */
  keys(): string[] {
    return [...this.tails.keys()];
  }
  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const next = previous.catch(() => {}).then(task);
    this.tails.set(key, next);
    next.finally(() => {
      if (this.tails.get(key) === next) this.tails.delete(key);
    }).catch(() => {});
    return next;
  }
}

interface AnnIndex {
  name: string;
  /** Rows the index was trained on (kept in its name, so it survives a restart). */
  rows: number;
  /** Its HNSW graphs; 0 for an index Lectern did not make. */
  partitions: number;
}

/** One LanceDB connection with the tables opened through it; retired once it has made enough commits. */
interface Generation {
  connection: Connection;
  commits: number;
}

interface TableState {
  table: Table;
  generation: Generation;
  fts: boolean;
  ann: AnnIndex | null;
  /** Rows at the last failed build: the next try waits for some growth instead of failing in a loop. */
  annFailedAt: number | null;
}

export interface LanceStoreOptions {
  log?: Logger;
  /** Rows from which a table gets an ANN index; tests lower it. */
  annMinRows?: number;
  maintenanceDelayMs?: number;
  /** Commits after which the store moves to a fresh connection; tests lower it. */
  reconnectAfterCommits?: number;
}

/** What a table's indexes look like, for tests and the benchmark. */
export interface IndexState {
  fullText: boolean;
  ann: { rows: number } | null;
}

export interface LanceStore extends VectorStore {
  /** Runs pending maintenance now and resolves once every background task (index builds included) has ended. */
  idle(): Promise<void>;
  indexState(namespace: string): Promise<IndexState | null>;
  /** Connections opened so far (one, plus one per move to a fresh connection). */
  connectionsOpened(): number;
}

type Row = Record<string, unknown>;

function vectorOf(value: unknown): ArrayLike<number> {
  const column = value as { toArray?: () => ArrayLike<number> } | ArrayLike<number> | null;
  if (column && typeof (column as { toArray?: unknown }).toArray === "function") {
    return (column as { toArray: () => ArrayLike<number> }).toArray();
  }
  return (column as ArrayLike<number>) ?? [];
}

function hitOf(row: Row, score: number): VectorHit {
  return {
    id: String(row.id),
    docId: String(row.doc_id),
    text: String(row.text),
    metadata: JSON.parse(String(row.metadata)),
    score,
  };
}

function annIndexOf(name: string): AnnIndex | null {
  const match = ANN_INDEX.exec(name);
  if (!match) return null;
  const rows = Number(match[1]);
  return { name, rows, partitions: Math.max(1, Math.ceil(rows / HNSW_ROWS_PER_PARTITION)) };
}

const isCommitConflict = (error: unknown) => /commit conflict|preempted|retry/i.test(String(error));

/**
 * LanceDB in one folder; one table per namespace. Each table has a BM25 full-text index on the chunk text, made
 * with the table, and once it is large an IVF_HNSW_SQ vector index, built in the background. The native library
 * loads on the first vector operation, so a server that has not searched or embedded yet does not carry it.
 */
export function openLanceStore(directory: string, options: LanceStoreOptions = {}): Promise<LanceStore> {
  const annMinRows = options.annMinRows ?? ANN_MIN_ROWS;
  const delay = options.maintenanceDelayMs ?? MAINTENANCE_DELAY_MS;
  const reconnectAfter = options.reconnectAfterCommits ?? RECONNECT_AFTER_COMMITS;
  const log = options.log;
  let loading: Promise<typeof import("@lancedb/lancedb")> | null = null;
  const lanceModule = () => {
    configureLanceRuntime();
    return (loading ??= import("@lancedb/lancedb"));
  };
  const openGeneration = async (): Promise<Generation> => {
    const lancedb = await lanceModule();
    const session = new lancedb.Session(INDEX_CACHE_BYTES, METADATA_CACHE_BYTES);
    const connection = await lancedb.connect(directory, {}, session);
    opened++;
    return { connection, commits: 0 };
  };
  let connecting: Promise<Generation> | null = null;
  const generation = () => (connecting ??= openGeneration());
  const connect = async () => (await generation()).connection;
  let reconnecting: Promise<void> | null = null;
  /** Reads running on each table handle, and who waits for them to end. */
  const readers = new Map<Table, { count: number; drained: (() => void)[] }>();
  let opened = 0;
  const tables = new Map<string, TableState>();
  const opening = new Map<string, Promise<TableState | null>>();
  const queue = new KeyedQueue();
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  /** When each table's pending maintenance was first asked for (writes postpone it, up to a limit). */
  const pendingSince = new Map<string, number>();
  const background = new Set<Promise<void>>();
  const builds = new Map<string, Promise<void>>();
  let closed = false;

  // No positions: questions are matched word by word, never as phrases, and the index stays small.
  const ftsConfig = async () => fullTextIndexOptions(await lanceModule(), FTS_INDEX);
  const children = new Map<string, Set<RunningTask>>();

  /** Runs a maintenance task in its own process (maintenance_worker.ts) and gives the table's rows after it. */
  async function inChild(namespace: string, task: MaintenanceTask): Promise<number> {
    const running = runMaintenance(task);
    const set = children.get(namespace) ?? new Set();
    children.set(namespace, set);
    set.add(running);
    try {
      const result = await running.result;
      if (!result.ok) throw new Error(result.error);
      return result.rows;
    } finally {
      set.delete(running);
      if (set.size === 0) children.delete(namespace);
    }
  }

  /** The shared handle moves to the latest version, which holds what a maintenance process committed. */
  function refresh(namespace: string, state: TableState): Promise<void> {
    return queue.run(namespace, async () => {
      if (tables.get(namespace) !== state) return;
      await state.table.checkoutLatest();
      const latest = await stateOf(state.table, state.generation);
      state.fts = latest.fts;
      if (latest.ann && latest.ann.rows !== state.ann?.rows) state.ann = latest.ann;
    });
  }

  function track(task: Promise<void>) {
    background.add(task);
    task.finally(() => background.delete(task)).catch(() => {});
  }

  async function stateOf(table: Table, generation: Generation): Promise<TableState> {
    const state: TableState = { table, generation, fts: false, ann: null, annFailedAt: null };
    for (const index of await table.listIndices()) {
      if (index.indexType === "FTS" && index.columns.includes("text")) state.fts = true;
      else if (index.columns.includes("vector")) {
        // An index made by hand under another name counts as built on the rows it holds; its partitions are
        // unknown, so searches keep LanceDB's default probing for it.
        const adopted = annIndexOf(index.name) ?? {
          name: index.name,
          rows: (await table.indexStats(index.name))?.numIndexedRows ?? 0,
          partitions: 0,
        };
        if (!state.ann || adopted.rows > state.ann.rows) state.ann = adopted;
      }
    }
    return state;
  }

  /**
   * LanceDB lists a folder it cannot read as holding no tables, so searches would find nothing and counts say 0:
   * the folder is checked before tables are looked up, and its problem named. A missing folder is made by LanceDB.
   */
  async function checkFolder(): Promise<void> {
    try {
      if (!(await Deno.stat(directory)).isDirectory) throw new Error("it is not a folder");
      for await (const _ of Deno.readDir(directory)) break;
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return;
      throw new ProviderError(
        `The LanceDB folder ${directory} cannot be read: ${messageOf(error)}`,
        undefined,
        {
          cause: error,
        },
      );
    }
  }

  function table(namespace: string): Promise<TableState | null> {
    const cached = tables.get(namespace);
    if (cached) return Promise.resolve(cached);
    let pending = opening.get(namespace);
    if (!pending) {
      pending = (async () => {
        await checkFolder();
        const current = await generation();
        if (!(await current.connection.tableNames()).includes(namespace)) return null;
        let handle: Table;
        try {
          handle = await current.connection.openTable(namespace);
        } catch (error) {
          // Its first add is still creating it: until that commits, the table holds nothing.
          if (/was not found/.test(String(error))) return null;
          throw error;
        }
        const state = await stateOf(handle, current);
        tables.set(namespace, state);
        // A table from before full-text search existed gets its index in the background.
        if (!state.fts) schedule(namespace);
        return state;
      })().finally(() => opening.delete(namespace));
      opening.set(namespace, pending);
    }
    return pending;
  }

  function schedule(namespace: string) {
    if (closed) return;
    const since = pendingSince.get(namespace) ?? Date.now();
    pendingSince.set(namespace, since);
    const wait = Math.min(delay, since + Math.max(delay, MAINTENANCE_MAX_WAIT_MS) - Date.now());
    clearTimeout(timers.get(namespace));
    timers.set(
      namespace,
      setTimeout(() => {
        timers.delete(namespace);
        pendingSince.delete(namespace);
        track(maintain(namespace));
      }, Math.max(0, wait)),
    );
  }

  /** Counts a commit; past the limit the store moves to a fresh connection in the background. */
  function committed(state: TableState) {
    state.generation.commits++;
    if (state.generation.commits >= reconnectAfter && !reconnecting && !closed) {
      const running = reconnect().catch((error) => {
        log?.warn("Cannot reopen the vector tables; the current connection stays", { error: String(error) });
      }).finally(() => (reconnecting = null));
      reconnecting = running;
      track(running);
    }
  }

  /**
   * Opens a fresh connection, moves every table onto it (each in its own queue, so no write is in flight on
   * the old handle), then closes the old tables and connection once the searches on them have ended.
   */
  async function reconnect(): Promise<void> {
    const old = await generation();
    const fresh = await openGeneration();
    if (closed) return fresh.connection.close();
    connecting = Promise.resolve(fresh);
    // Tables being opened through the old connection land in the map before they are moved.
    await Promise.allSettled([...opening.values()]);
    const retired: Table[] = [];
    for (const namespace of new Set([...tables.keys(), ...queue.keys()])) {
      await queue.run(namespace, async () => {
        const state = tables.get(namespace);
        if (closed || !state || state.generation === fresh) return;
        const table = await fresh.connection.openTable(namespace);
        retired.push(state.table);
        state.table = table;
        state.generation = fresh;
      }).catch((error) => {
        // This table stays on the old connection; its next commit starts another move.
        log?.warn("Cannot reopen a vector table", { namespace, error: String(error) });
      });
    }
    await Promise.all(retired.map(closeWhenRead));
    if (![...tables.values()].some((state) => state.generation === old)) old.connection.close();
  }

  /** Runs a read on the table's current handle, which stays open until the read has ended. */
  async function reading<T>(state: TableState, read: (table: Table) => Promise<T>): Promise<T> {
    const table = state.table;
    const entry = readers.get(table) ?? { count: 0, drained: [] };
    readers.set(table, entry);
    entry.count++;
    try {
      return await read(table);
    } finally {
      if (--entry.count === 0) {
        readers.delete(table);
        for (const resolve of entry.drained) resolve();
      }
    }
  }

  /** Closes a handle no one picks up any more once the reads on it have ended (a closed handle must not be read). */
  async function closeWhenRead(table: Table): Promise<void> {
    const entry = readers.get(table);
    if (entry) await new Promise<void>((resolve) => entry.drained.push(resolve));
    table.close();
  }

  /**
   * Compacts the table and folds new rows into its indexes (in a maintenance process, so adds, deletes and
   * searches go on meanwhile), then starts an ANN build when the table needs one.
   */
  async function maintain(namespace: string): Promise<void> {
    if (closed || builds.has(namespace)) return; // a running build schedules maintenance when it ends
    try {
      const state = tables.get(namespace);
      if (!state) return;
      const rows = await inChild(namespace, {
        kind: "maintain",
        directory,
        namespace,
        keepVersionsMs: KEEP_VERSIONS_MS,
        fullText: !state.fts,
      });
      if (closed || tables.get(namespace) !== state) return;
      await refresh(namespace, state);
      const grown = !state.ann || rows >= state.ann.rows * ANN_REBUILD_GROWTH;
      const retry = state.annFailedAt === null || rows >= state.annFailedAt * 1.1;
      if (rows >= annMinRows && grown && retry) startBuild(namespace, state, rows);
    } catch (error) {
      log?.warn("Vector table maintenance failed", { namespace, error: String(error) });
    }
  }

  /**
   * Builds the ANN index in a maintenance process: adds and deletes go on meanwhile (Lance merges the commits),
   * and the rows they add are searched exactly until the next maintenance folds them in. Compaction would
   * preempt the build's commit, so maintenance waits for it.
   */
  function startBuild(namespace: string, state: TableState, rows: number) {
    const partitions = Math.max(1, Math.ceil(rows / HNSW_ROWS_PER_PARTITION));
    const name = `vector_ann_${rows}`;
    const build = (async () => {
      const startedAt = performance.now();
      await inChild(namespace, { kind: "ann", directory, namespace, name, partitions });
      if (closed) return;
      await queue.run(namespace, async () => {
        // The shared handle learns of the new index from the latest version (adds meanwhile are kept).
        await state.table.checkoutLatest();
        for (const index of await state.table.listIndices()) {
          if (index.columns.includes("vector") && index.name !== name) {
            await state.table.dropIndex(index.name);
          }
        }
      });
      state.ann = { name, rows, partitions };
      state.annFailedAt = null;
      log?.info("Vector index built", {
        namespace,
        rows,
        seconds: Math.round((performance.now() - startedAt) / 100) / 10,
      });
    })().catch((error) => {
      state.annFailedAt = rows;
      if (!closed) log?.warn("Vector index build failed", { namespace, rows, error: String(error) });
    }).finally(() => {
      builds.delete(namespace);
      if (tables.get(namespace) === state) schedule(namespace);
    });
    builds.set(namespace, build);
    track(build);
  }

  async function vectorSide(
    table: Table,
    state: TableState,
    vector: number[],
    limit: number,
  ): Promise<VectorHit[]> {
    let query = table.vectorSearch(vector).distanceType("cosine").select([...HIT_COLUMNS, "_distance"])
      .limit(limit);
    if (state.ann) {
      query = query.refineFactor(ANN_REFINE_FACTOR).ef(Math.max(ANN_MIN_EF, limit * ANN_REFINE_FACTOR));
      // Every HNSW graph is probed: with one graph per 500k rows there are few, and each is searched fast.
      if (state.ann.partitions > 0) query = query.nprobes(state.ann.partitions);
    }
    const rows: Row[] = await query.toArray();
    return rows.map((row) => hitOf(row, similarityOf(Number(row._distance))));
  }

  async function textSide(
    namespace: string,
    table: Table,
    vector: number[],
    text: string,
    limit: number,
  ): Promise<VectorHit[]> {
    try {
      const rows: Row[] = await table.query().fullTextSearch(text, { columns: ["text"] })
        .select([...HIT_COLUMNS, "vector", "_score"]).limit(limit).toArray();
      // The threshold judges every hit by its vector similarity, so a chunk found by its words gets one too.
      return rows.map((row) => hitOf(row, cosineSimilarity(vector, vectorOf(row.vector))));
    } catch (error) {
      log?.warn("Full-text search failed; searching by vector only", { namespace, error: String(error) });
      return [];
    }
  }

  return Promise.resolve({
    upsert(namespace: string, records: VectorRecord[]) {
      if (records.length === 0) return Promise.resolve();
      const rows = records.map((record) => ({
        id: record.id,
        doc_id: record.docId,
        text: record.text,
        metadata: JSON.stringify(record.metadata),
        vector: record.vector,
      }));
      return queue.run(namespace, async () => {
        const existing = await table(namespace);
        if (existing) {
          await existing.table.add(rows);
          committed(existing);
        } else {
          const current = await generation();
          const created = await current.connection.createTable(namespace, rows);
          const state: TableState = {
            table: created,
            generation: current,
            fts: false,
            ann: null,
            annFailedAt: null,
          };
          tables.set(namespace, state);
          committed(state);
          try {
            await created.createIndex("text", await ftsConfig());
            state.fts = true;
          } catch (error) {
            log?.warn("Cannot create the full-text index; maintenance tries again", {
              namespace,
              error: String(error),
            });
          }
        }
      }).finally(() => schedule(namespace));
    },

    async search(namespace: string, vector: number[], options: SearchOptions): Promise<VectorHit[]> {
      const state = await table(namespace);
      if (!state) return [];
      const text = options.text ? fullTextQuery(options.text) : "";
      return await reading(state, async (handle) => {
        if (!text || !state.fts) return await vectorSide(handle, state, vector, options.topK);
        // Each side ranks more candidates than asked, so a chunk ranked fairly by both can win the fusion.
        const depth = Math.min(1000, Math.max(20, options.topK * 4));
        const [byVector, byText] = await Promise.all([
          vectorSide(handle, state, vector, depth),
          textSide(namespace, handle, vector, text, depth),
        ]);
        return reciprocalRankFusion([byVector, byText], (hit) => hit.id)
          .slice(0, options.topK)
          .map(({ item }) => item);
      });
    },

    async count(namespace: string) {
      const state = await table(namespace);
      return state ? await reading(state, (handle) => handle.countRows()) : 0;
    },

    deleteDocuments(namespace: string, docIds: string[]) {
      if (docIds.length === 0) return Promise.resolve();
      return queue.run(namespace, async () => {
        const state = await table(namespace);
        if (!state) return;
        for (let attempt = 1;; attempt++) {
          try {
            await state.table.delete(`doc_id IN (${docIds.map(quote).join(", ")})`);
            committed(state);
            return;
          } catch (error) {
            // A maintenance process compacted the rows meanwhile: delete again on the latest version.
            if (attempt >= 3 || !isCommitConflict(error)) throw error;
            await state.table.checkoutLatest();
          }
        }
      });
    },

    async dropNamespaces(prefix: string) {
      await checkFolder();
      for (const name of await (await connect()).tableNames()) {
        if (!name.startsWith(prefix)) continue;
        clearTimeout(timers.get(name));
        timers.delete(name);
        pendingSince.delete(name);
        for (const running of children.get(name) ?? []) running.kill();
        await queue.run(name, async () => {
          const state = tables.get(name);
          tables.delete(name);
          if (state) await closeWhenRead(state.table);
          // The connection of now: a move to a fresh one may have closed the one the names came from.
          await (await connect()).dropTable(name);
        });
      }
    },

    async idle() {
      while (timers.size > 0 || background.size > 0) {
        for (const [namespace, timer] of timers) {
          clearTimeout(timer);
          timers.delete(namespace);
          pendingSince.delete(namespace);
          track(maintain(namespace));
        }
        await Promise.allSettled([...background]);
      }
    },

    connectionsOpened: () => opened,

    async indexState(namespace: string) {
      const state = await table(namespace);
      return state ? { fullText: state.fts, ann: state.ann ? { rows: state.ann.rows } : null } : null;
    },

    async close() {
      closed = true;
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
      // A long index build is not waited for: Lance leaves no half-written index behind.
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        Promise.allSettled([...background]),
        new Promise((resolve) => (timer = setTimeout(resolve, CLOSE_WAIT_MS))),
      ]);
      clearTimeout(timer);
      for (const set of children.values()) for (const running of set) running.kill();
      await Promise.allSettled([...background]);
      await Promise.all([...tables.values()].map((state) => closeWhenRead(state.table)));
      tables.clear();
      if (connecting) (await connecting).connection.close();
    },
  });
}
