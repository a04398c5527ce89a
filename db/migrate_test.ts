import assert from "node:assert/strict";
import { createClient } from "@libsql/client";
import { migrate } from "./migrate.ts";
import migrations from "./migrations.gen.ts";
import { readMigrations } from "../scripts/embed_migrations.ts";
import { openDatabase } from "./client.ts";

Deno.test("db/migrations.gen.ts matches db/migrations (run `deno task db:generate`)", async () => {
  assert.deepEqual(migrations, await readMigrations());
});

Deno.test("openDatabase() applies migrations once, in WAL mode", async () => {
  const directory = await Deno.makeTempDir();
  try {
    const first = await openDatabase(`${directory}/lectern.db`);
    assert.deepEqual(first.migration.applied, migrations.map((migration) => migration.tag));
    const mode = await first.client.execute("PRAGMA journal_mode");
    assert.equal(mode.rows[0][0], "wal");
    await first.client.execute("INSERT INTO workspaces (name, slug) VALUES ('Kept', 'kept')");
    first.close();
    const second = await openDatabase(`${directory}/lectern.db`);
    assert.deepEqual(second.migration.applied, []);
    const rows = await second.client.execute("SELECT name FROM workspaces");
    assert.equal(rows.rows[0][0], "Kept");
    second.close();
  } finally {
    await Deno.remove(directory, { recursive: true });
  }
});

Deno.test("migrate() backs up a database with data before a new migration and rolls back a failing one", async () => {
  const directory = await Deno.makeTempDir();
  const client = createClient({ url: `file:${directory}/x.db` });
  try {
    await migrate(client, migrations);
    await client.execute("INSERT INTO workspaces (name, slug) VALUES ('Kept', 'kept')");
    const broken = [...migrations, {
      tag: "9999_broken",
      when: Date.now() + 1000,
      breakpoints: true,
      sql: "ALTER TABLE workspaces ADD extra text;--> statement-breakpoint\nTHIS IS NOT SQL;",
    }];
    await assert.rejects(() =>
      migrate(client, broken, { backupPath: (tag) => `${directory}/before-${tag}.bak` })
    );
    const columns = await client.execute("SELECT name FROM pragma_table_info('workspaces')");
    assert.ok(!columns.rows.some((row) => row[0] === "extra"), "the failed migration left nothing behind");
    const backup = createClient({ url: `file:${directory}/before-9999_broken.bak` });
    const kept = await backup.execute("SELECT name FROM workspaces");
    assert.equal(kept.rows[0][0], "Kept");
    backup.close();

    const good = [...migrations, {
      ...broken.at(-1)!,
      tag: "9999_good",
      sql: "ALTER TABLE workspaces ADD extra text;",
    }];
    const result = await migrate(client, good);
    assert.deepEqual(result.applied, ["9999_good"]);
    const rows = await client.execute("SELECT name, extra FROM workspaces");
    assert.equal(rows.rows[0][0], "Kept", "data survives the migration");
  } finally {
    client.close();
    await Deno.remove(directory, { recursive: true });
  }
});

Deno.test("upgrading a database made by the first release keeps its users, workspaces and chats", async () => {
  const directory = await Deno.makeTempDir();
  const client = createClient({ url: `file:${directory}/lectern.db` });
  try {
    await migrate(client, migrations.slice(0, 1));
    await client.batch([
      "INSERT INTO users (username, password, role) VALUES ('old', 'hash', 'admin')",
      "INSERT INTO workspaces (name, slug) VALUES ('Kept', 'kept')",
      `INSERT INTO workspace_chats (workspace_id, prompt, response, user_id) VALUES (1, 'q', '{"text":"a"}', 1)`,
    ], "write");
    const result = await migrate(client, migrations, {
      backupPath: (tag) => `${directory}/before-${tag}.bak`,
    });
    assert.deepEqual(result.applied, migrations.slice(1).map((migration) => migration.tag));
    assert.ok(result.backupPath && (await Deno.stat(result.backupPath)).isFile, "a backup was written first");
    const user = await client.execute("SELECT username, token_version, preferred_language FROM users");
    assert.deepEqual([user.rows[0][0], user.rows[0][1], user.rows[0][2]], ["old", 0, "en"]);
    assert.equal((await client.execute("SELECT count(*) FROM workspace_chats")).rows[0][0], 1);
    assert.equal((await client.execute("SELECT name FROM workspaces")).rows[0][0], "Kept");
  } finally {
    client.close();
    await Deno.remove(directory, { recursive: true });
  }
});
