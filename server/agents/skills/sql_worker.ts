// The SQL skill's worker: says it is ready once loaded, then takes one query and sends its answer; the skill
// ends the worker at the time limit, counted from "ready" (loading the worker is not the query's time).
import { runQuery, type SqlJob } from "./sql_db.ts";

(self as unknown as { onmessage: (event: MessageEvent<SqlJob>) => void }).onmessage = (event) => {
  self.postMessage(runQuery(event.data));
};
// Ready: the skill starts the query's clock now and sends the query (runSqlQuery in sql.ts).
self.postMessage("ready");
