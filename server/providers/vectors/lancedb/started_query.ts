// A LanceDB query started at once, for the hybrid search (store.ts): its full-text side is read by LanceDB's
// threads while the vector side's scan holds this one.
import type { Query, RecordBatchIterator, TakeQuery } from "@lancedb/lancedb";
import type { RecordBatch } from "apache-arrow";
import { plainRows, type Row } from "./plain_rows.ts";

/** LanceDB's stream of a query's batches (the native iterator `Query.nativeExecute` resolves to). */
type NativeBatches = Parameters<typeof RecordBatchIterator>[0] extends Promise<infer I> ? I : never;

/**
 * A query whose execution has started: `reading` resolves once LanceDB's threads are reading its first batch
 * (its plan is made and the batch asked for), so that synchronous work on this thread (the vector side's scan in
 * memory) then runs while they read; `rows` are its rows. `toArray()` asks for the first batch only when this
 * thread is next free, after any such scan: the hybrid search's two sides then ran one after the other
 * (issue 21: 4 + 4.5 ms at 10k chunks where they could take the longer of the two). Without LanceDB's
 * `nativeExecute` (a protected method of its queries) the query runs through `toArray()`.
 *
 * With `atMost` (the query's limit, or the rows a take asks for) the rows are read until that many came: the last
 * call LanceDB would otherwise answer, that there is no further batch, is not made. Each such call is a round
 * trip between this thread and LanceDB's, which waits for both to be scheduled: a hybrid search made two on its
 * way to a chat's first token (issue 21). The native stream left unread is dropped with its iterator.
 */
export function startQuery(
  query: Query | TakeQuery,
  atMost?: number,
): { reading: Promise<void>; rows: Promise<Row[]> } {
  const execute = (query as unknown as { nativeExecute?: () => Promise<NativeBatches> }).nativeExecute;
  if (typeof execute !== "function") {
    return { reading: Promise.resolve(), rows: query.toArrow().then((table) => plainRows([table])) };
  }
  const primed = execute.call(query).then((native) => {
    const first = native.next();
    first.catch(() => {});
    let pending: typeof first | null = first;
    return {
      next: () => {
        const next = pending ?? native.next();
        pending = null;
        return next;
      },
    } as NativeBatches;
  });
  const reading = primed.then(() => {}, () => {});
  const rows = (async () => {
    const batches: RecordBatch[] = [];
    const lance = await import("@lancedb/lancedb");
    let count = 0;
    for await (const batch of lance.RecordBatchIterator(primed)) {
      batches.push(batch);
      count += batch.numRows;
      if (atMost !== undefined && count >= atMost) break;
    }
    return plainRows(batches);
  })();
  return { reading, rows };
}
