import assert from "node:assert/strict";
import { join } from "node:path";
// @ts-ignore: the Node type definitions the whole project checks with lack node:sqlite (see sql_db.ts).
import { DatabaseSync } from "node:sqlite";
import { configuredTestApp, type TestApp } from "../../testing/test_app.ts";
import { type ChatCompletionRequest, startFakeOpenAi } from "../../testing/fake_openai.ts";
import { openAgentSocket, sendChat } from "../testing.ts";
import { runSqlQuery } from "./sql.ts";

function shopDatabase(dir: string): string {
  const path = join(dir, "shop.db");
  const db = new DatabaseSync(path);
  db.exec("CREATE TABLE orders (id INTEGER PRIMARY KEY, customer TEXT, total REAL)");
  const insert = db.prepare("INSERT INTO orders (customer, total) VALUES (?, ?)");
  for (let i = 1; i <= 250; i++) insert.run(i % 2 ? "Ann" : "Bob", i);
  db.close();
  return path;
}

async function ask(app: TestApp, base: string, message: string) {
  const created = await app.json<{ workspace: { slug: string } }>("/api/workspace/new", {
    json: { name: `Shop ${crypto.randomUUID().slice(0, 6)}` },
  });
  const frames = await sendChat(app, created.body.workspace.slug, message);
  const init = frames.find((frame) => frame.type === "agentInitWebsocketConnection")!;
  const socket = openAgentSocket(base, String(init.websocketUUID));
  const answer = await socket.next((entry) => entry.from === "@agent");
  socket.send("/exit");
  await socket.closed;
  return { answer: String(answer.content), messages: socket.messages };
}

/** Calls sql-query with `sql`, then answers with what the tool gave back. */
function query(sql: string) {
  return (request: ChatCompletionRequest) => {
    const last = request.messages.at(-1)!;
    if (last.role === "tool") return { chunks: [String(last.content)] };
    return { toolCalls: [{ name: "sql-query", arguments: { database_id: "shop", sql } }] };
  };
}

Deno.test("the SQL skill queries a configured SQLite file read-only, with a row limit", async () => {
  const dir = await Deno.makeTempDir({ prefix: "lectern-sql-" });
  try {
    await using llm = startFakeOpenAi();
    await using app = await configuredTestApp({ llm: llm.baseURL });
    const base = app.listen();
    const path = shopDatabase(dir);

    // A file that is not there, and Lectern's own database, are refused with a sentence.
    const missing = await app.json("/api/agents/settings", {
      json: {
        sqlConnections: [{ database_id: "shop", engine: "sqlite", connectionString: join(dir, "no.db") }],
      },
    });
    assert.equal(missing.status, 400);
    assert.match(
      JSON.stringify(missing.body),
      /The connection shop cannot be used: There is no database file at/,
    );
    const own = await app.json("/api/agents/settings", {
      json: {
        sqlConnections: [{ database_id: "own", engine: "sqlite", connectionString: app.deps.paths.database }],
      },
    });
    assert.equal(own.status, 400);
    assert.match(JSON.stringify(own.body), /Lectern's own storage folder cannot be queried by agents\./);

    const saved = await app.json<{ settings: { skills: { id: string; ready: boolean }[] } }>(
      "/api/agents/settings",
      {
        json: {
          skills: { "sql-agent": true },
          sqlConnections: [{ database_id: "shop", engine: "sqlite", connectionString: `file:${path}` }],
        },
      },
    );
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    assert.equal(saved.body.settings.skills.find((skill) => skill.id === "sql-agent")?.ready, true);
    // The connection string is never sent back.
    assert.doesNotMatch(JSON.stringify(saved.body), /shop\.db/);

    llm.setReply(query("SELECT customer, COUNT(*) AS n, SUM(total) AS spent FROM orders GROUP BY customer"));
    const totals = await ask(app, base, "@agent who spent most?");
    assert.ok(totals.answer.startsWith("{"), totals.answer);
    assert.deepEqual(JSON.parse(totals.answer), {
      columns: ["customer", "n", "spent"],
      rows: [["Ann", 125, 15625], ["Bob", 125, 15750]],
    });
    assert.ok(llm.chatRequests[0].tools?.some((tool) => tool.function.name === "sql-query"));

    llm.setReply(query("SELECT id FROM orders"));
    const many = JSON.parse((await ask(app, base, "@agent all orders")).answer);
    assert.equal(many.rows.length, 200);
    assert.equal(many.note, "Only the first 200 rows are shown.");

    // Writes are refused by the read-only connection, whatever the statement.
    llm.setReply(query("DELETE FROM orders"));
    const write = await ask(app, base, "@agent delete the orders");
    assert.equal(write.answer, "Error: The query failed: attempt to write a readonly database.");
    llm.setReply(query(`ATTACH DATABASE '${app.deps.paths.database}' AS lectern`));
    const attach = await ask(app, base, "@agent attach");
    assert.match(attach.answer, /^Error: The query failed: not authorized\.$/);
    const check = new DatabaseSync(path);
    assert.equal(check.prepare("SELECT COUNT(*) AS n FROM orders").get().n, 250);
    check.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a query that runs past the time limit is stopped", async () => {
  const dir = await Deno.makeTempDir({ prefix: "lectern-sql-" });
  try {
    const path = shopDatabase(dir);
    // An endless recursive query: only ending its worker stops it.
    const endless = "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT COUNT(*) FROM n";
    await assert.rejects(
      runSqlQuery({ path, sql: endless, maxRows: 10 }, new AbortController().signal, 500),
      { message: "The query ran longer than 1 second and was stopped." },
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the time limit counts the query, not the worker's start", async () => {
  const dir = await Deno.makeTempDir({ prefix: "lectern-sql-" });
  try {
    const path = shopDatabase(dir);
    // The worker takes longer to start than the limit; the clock starts when it is ready.
    const slow = () =>
      new Worker(new URL("./testing/slow_sql_worker.ts", import.meta.url), { type: "module" });
    const answer = await runSqlQuery(
      { path, sql: "SELECT COUNT(*) AS n FROM orders", maxRows: 10 },
      new AbortController().signal,
      1000,
      slow,
    );
    assert.deepEqual(answer, { ok: true, columns: ["n"], rows: [[250]], truncated: false });
    // Stopped while it starts: no query is run.
    const stop = new AbortController();
    const pending = runSqlQuery({ path, sql: "SELECT 1", maxRows: 1 }, stop.signal, 1000, slow);
    stop.abort(new Error("The agent was stopped."));
    await assert.rejects(pending, { message: "The agent was stopped." });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
