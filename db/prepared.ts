// Queries whose SQL drizzle builds once per database rather than at every call. Building a select's SQL from
// its query builder took about as long as SQLite took to answer it; a chat runs several (the workspace, its
// documents, the presets, the history), and with hundreds of chats starting at once that was a visible share
// of the server's work. Values go in as drizzle's placeholders (`sql.placeholder("name")`).
import type { Database } from "./client.ts";

const built = new WeakMap<Database, Map<string, unknown>>();

/** The query named `name` for `db`, made by `build` the first time. */
export function prepared<T>(db: Database, name: string, build: (db: Database) => T): T {
  let queries = built.get(db);
  if (!queries) {
    queries = new Map();
    built.set(db, queries);
  }
  let query = queries.get(name) as T | undefined;
  if (query === undefined) {
    query = build(db);
    queries.set(name, query);
  }
  return query;
}
