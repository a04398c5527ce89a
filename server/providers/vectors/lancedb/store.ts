// The VectorStore of LanceDB: writes through the tables' queue, searches by vector and by BM25, fused.
import type { Table } from "@lancedb/lancedb";
import type { Table as ArrowTable } from "apache-arrow";
import type { Logger } from "../../../log.ts";
import { fullTextQuery, fuseHybrid, fusionDepth } from "../fusion.ts";
import { withRelatedForms } from "../word_forms.ts";
import { withSoftWords } from "../soft_words.ts";
import {
  cosineSimilarity,
  type SearchOptions,
  similarityOf,
  type VectorHit,
  type VectorRecord,
  type VectorStore,
} from "../types.ts";
import { ANN_MIN_EF, ANN_REFINE_FACTOR } from "./ann.ts";
import { type ExactCache, type ExactHit, type ExactRows, exactSearch, storedVector } from "./exact_cache.ts";
import { rerankDepth } from "./int8_scan.ts";
import type { LanceMaintenance } from "./maintenance.ts";
import type { LanceTables, TableState } from "./tables.ts";
import { addRows, arrowRows, releaseRows } from "./arrow_rows.ts";
import { startQuery } from "./started_query.ts";
import { plainRows, type Row } from "./plain_rows.ts";

/** What a table's indexes look like, for tests and the benchmark. */
export interface IndexState {
  fullText: boolean;
  ann: { rows: number } | null;
}

export interface LanceStore extends VectorStore {
  expectAdds(namespace: string): () => void;
  /** Announced adds a queued add to the table would wait for now. */
  announcedAdds(namespace: string): number;
  /**
   * Runs pending maintenance now and resolves once every background task (index builds and reads of vectors
   * into memory included) has ended.
   */
  idle(): Promise<void>;
  indexState(namespace: string): Promise<IndexState | null>;
  /** Connections opened so far (one, plus one per move to a fresh connection). */
  connectionsOpened(): number;
  /** Reads of small tables' vectors into memory so far, and the bytes they hold now (exact_cache.ts). */
  exactCacheState(): { loads: number; bytes: number };
  /** How the table's vectors are in memory for a scan now (exact_cache.ts): as float32, as int8, or not at all. */
  heldInMemory(namespace: string): "float32" | "int8" | null;
  /** Both rankings before fusion, `depth` deep each (the evaluation measures each side alone). */
  rankings(namespace: string, vector: number[], text: string, depth: number): Promise<Rankings>;
}

export interface Rankings {
  byVector: VectorHit[];
  /** Empty when the question has no word or the table has no full-text index yet. */
  byText: VectorHit[];
  /** The BM25 score of each of `byText`. */
  textScores: number[];
}

/** The most rows queued adds are merged into for one commit (each add's own rows are never split). */
export const COMBINED_ADD_ROWS = 4096;

/** Adds and the LanceDB commits that wrote them, in this process so far (the ingest benchmark prints them). */
export const lanceAddStats = { adds: 0, commits: 0 };

/**
 * The longest a queued add waits for the adds of uploads announced to the table (`expectAdds`) before it is
 * written without them: a partner still parsing a large file does not hold the others up for long.
 */
export const GATHER_MAX_MS = 25;

/** Adds queued for one table, written together when the table's write queue reaches them. */
interface WaitingAdds {
  rows: number;
  adds: { built: Promise<ArrowTable>; settle: PromiseWithResolvers<void> }[];
  /** Handed to the table's write queue (it still takes adds until its write starts). */
  queued: boolean;
  /** Bounds the wait for announced adds (GATHER_MAX_MS). */
  timer?: ReturnType<typeof setTimeout>;
}

const HIT_COLUMNS = ["id", "doc_id", "text", "metadata"];

const quote = (value: string) => `'${value.replaceAll("'", "''")}'`;

const isCommitConflict = (error: unknown) => /commit conflict|preempted|retry/i.test(String(error));

