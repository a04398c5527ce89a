// The SQL skill's worker: one query in, its answer out; the skill ends the worker at the time limit.
import { runQuery, type SqlJob } from "./sql_db.ts";

(self as unknown as { onmessage: (event: MessageEvent<SqlJob>) => void }).onmessage = (event) => {
  self.postMessage(runQuery(event.data));
};
