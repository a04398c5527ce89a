// LanceDB's answers as plain objects, read column by column. Arrow's own rows (`toArray()`) are proxies: every
// field read goes through Arrow's visitor, and a hybrid search reads four or five fields of some 80 rows
// (issue 21's profile: the proxies' reads, the hits built from them, about half a millisecond per search).

/** A row: its columns by name, as Arrow gives each value (strings, numbers, bigints, vectors). */
export type Row = Record<string, unknown>;

/** What a record batch and an Arrow table both are: rows in named columns. */
export interface Columnar {
  readonly numRows: number;
  readonly schema: { readonly fields: readonly { readonly name: string }[] };
  getChildAt(index: number): Iterable<unknown> | null;
}

/** The rows of batches (or tables), in order, each a plain object with one property per column. */
export function plainRows(parts: Iterable<Columnar>): Row[] {
  const rows: Row[] = [];
  for (const part of parts) {
    const start = rows.length;
    const end = start + part.numRows;
    for (let index = start; index < end; index++) rows.push({});
    part.schema.fields.forEach((field, column) => {
      const values = part.getChildAt(column);
      if (!values) return;
      let at = start;
      for (const value of values) {
        if (at === end) break;
        rows[at++][field.name] = value;
      }
    });
  }
  return rows;
}