function vectorOf(value: unknown): ArrayLike<number> {
  const column = value as { toArray?: () => ArrayLike<number> } | ArrayLike<number> | null;
  if (column && typeof (column as { toArray?: unknown }).toArray === "function") {
    return (column as { toArray: () => ArrayLike<number> }).toArray();
  }
  return (column as ArrayLike<number>) ?? [];
}

/**
 * A hit as LanceDB gave it, its metadata still the stored JSON: a hybrid search reads some 80 rows and returns
 * topK of them, and only those are parsed (`parsedHit`).
 */
interface LanceHit {
  id: string;
  docId: string;
  text: string;
  metadata: string;
  score: number;
}

function hitOf(row: Row, score: number): LanceHit {
  return {
    id: String(row.id),
    docId: String(row.doc_id),
    text: String(row.text),
    metadata: String(row.metadata),
    score,
  };
}

function parsedHit(hit: LanceHit): VectorHit {
  return {
    id: hit.id,
    docId: hit.docId,
    text: hit.text,
    metadata: JSON.parse(hit.metadata),
    score: hit.score,
  };
}

/** Both rankings before fusion, their metadata unparsed. */
interface LanceRankings {
  byVector: LanceHit[];
  byText: LanceHit[];
  textScores: number[];
}

/** Cosine similarity of a float row and the query (of length `queryNorm`); 0 when either has length 0. */
function cosineOf(values: ArrayLike<number>, query: Float32Array, queryNorm: number): number {
  let dot = 0;
  let sum = 0;
  for (let d = 0; d < query.length; d++) {
    dot += values[d] * query[d];
    sum += values[d] * values[d];
  }
  const norm = Math.sqrt(sum) * queryNorm;
  return norm === 0 ? 0 : dot / norm;
}

/**
 * The `limit` best rows of an int8 table: the scan's candidates taken with their float vectors and ranked by
 * their exact cosine (ties: the earlier row first, as the exact scan does).
 */
async function int8Side(
  table: Table,
  cached: ExactRows,
  vector: number[],
  limit: number,
): Promise<LanceHit[]> {
  const positions = cached.int8!.candidates(vector, rerankDepth(limit));
  if (positions.length === 0) return [];
  const rows = plainRows([
    await table.takeRowIds(positions.map((position) => cached.rowIds[position]))
      .select([...HIT_COLUMNS, "vector"]).withRowId().toArrow(),
  ]);
  const byRowId = new Map(rows.map((row) => [BigInt(row._rowid as bigint), row]));
  const query = Float32Array.from(vector);
  let queryNorm = 0;
  for (const value of query) queryNorm += value * value;
  queryNorm = Math.sqrt(queryNorm);
  const scored = positions.flatMap((position) => {
    const row = byRowId.get(cached.rowIds[position]);
    return row ? [{ row, position, score: cosineOf(vectorOf(row.vector), query, queryNorm) }] : [];
  });
  scored.sort((a, b) => b.score - a.score || a.position - b.position);
  return scored.slice(0, limit).map(({ row, score }) => hitOf(row, Math.min(1, Math.max(0, score))));
}

/** The rows of an exact scan's hits, taken by row id (read until they all came: started_query.ts), best first. */
async function takeHits(table: Table, best: ExactHit[]): Promise<LanceHit[]> {
  if (best.length === 0) return [];
  const rows = await startQuery(
    table.takeRowIds(best.map((hit) => hit.rowId)).select(HIT_COLUMNS).withRowId(),
    best.length,
  ).rows;
  const byRowId = new Map(rows.map((row) => [BigInt(row._rowid as bigint), row]));
  return best.flatMap((hit) => {
    const row = byRowId.get(hit.rowId);
    return row ? [hitOf(row, hit.score)] : [];
  });
}

