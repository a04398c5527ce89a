import assert from "node:assert/strict";
import { join } from "node:path";
import { createClient } from "@libsql/client";
import { eq } from "drizzle-orm";
import { openRemoteDatabase } from "./client.ts";
import migrations from "./migrations.gen.ts";
import { systemSettings, workspaces } from "./schema.ts";
import { startFakeLibsql } from "../server/testing/fake_libsql.ts";

async function withServer(
  test: (server: ReturnType<typeof startFakeLibsql>, directory: string) => Promise<void>,
  options: { authToken?: string } = {},
) {
  const directory = await Deno.makeTempDir({ prefix: "lectern-remote-" });
  const server = startFakeLibsql(join(directory, "server.db"), options);
  try {
    await test(server, directory);
  } finally {
    await server.close();
    await Deno.remove(directory, { recursive: true });
  }
}

Deno.test("openRemoteDatabase() migrates a database on a libSQL server over Hrana HTTP, once", async () => {
  await withServer(async (server) => {
    const first = await openRemoteDatabase({ url: server.url, authToken: "secret" });
    try {
      assert.equal(first.remote, true);
      assert.deepEqual(first.migration.applied, migrations.map((migration) => migration.tag));
      const [created] = await first.db.insert(workspaces).values({ name: "Kept", slug: "kept" }).returning();
      assert.equal(created.name, "Kept");
      assert.ok(created.createdAt instanceof Date);
    } finally {
      first.close();
    }
    assert.ok((server.requests.get("/v2/pipeline") ?? 0) > 0, "the client spoke the v2 pipeline");

    // The server's file holds what the client wrote.
    const local = createClient({ url: `file:${server.path}` });
    const rows = await local.execute("SELECT slug FROM workspaces");
    assert.deepEqual(rows.rows.map((row) => row[0]), ["kept"]);
    local.close();

    const second = await openRemoteDatabase({ url: server.url, authToken: "secret" });
    try {
      assert.deepEqual(second.migration.applied, []);
      const [kept] = await second.db.select().from(workspaces).where(eq(workspaces.slug, "kept"));
      assert.equal(kept.name, "Kept");
    } finally {
      second.close();
    }
  }, { authToken: "secret" });
});

Deno.test("openRemoteDatabase() refuses a wrong auth token", async () => {
  await withServer(async (server) => {
    await assert.rejects(() => openRemoteDatabase({ url: server.url, authToken: "wrong" }));
  }, { authToken: "secret" });
});

Deno.test("a libSQL server database: transactions hold across requests, roll back, and constraint errors read as SQLite's", async () => {
  await withServer(async (server) => {
    const opened = await openRemoteDatabase({ url: server.url });
    try {
      const { db } = opened;
      await db.transaction(async (tx) => {
        await tx.insert(systemSettings).values({ label: "a", value: "1" });
        await tx.insert(systemSettings).values({ label: "b", value: "2" });
      });
      await assert.rejects(
        () =>
          db.transaction(async (tx) => {
            await tx.insert(systemSettings).values({ label: "c", value: "3" });
            await tx.insert(systemSettings).values({ label: "a", value: "again" });
          }),
        (error: Error) => /UNIQUE constraint failed/.test(String((error.cause as Error)?.message)),
      );
      const labels = (await db.select().from(systemSettings)).map((row) => row.label).sort();
      assert.deepEqual(labels, ["a", "b"], "the failed transaction left nothing");

      // Blobs, integers beyond 2^53, floats and NULL come back as they went in.
      const client = opened.client;
      await client.execute("CREATE TABLE kinds (b BLOB, i INTEGER, f REAL, n TEXT)");
      await client.execute({
        sql: "INSERT INTO kinds VALUES (?, ?, ?, ?)",
        args: [new Uint8Array([0, 1, 254, 255]), 9007199254740993n, 1.5, null],
      });
      const result = await client.execute("SELECT b, f, n FROM kinds");
      const [row] = result.rows;
      assert.deepEqual([...new Uint8Array(row[0] as ArrayBuffer)], [0, 1, 254, 255]);
      assert.equal(row[1], 1.5);
      assert.equal(row[2], null);
      const big = createClient({ url: server.url, intMode: "bigint" });
      assert.equal((await big.execute("SELECT i FROM kinds")).rows[0][0], 9007199254740993n);
      big.close();

      const batch = await client.batch([
        { sql: "INSERT INTO kinds (n) VALUES (?)", args: ["x"] },
        "SELECT count(*) FROM kinds",
      ], "write");
      assert.equal(batch[0].rowsAffected, 1);
      assert.equal(Number(batch[1].rows[0][0]), 2);
    } finally {
      opened.close();
    }
  });
});

Deno.test("replicas starting at once on a fresh libSQL server database apply each migration once", async () => {
  await withServer(async (server) => {
    const opened = await Promise.all([1, 2, 3].map(() => openRemoteDatabase({ url: server.url })));
    try {
      const applied = opened.map((one) => one.migration.applied.length).sort((a, b) => a - b);
      assert.deepEqual(applied, [0, 0, migrations.length]);
      const recorded = await opened[0].client.execute(`SELECT count(*) FROM "__drizzle_migrations"`);
      assert.equal(Number(recorded.rows[0][0]), migrations.length);
    } finally {
      for (const one of opened) one.close();
    }
  });
});
