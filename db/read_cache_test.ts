import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { openDatabase } from "./client.ts";
import { workspaceChats, workspaces } from "./schema.ts";

async function withDatabase(test: (opened: Awaited<ReturnType<typeof openDatabase>>) => Promise<void>) {
  const directory = await Deno.makeTempDir({ prefix: "lectern-read-cache-" });
  const opened = await openDatabase(`${directory}/lectern.db`);
  try {
    await test(opened);
  } finally {
    opened.close();
    await Deno.remove(directory, { recursive: true });
  }
}

const hits = (client: unknown) => (client as { readCacheHits(): number }).readCacheHits();

Deno.test("read cache: a repeated read of a cached table is answered from memory until that table is written", async () => {
  await withDatabase(async ({ db, client }) => {
    await db.insert(workspaces).values({ name: "One", slug: "one" });
    const read = () => db.select().from(workspaces).where(eq(workspaces.slug, "one"));
    assert.equal((await read())[0].name, "One");
    const before = hits(client);
    assert.equal((await read())[0].name, "One");
    assert.equal(hits(client), before + 1, "the second read is a hit");

    // A write elsewhere (the chats, read by no cached answer) keeps the answer.
    const [{ id }] = await db.select({ id: workspaces.id }).from(workspaces).where(
      eq(workspaces.slug, "one"),
    );
    await db.insert(workspaceChats).values({ workspaceId: id, prompt: "hi", response: "{}" });
    await read();
    assert.equal(hits(client), before + 2);

    // An update of the table is seen at once.
    await db.update(workspaces).set({ name: "Renamed" }).where(eq(workspaces.slug, "one"));
    assert.equal((await read())[0].name, "Renamed");
    // So is a delete.
    await db.delete(workspaces).where(eq(workspaces.slug, "one"));
    assert.deepEqual(await read(), []);
  });
});

Deno.test("read cache: a transaction's writes are seen once it commits, and a table outside the cache is always read", async () => {
  await withDatabase(async ({ db, client }) => {
    const all = () => db.select({ slug: workspaces.slug }).from(workspaces);
    assert.deepEqual(await all(), []);
    await db.transaction(async (tx) => {
      await tx.insert(workspaces).values({ name: "Two", slug: "two" });
    });
    assert.deepEqual((await all()).map((row) => row.slug), ["two"]);

    await db.insert(workspaceChats).values({ workspaceId: 1, prompt: "a", response: "{}" });
    const chats = () => db.select().from(workspaceChats);
    const before = hits(client);
    assert.equal((await chats()).length, 1);
    assert.equal((await chats()).length, 1);
    assert.equal(hits(client), before, "the chats are never answered from memory");

    // A write through the raw client (no drizzle) counts too; a script counts for every table.
    await client.execute({
      sql: `insert into "workspaces" ("name", "slug") values (?, ?)`,
      args: ["Three", "three"],
    });
    assert.equal((await all()).length, 2);
    await client.executeMultiple(`update workspaces set name = 'x';`);
    await all();
    await client.executeMultiple(`delete from workspaces where slug = 'two';`);
    assert.deepEqual((await all()).map((row) => row.slug), ["three"]);
  });
});