/**
 * The table's vectors in memory for a search: a table without an ANN index waits for its rows to be read; one
 * with an index is answered by it until they are (they are read in the background). Null when they do not fit.
 */
function heldRows(cache: ExactCache, namespace: string, table: Table, state: TableState) {
  return state.ann ? cache.ready(namespace, table) : cache.rows(namespace, table);
}

/**
 * The closest chunks by cosine similarity: by a scan of the table's vectors in memory (`cached`, exact_cache.ts)
 * when they fit, else through the ANN index when the table has one, else by LanceDB's own scan.
 */
async function vectorSide(
  table: Table,
  state: TableState,
  cached: ExactRows | null,
  vector: number[],
  limit: number,
): Promise<LanceHit[]> {
  if (cached?.int8) return await int8Side(table, cached, vector, limit);
  if (cached) return await takeHits(table, exactSearch(cached, vector, limit));
  let query = table.vectorSearch(vector).distanceType("cosine").select([...HIT_COLUMNS, "_distance"])
    .limit(limit);
  if (state.ann) {
    query = query.refineFactor(ANN_REFINE_FACTOR).ef(Math.max(ANN_MIN_EF, limit * ANN_REFINE_FACTOR));
    // Every HNSW graph is probed: with one graph per 500k rows there are few, and each is searched fast.
    if (state.ann.partitions > 0) query = query.nprobes(state.ann.partitions);
  }
  const rows = plainRows([await query.toArrow()]);
  return rows.map((row) => hitOf(row, similarityOf(Number(row._distance))));
}

/**
 * The best rows by BM25 on their words (with `_score`), started at once; `reading` resolves once LanceDB's
 * threads read them (started_query.ts). With `withVectors` false the rows come without their vectors but with
 * their `_rowid`: a table whose vectors are in memory as float32 has them there (`textSide`), and a take of
 * 40 rows' vectors cost about as much as the full-text search itself (issue 21).
 */
function textRows(table: Table, text: string, limit: number, withVectors: boolean) {
  const query = table.query().fullTextSearch(text, { columns: ["text"] }).limit(limit);
  // LanceDB orders rows of equal BM25 score differently with other projections (even between two runs of one
  // query, at times): "_rowid" first kept the evaluation's rankings as they were with the vectors' projection.
  return startQuery(
    query.select(withVectors ? [...HIT_COLUMNS, "vector", "_score"] : ["_rowid", ...HIT_COLUMNS, "_score"]),
    limit,
  );
}

/**
 * The text side's hits and BM25 scores from its rows. The threshold judges every hit by its vector similarity,
 * so a chunk found by its words gets one too: from the row's vector, or the one in memory at the row's `_rowid`
 * (taken from LanceDB when not there: the rows in memory are of another version).
 */
async function textSide(
  table: Table,
  cached: ExactRows | null,
  vector: number[],
  rows: Row[],
): Promise<{ hits: LanceHit[]; scores: number[] }> {
  const vectors = rows.map((row) =>
    row.vector !== undefined
      ? vectorOf(row.vector)
      : cached && storedVector(cached, BigInt(row._rowid as bigint))
  );
  const missing = rows.flatMap((row, index) => vectors[index] ? [] : [BigInt(row._rowid as bigint)]);
  if (missing.length > 0) {
    const taken = plainRows([await table.takeRowIds(missing).select(["vector"]).withRowId().toArrow()]);
    const byRowId = new Map(taken.map((row) => [BigInt(row._rowid as bigint), vectorOf(row.vector)]));
    rows.forEach((row, index) => (vectors[index] ??= byRowId.get(BigInt(row._rowid as bigint)) ?? []));
  }
  return {
    hits: rows.map((row, index) => hitOf(row, cosineSimilarity(vector, vectors[index] ?? []))),
    scores: rows.map((row) => Number(row._score)),
  };
}

