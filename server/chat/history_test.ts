import assert from "node:assert/strict";
import { createTestApp } from "../testing/test_app.ts";
import { eq } from "drizzle-orm";
import { workspaceChats } from "../../db/schema.ts";
import { CHATS_PER_STATEMENT, recentChats, recentExchanges, saveChat } from "./history.ts";
import type { Actor } from "../auth/actor.ts";

Deno.test("chats saved at once are written together, in order, each with its own id; a bad one fails alone", async () => {
  await using app = await createTestApp();
  const created = await app.json<{ workspace: { id: number } }>("/api/workspace/new", {
    json: { name: "Batch" },
  });
  const workspaceId = created.body.workspace.id;
  const actor = { multiUser: false, userId: null, role: "admin" } as unknown as Actor;
  const scope = { workspaceId, threadId: null, actor };
  const response = (text: string) => ({ text, sources: [], type: "chat", attachments: [], metrics: {} });

  const ids = await Promise.all(
    Array.from(
      { length: 30 },
      (_, index) => saveChat(app.deps, scope, `question ${index}`, response(`a${index}`)),
    ),
  );
  assert.equal(new Set(ids).size, 30);
  assert.deepEqual(ids, [...ids].sort((a, b) => a - b), "ids follow the order of the saves");
  const rows = await recentChats(app.deps, scope, 100);
  assert.deepEqual(
    rows.map((row) => row.prompt),
    Array.from({ length: 30 }, (_, index) => `question ${index}`),
  );
  assert.deepEqual(rows.map((row) => row.id), ids);

  // A chat of a workspace that is gone breaks the batch's transaction: the others are still saved.
  const results = await Promise.allSettled([
    saveChat(app.deps, scope, "kept 1", response("k1")),
    saveChat(app.deps, { ...scope, workspaceId: 999_999 }, "refused", response("r")),
    saveChat(app.deps, scope, "kept 2", response("k2")),
  ]);
  assert.deepEqual(results.map((result) => result.status), ["fulfilled", "rejected", "fulfilled"]);
  const after = await recentChats(app.deps, scope, 100);
  assert.deepEqual(after.slice(-2).map((row) => row.prompt), ["kept 1", "kept 2"]);
});

Deno.test("chats saved at once go in one INSERT statement per CHATS_PER_STATEMENT, each given its own id in order", async () => {
  await using app = await createTestApp();
  const created = await app.json<{ workspace: { id: number } }>("/api/workspace/new", {
    json: { name: "One statement" },
  });
  const actor = { multiUser: false, userId: null, role: "admin" } as unknown as Actor;
  const scope = { workspaceId: created.body.workspace.id, threadId: null, actor };
  const response = (text: string) => ({ text, sources: [], type: "chat", attachments: [], metrics: {} });
  const db = app.deps.db;
  const insert = db.insert;
  let statements = 0;
  db.insert = ((table) => {
    statements++;
    return insert.call(db, table);
  }) as typeof db.insert;
  try {
    const count = CHATS_PER_STATEMENT + 1;
    const ids = await Promise.all(
      Array.from(
        { length: count },
        (_, index) => saveChat(app.deps, scope, `q${index}`, response(`a${index}`)),
      ),
    );
    assert.equal(statements, 2, "one statement per CHATS_PER_STATEMENT chats, not one per chat");
    assert.equal(new Set(ids).size, count);
    assert.deepEqual(ids, [...ids].sort((a, b) => a - b), "ids follow the order of the saves");
    const rows = await recentChats(app.deps, scope, count + 10);
    assert.deepEqual(rows.map((row) => [row.id, row.prompt]), ids.map((id, index) => [id, `q${index}`]));
  } finally {
    db.insert = insert;
  }
});

Deno.test("a chat's history: the last exchanges, oldest first, unreadable answers skipped, edited answers read again", async () => {
  await using app = await createTestApp();
  const created = await app.json<{ workspace: { id: number } }>("/api/workspace/new", {
    json: { name: "Exchanges" },
  });
  const workspaceId = created.body.workspace.id;
  const actor = { multiUser: false, userId: null, role: "admin" } as unknown as Actor;
  const scope = { workspaceId, threadId: null, actor };
  const response = (text: string) => ({ text, sources: [], type: "chat", attachments: [], metrics: {} });
  const ids: number[] = [];
  for (const index of [1, 2, 3, 4]) {
    ids.push(await saveChat(app.deps, scope, `q${index}`, response(`a${index}`)));
  }
  // A chat kept out of the history (a refusal) is not seen.
  await saveChat(app.deps, scope, "hidden", response("h"), false);
  await app.deps.db.update(workspaceChats).set({ response: "not json" }).where(eq(workspaceChats.id, ids[1]));

  const read = async (limit: number) =>
    (await recentExchanges(app.deps, scope, limit)).map((exchange) =>
      `${exchange.prompt}:${exchange.response.text}`
    );
  assert.deepEqual(await read(20), ["q1:a1", "q3:a3", "q4:a4"]);
  assert.deepEqual(await read(2), ["q3:a3", "q4:a4"], "the last two chats, oldest first");
  assert.deepEqual(await read(0), []);
  const again = await recentExchanges(app.deps, scope, 20);
  assert.equal(again.length, 3);

  // An answer changed in the database is read as it is now, not as parsed before.
  await app.deps.db.update(workspaceChats).set({ response: JSON.stringify(response("edited")) }).where(
    eq(workspaceChats.id, ids[3]),
  );
  assert.deepEqual(await read(20), ["q1:a1", "q3:a3", "q4:edited"]);
  assert.deepEqual(
    (await recentChats(app.deps, scope, 20)).map((row) => row.prompt),
    ["q1", "q2", "q3", "q4"],
    "the rows themselves are all there",
  );
});
