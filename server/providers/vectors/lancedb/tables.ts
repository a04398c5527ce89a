// Connection handling of the LanceDB store: the native module, the connection (moved to a fresh one every so
// many commits), and one shared handle per table, with the writes to a table run one at a time.
import type { Connection, Table } from "@lancedb/lancedb";
import type { Table as ArrowTable } from "apache-arrow";
import type { Logger } from "../../../log.ts";
import { messageOf, ProviderError } from "../../../errors.ts";
import { configureLanceRuntime, FTS_INDEX, fullTextIndexOptions } from "../maintenance_worker.ts";
import { type AnnIndex, annIndexOf } from "./ann.ts";

/**
 * LanceDB's caches default to 6 GB of index data and 1 GB of file metadata per process, which a long ingest
 * fills (the server grew past 1.3 GB on the corpus benchmark). These bounds keep an HNSW index of a few hundred
 * thousand 384-d chunks and the full-text indexes of the busy workspaces in memory.
 */
const INDEX_CACHE_BYTES = 256n * 1024n * 1024n;
/**
 * The file metadata cache: 16 MiB rather than 64 was part of the settings that lowered the corpus ingest's peak
 * (issue 21, measured together with RECONNECT_AFTER_COMMITS at 50 and the allocator settings of server/memory.ts).
 */
const METADATA_CACHE_BYTES = 16n * 1024n * 1024n;
/**
 * Commits after which the store moves to a fresh connection. A LanceDB connection keeps memory for every version
 * committed through it, whatever its cache bounds: 1,700 adds of 34 rows grew the process by 600 MB, all of it
 * returned only when the tables and the connection were closed. Opening the tables again takes milliseconds;
 * every 50 commits rather than 200 kept the corpus ingest's peak lower (issue 21).
 */
export const RECONNECT_AFTER_COMMITS = 50;

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
  /** Resolves once no task is queued or running, those queued meanwhile included. */
  async drained(): Promise<void> {
    while (this.tails.size > 0) await Promise.allSettled([...this.tails.values()]);
  }
}

/** One LanceDB connection with the tables opened through it; retired once it has made enough commits. */
interface Generation {
  connection: Connection;
  commits: number;
}

/** A table's shared handle and what is known of its indexes. */
export interface TableState {
  table: Table;
  generation: Generation;
  fts: boolean;
  ann: AnnIndex | null;
  /** Rows at the last failed build: the next try waits for some growth instead of failing in a loop. */
  annFailedAt: number | null;
}

/** What the tables ask of the rest of the store. */
export interface TableEvents {
  /** Keeps a background task (a move to a fresh connection) until it ends; idle() and close() wait for it. */
  track(task: Promise<void>): void;
  /** A table was opened without its full-text index: maintenance makes it. */
  unindexed(namespace: string): void;
}

export interface LanceTablesOptions {
  reconnectAfterCommits: number;
  log?: Logger;
  events: TableEvents;
}

/** A table's handle and indexes as LanceDB lists them now. */
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
 * The connection and the table handles of one LanceDB folder. The native library loads on the first call that
 * needs it. Reads run on a handle that stays open until they end; writes go through `serial`.
 */
export class LanceTables {
  /** Set by the store's close(): no move to a fresh connection (and no maintenance) starts after it. */
  closed = false;
  private opened = 0;
  private loading: Promise<typeof import("@lancedb/lancedb")> | null = null;
  private connecting: Promise<Generation> | null = null;
  private reconnecting: Promise<void> | null = null;
  /** Reads running on each table handle, and who waits for them to end. */
  private readonly readers = new Map<Table, { count: number; drained: (() => void)[] }>();
  private readonly tables = new Map<string, TableState>();
  private readonly opening = new Map<string, Promise<TableState | null>>();
  private readonly queue = new KeyedQueue();

  constructor(readonly directory: string, private readonly options: LanceTablesOptions) {}

  /** Connections opened so far (one, plus one per move to a fresh connection). */
  connectionsOpened(): number {
    return this.opened;
  }

  lanceModule(): Promise<typeof import("@lancedb/lancedb")> {
    configureLanceRuntime();
    return (this.loading ??= import("@lancedb/lancedb"));
  }

  /** The connection of now (a move to a fresh one closes the one before). */
  async connection(): Promise<Connection> {
    return (await this.generation()).connection;
  }

  /** Runs a task on the table after the ones queued before it: commits to one table must not race. */
  serial<T>(namespace: string, task: () => Promise<T>): Promise<T> {
    return this.queue.run(namespace, task);
  }

  /** The table's state when its handle is open, without opening it. */
  current(namespace: string): TableState | undefined {
    return this.tables.get(namespace);
  }

  /** The table's state, opening its handle the first time; null when the table does not exist (yet). */
  table(namespace: string): Promise<TableState | null> {
    const cached = this.tables.get(namespace);
    if (cached) return Promise.resolve(cached);
    let pending = this.opening.get(namespace);
    if (!pending) {
      pending = this.open(namespace).finally(() => this.opening.delete(namespace));
      this.opening.set(namespace, pending);
    }
    return pending;
  }

  /** Creates the table with its first rows and its full-text index; call within `serial`. */
  async create(namespace: string, rows: Record<string, unknown>[] | ArrowTable): Promise<TableState> {
    const current = await this.generation();
    const created = await current.connection.createTable(namespace, rows);
    const state: TableState = {
      table: created,
      generation: current,
      fts: false,
      ann: null,
      annFailedAt: null,
    };
    this.tables.set(namespace, state);
    this.committed(state);
    try {
      // No positions: questions are matched word by word, never as phrases, and the index stays small.
      await created.createIndex("text", fullTextIndexOptions(await this.lanceModule(), FTS_INDEX));
      state.fts = true;
    } catch (error) {
      this.options.log?.warn("Cannot create the full-text index; maintenance tries again", {
        namespace,
        error: String(error),
      });
    }
    return state;
  }