/** The store's calls over its tables (connection handling, tables.ts) and their maintenance (maintenance.ts). */
export class LanceVectorStore implements LanceStore {
  constructor(
    private readonly tables: LanceTables,
    private readonly maintenance: LanceMaintenance,
    private readonly log: Logger | undefined,
    private readonly cache: ExactCache,
    /** The longest a queued add waits for announced ones (GATHER_MAX_MS; tests raise it). */
    private readonly gatherMaxMs: number = GATHER_MAX_MS,
  ) {}

  upsert(namespace: string, records: VectorRecord[]): Promise<void> {
    if (records.length === 0) return Promise.resolve();
    return this.queueAdd(namespace, records);
  }

  /** Adds waiting for each table's write queue, merged into one commit when their turn comes. */
  private readonly waitingAdds = new Map<string, WaitingAdds>();
  /** Uploads announced to each table whose first add has not yet been written or waited for in vain (`expectAdds`). */
  private readonly expected = new Map<string, Set<object>>();

  /**
   * Announces an add to come (an upload being parsed): until the answer is called, a queued add to the table
   * waits for it (at most GATHER_MAX_MS), so that concurrent uploads' adds go in as one commit rather than one
   * each. An announced add that did not come within that time is not waited for again (a large file's parse does
   * not hold up every add meanwhile). The caller calls the answer once its first add is written, or when it will
   * write none (a refused file); calling it again does nothing.
   */
  expectAdds(namespace: string): () => void {
    const token = {};
    let announced = this.expected.get(namespace);
    if (!announced) this.expected.set(namespace, announced = new Set());
    announced.add(token);
    return () => {
      const current = this.expected.get(namespace);
      if (!current?.delete(token)) return;
      if (current.size === 0) this.expected.delete(namespace);
      const waiting = this.waitingAdds.get(namespace);
      if (waiting) this.gathered(namespace, waiting);
    };
  }

  /** Announced adds a queued add to the table would wait for now (tests). */
  announcedAdds(namespace: string): number {
    return this.expected.get(namespace)?.size ?? 0;
  }

  /**
   * Queues an add: the adds that arrive for a table while an earlier write to it runs (concurrent uploads, the
   * batches of a book), or while adds announced to it are awaited (`expectAdds`), go in as one LanceDB commit,
   * up to COMBINED_ADD_ROWS rows. Fewer commits means fewer table versions and fragments, which is what LanceDB's
   * memory grows with during a long ingest, and less of LanceDB's work (each commit cost 3-4 ms of it whatever
   * its size). Each add's rows are built at once (while the earlier write runs); an add whose rows cannot be
   * built fails alone, and a failed commit fails every add in it (none of its rows are written). Each add is
   * answered only once the commit that holds it is through.
   */
  private queueAdd(namespace: string, records: VectorRecord[]): Promise<void> {
    const built = arrowRows(records);
    built.catch(() => {});
    let waiting = this.waitingAdds.get(namespace);
    if (!waiting || waiting.rows + records.length > COMBINED_ADD_ROWS) {
      // A full group waits for nothing more.
      if (waiting) this.queueWrite(namespace, waiting);
      waiting = { rows: 0, adds: [], queued: false };
      this.waitingAdds.set(namespace, waiting);
    }
    waiting.rows += records.length;
    const add = Promise.withResolvers<void>();
    waiting.adds.push({ built, settle: add });
    this.gathered(namespace, waiting);
    return add.promise;
  }

  /**
   * Hands a group of adds to the table's write queue once it holds as many adds as uploads are announced to the
   * table, else waits for them (at most GATHER_MAX_MS).
   */
  private gathered(namespace: string, waiting: WaitingAdds): void {
    if (waiting.queued) return;
    if (waiting.adds.length >= this.announcedAdds(namespace)) this.queueWrite(namespace, waiting);
    else {
      waiting.timer ??= setTimeout(() => {
        // The announced adds that have not come by now are not waited for again.
        this.expected.delete(namespace);
        this.queueWrite(namespace, waiting);
      }, this.gatherMaxMs);
    }
  }

