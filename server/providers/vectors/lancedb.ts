import type { Connection, Table } from "@lancedb/lancedb";
import type { VectorHit, VectorRecord, VectorStore } from "./types.ts";

const quote = (value: string) => `'${value.replaceAll("'", "''")}'`;

/** Runs tasks one at a time per key: LanceDB commits to one table must not race. */
class KeyedQueue {
  private readonly tails = new Map<string, Promise<unknown>>();
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

/**
 * LanceDB in one folder; one table per namespace. The native library loads on the first vector operation, so
 * a server that has not searched or embedded yet does not carry it.
 */
export function openLanceStore(directory: string): Promise<VectorStore> {
  let connecting: Promise<Connection> | null = null;
  const connect =
    () => (connecting ??= import("@lancedb/lancedb").then((lancedb) => lancedb.connect(directory)));
  const tables = new Map<string, Table>();
  const queue = new KeyedQueue();

  async function table(namespace: string): Promise<Table | null> {
    const cached = tables.get(namespace);
    if (cached) return cached;
    const connection = await connect();
    const names = await connection.tableNames();
    if (!names.includes(namespace)) return null;
    const opened = await connection.openTable(namespace);
    tables.set(namespace, opened);
    return opened;
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
        if (existing) await existing.add(rows);
        else tables.set(namespace, await (await connect()).createTable(namespace, rows));
      });
    },

    async search(namespace: string, vector: number[], options: { topK: number }): Promise<VectorHit[]> {
      const opened = await table(namespace);
      if (!opened) return [];
      const rows = await opened.vectorSearch(vector).distanceType("cosine").limit(options.topK).toArray();
      return rows.map((row: Record<string, unknown>) => ({
        id: String(row.id),
        docId: String(row.doc_id),
        text: String(row.text),
        metadata: JSON.parse(String(row.metadata)),
        score: Math.min(1, Math.max(0, 1 - Number(row._distance))),
      }));
    },

    async count(namespace: string) {
      const opened = await table(namespace);
      return opened ? await opened.countRows() : 0;
    },

    deleteDocuments(namespace: string, docIds: string[]) {
      if (docIds.length === 0) return Promise.resolve();
      return queue.run(namespace, async () => {
        const opened = await table(namespace);
        if (opened) await opened.delete(`doc_id IN (${docIds.map(quote).join(", ")})`);
      });
    },

    async dropNamespaces(prefix: string) {
      const connection = await connect();
      for (const name of await connection.tableNames()) {
        if (!name.startsWith(prefix)) continue;
        await queue.run(name, async () => {
          tables.delete(name);
          await connection.dropTable(name);
        });
      }
    },

    async close() {
      for (const opened of tables.values()) opened.close();
      tables.clear();
      if (connecting) (await connecting).close();
    },
  });
}