  /** Counts a commit; past the limit the store moves to a fresh connection in the background. */
  committed(state: TableState): void {
    state.generation.commits++;
    if (
      state.generation.commits >= this.options.reconnectAfterCommits && !this.reconnecting && !this.closed
    ) {
      const running = this.reconnect().catch((error) => {
        this.options.log?.warn("Cannot reopen the vector tables; the current connection stays", {
          error: String(error),
        });
      }).finally(() => (this.reconnecting = null));
      this.reconnecting = running;
      this.options.events.track(running);
    }
  }

  /** The shared handle moves to the latest version, which holds what a maintenance process committed. */
  refresh(namespace: string, state: TableState): Promise<void> {
    return this.queue.run(namespace, async () => {
      if (this.tables.get(namespace) !== state) return;
      await state.table.checkoutLatest();
      const latest = await stateOf(state.table, state.generation);
      state.fts = latest.fts;
      if (latest.ann && latest.ann.rows !== state.ann?.rows) state.ann = latest.ann;
    });
  }

  /** Runs a read on the table's current handle, which stays open until the read has ended. */
  async reading<T>(state: TableState, read: (table: Table) => Promise<T>): Promise<T> {
    const table = state.table;
    const entry = this.readers.get(table) ?? { count: 0, drained: [] };
    this.readers.set(table, entry);
    entry.count++;
    try {
      return await read(table);
    } finally {
      if (--entry.count === 0) {
        this.readers.delete(table);
        for (const resolve of entry.drained) resolve();
      }
    }
  }

  /** Closes the table's handle (once its reads have ended) and drops the table, after its queued writes. */
  drop(namespace: string): Promise<void> {
    return this.queue.run(namespace, async () => {
      const state = this.tables.get(namespace);
      this.tables.delete(namespace);
      if (state) await this.closeWhenRead(state.table);
      // The connection of now: a move to a fresh one may have closed the one the names came from.
      await (await this.connection()).dropTable(namespace);
    });
  }

  /**
   * LanceDB lists a folder it cannot read as holding no tables, so searches would find nothing and counts say 0:
   * the folder is checked before tables are looked up, and its problem named. A missing folder is made by LanceDB.
   */
  async checkFolder(): Promise<void> {
    try {
      if (!(await Deno.stat(this.directory)).isDirectory) throw new Error("it is not a folder");
      for await (const _ of Deno.readDir(this.directory)) break;
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return;
      throw new ProviderError(
        `The LanceDB folder ${this.directory} cannot be read: ${messageOf(error)}`,
        undefined,
        {
          cause: error,
        },
      );
    }
  }

  /** Closes every handle once its reads have ended, then the connection. */
  async close(): Promise<void> {
    this.closed = true;
    // Writes under way end first: closed under them, a table's native write may still be putting files into
    // the folder after close() returned (and the write fails), which the caller then removes or copies.
    await this.queue.drained();
    await Promise.all([...this.tables.values()].map((state) => this.closeWhenRead(state.table)));
    this.tables.clear();
    if (this.connecting) (await this.connecting).connection.close();
  }

  private generation(): Promise<Generation> {
    return (this.connecting ??= this.openGeneration());
  }

  private async openGeneration(): Promise<Generation> {
    const lancedb = await this.lanceModule();
    const session = new lancedb.Session(INDEX_CACHE_BYTES, METADATA_CACHE_BYTES);
    const connection = await lancedb.connect(this.directory, {}, session);
    this.opened++;
    return { connection, commits: 0 };
  }

  private async open(namespace: string): Promise<TableState | null> {
    await this.checkFolder();
    const current = await this.generation();
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
    this.tables.set(namespace, state);
    // A table from before full-text search existed gets its index in the background.
    if (!state.fts) this.options.events.unindexed(namespace);
    return state;
  }

  /**
   * Opens a fresh connection, moves every table onto it (each in its own queue, so no write is in flight on
   * the old handle), then closes the old tables and connection once the searches on them have ended.
   */
  private async reconnect(): Promise<void> {
    const old = await this.generation();
    const fresh = await this.openGeneration();
    if (this.closed) return fresh.connection.close();
    this.connecting = Promise.resolve(fresh);
    // Tables being opened through the old connection land in the map before they are moved.
    await Promise.allSettled([...this.opening.values()]);
    const retired: Table[] = [];
    for (const namespace of new Set([...this.tables.keys(), ...this.queue.keys()])) {
      await this.queue.run(namespace, async () => {
        const state = this.tables.get(namespace);
        if (this.closed || !state || state.generation === fresh) return;
        const table = await fresh.connection.openTable(namespace);
        retired.push(state.table);
        state.table = table;
        state.generation = fresh;
      }).catch((error) => {
        // This table stays on the old connection; its next commit starts another move.
        this.options.log?.warn("Cannot reopen a vector table", { namespace, error: String(error) });
      });
    }
    await Promise.all(retired.map((table) => this.closeWhenRead(table)));
    if (![...this.tables.values()].some((state) => state.generation === old)) old.connection.close();
  }

  /** Closes a handle no one picks up any more once the reads on it have ended (a closed handle must not be read). */
  private async closeWhenRead(table: Table): Promise<void> {
    const entry = this.readers.get(table);
    if (entry) await new Promise<void>((resolve) => entry.drained.push(resolve));
    table.close();
  }
}