  private queueWrite(namespace: string, waiting: WaitingAdds): Promise<void> {
    if (waiting.queued) return Promise.resolve();
    waiting.queued = true;
    clearTimeout(waiting.timer);
    return this.tables.serial(namespace, () => this.writeAdds(namespace, waiting)).catch(() => {});
  }

  /** Writes the adds waiting for a table as one commit (within the table's write queue). */
  private async writeAdds(namespace: string, waiting: WaitingAdds): Promise<void> {
    if (this.waitingAdds.get(namespace) === waiting) this.waitingAdds.delete(namespace);
    const ready: { rows: ArrowTable; settle: PromiseWithResolvers<void> }[] = [];
    for (const add of waiting.adds) {
      try {
        ready.push({ rows: await add.built, settle: add.settle });
      } catch (error) {
        add.settle.reject(error);
      }
    }
    if (ready.length === 0) return;
    const parts = ready.map((add) => add.rows);
    try {
      const [first, ...rest] = parts;
      const rows = rest.length > 0 ? first.concat(...rest) : first;
      const existing = await this.tables.table(namespace);
      if (existing) {
        await addRows(existing.table, rows, parts);
        this.tables.committed(existing);
      } else await this.tables.create(namespace, rows);
      lanceAddStats.commits++;
      lanceAddStats.adds += ready.length;
      for (const add of ready) add.settle.resolve();
    } catch (error) {
      for (const add of ready) add.settle.reject(error);
    } finally {
      // Their memory now, not at the next full garbage collection (arrow_rows.ts).
      releaseRows(parts);
      this.cache.wrote(namespace);
      this.maintenance.schedule(namespace);
    }
  }

  async search(namespace: string, vector: number[], options: SearchOptions): Promise<VectorHit[]> {
    const state = await this.tables.table(namespace);
    if (!state) return [];
    const text = options.text ? fullTextQuery(options.text) : "";
    if (!text || !state.fts) {
      const hits = await this.tables.reading(
        state,
        async (handle) =>
          vectorSide(
            handle,
            state,
            await heldRows(this.cache, namespace, handle, state),
            vector,
            options.topK,
          ),
      );
      return hits.map(parsedHit);
    }
    const { byVector, byText, textScores } = await this.sides(
      namespace,
      vector,
      text,
      fusionDepth(options.topK),
    );
    const fusion = await withSoftWords(
      await withRelatedForms(options.text ?? "", { ...options.fusion, question: options.text }),
    );
    return fuseHybrid(byVector, byText, textScores, options.topK, fusion).map(parsedHit);
  }

  async rankings(namespace: string, vector: number[], text: string, depth: number): Promise<Rankings> {
    const { byVector, byText, textScores } = await this.sides(namespace, vector, text, depth);
    return { byVector: byVector.map(parsedHit), byText: byText.map(parsedHit), textScores };
  }

  /** `rankings`, the hits' metadata unparsed. */
  private async sides(
    namespace: string,
    vector: number[],
    text: string,
    depth: number,
  ): Promise<LanceRankings> {
    const state = await this.tables.table(namespace);
    if (!state) return { byVector: [], byText: [], textScores: [] };
    const words = fullTextQuery(text);
    return await this.tables.reading(state, async (handle) => {
      const held = this.cache.holds(namespace);
      const text = words && state.fts ? textRows(handle, words, depth, held !== "float32") : null;
      text?.rows.catch(() => {});
      // The rows in memory are looked up (the handle's version asked of LanceDB) while its threads plan the text
      // side: one round trip between the threads instead of two in a row.
      const holding = heldRows(this.cache, namespace, handle, state);
      // A scan of the vectors in memory holds this thread: it starts once LanceDB's threads read the text side.
      const cached = held && text ? (await Promise.all([holding, text.reading]))[0] : await holding;
      const [byVector, rows] = await Promise.all([
        vectorSide(handle, state, cached, vector, depth),
        text?.rows.catch((error) => this.textFailed(namespace, error)) ?? [],
      ]);
      let byText = { hits: [] as LanceHit[], scores: [] as number[] };
      try {
        byText = await textSide(handle, cached, vector, rows);
      } catch (error) {
        this.textFailed(namespace, error);
      }
      return { byVector, byText: byText.hits, textScores: byText.scores };
    });
  }

  /** A failed full-text search: logged, and the search goes on by vector only. */
  private textFailed(namespace: string, error: unknown): Row[] {
    this.log?.warn("Full-text search failed; searching by vector only", { namespace, error: String(error) });
    return [];
  }

  async count(namespace: string): Promise<number> {
    const state = await this.tables.table(namespace);
    if (!state) return 0;
    return await this.tables.reading(state, async (handle) => {
      // The rows in memory at the handle's version are the table's rows: no count through LanceDB.
      const cached = await this.cache.peek(namespace, handle);
      return cached ? cached.rows : await handle.countRows();
    });
  }

  deleteDocuments(namespace: string, docIds: string[]): Promise<void> {
    if (docIds.length === 0) return Promise.resolve();
    return this.tables.serial(namespace, async () => {
      const state = await this.tables.table(namespace);
      if (!state) return;
      for (let attempt = 1;; attempt++) {
        try {
          await state.table.delete(`doc_id IN (${docIds.map(quote).join(", ")})`);
          this.tables.committed(state);
          this.cache.wrote(namespace);
          return;
        } catch (error) {
          // A maintenance process compacted the rows meanwhile: delete again on the latest version.
          if (attempt >= 3 || !isCommitConflict(error)) throw error;
          await state.table.checkoutLatest();
        }
      }
    });
  }

  async dropNamespaces(prefix: string): Promise<void> {
    await this.tables.checkFolder();
    for (const name of await (await this.tables.connection()).tableNames()) {
      if (!name.startsWith(prefix)) continue;
      this.maintenance.cancel(name);
      await this.tables.drop(name);
      this.cache.invalidate(name);
    }
  }

  /**
   * Reads the vectors of a table without an ANN index into memory in the background, when they fit, so that
   * the next search does not wait for them: after maintenance the shared handle is at a new version (a compaction
   * gives the rows new ids), and the first chat after each upload's maintenance paid for that read (35 ms at
   * 10k rows on 2 cores, seconds while the maintenance process still held a core).
   */
  warm(namespace: string): void {
    const state = this.tables.current(namespace);
    if (!state || state.ann || this.tables.closed) return;
    const read = this.tables.reading(state, (handle) => this.cache.rows(namespace, handle));
    this.maintenance.track(read.then(() => {}, () => {}));
  }

  async idle(): Promise<void> {
    await this.maintenance.idle();
    await this.cache.settled();
  }

  connectionsOpened(): number {
    return this.tables.connectionsOpened();
  }

  heldInMemory(namespace: string): "float32" | "int8" | null {
    return this.cache.holds(namespace);
  }

  exactCacheState(): { loads: number; bytes: number } {
    return { loads: this.cache.loadCount(), bytes: this.cache.bytes() };
  }

  async indexState(namespace: string): Promise<IndexState | null> {
    const state = await this.tables.table(namespace);
    return state ? { fullText: state.fts, ann: state.ann ? { rows: state.ann.rows } : null } : null;
  }

  async close(): Promise<void> {
    this.tables.closed = true; // no maintenance, build or move to a fresh connection starts from here on
    // Adds waiting for announced ones are written now, before the tables close.
    await Promise.all(
      [...this.waitingAdds].map(([namespace, waiting]) => this.queueWrite(namespace, waiting)),
    );
    await this.maintenance.stop();
    await this.tables.close();
    this.cache.clear();
  }
}
