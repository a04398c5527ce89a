// kill -9 of the real server while it migrates a database made by an older release.
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { createClient } from "@libsql/client";
import { migrate } from "../../db/migrate.ts";
import migrations from "../../db/migrations.gen.ts";
import { startServerProcess } from "../../server/testing/process.ts";
import { checkDatabaseFile, closedPort, getJson } from "./helpers.ts";
import { nodeModulesFlag } from "../../server/worker_command.ts";

const MAIN = fileURLToPath(new URL("../../server/main.ts", import.meta.url));
/** The release the database comes from: the first two migrations; the server has three more to apply. */
const OLD = 2;
const CHATS = 200_000;
const BACKUP = "lectern.db.before-0002_chats_by_user.bak";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What the database holds, read with the server stopped: the migration state, and a fingerprint of the data. */
async function inspect(path: string) {
  const client = createClient({ url: `file:${path}` });
  try {
    const one = async (sql: string) => (await client.execute(sql)).rows[0];
    const applied = Number((await one(`SELECT count(*) FROM "__drizzle_migrations"`))[0]);
    const index = Number(
      (await one(`SELECT count(*) FROM sqlite_master WHERE name = 'workspace_chats_user_time_idx'`))[0],
    );
    const presets = Number(
      (await one(`SELECT count(*) FROM sqlite_master WHERE name = 'slash_command_presets'`))[0],
    );
    const hybrid = Number(
      (await one(`SELECT count(*) FROM pragma_table_info('workspaces') WHERE name = 'hybrid_search'`))[0],
    );
    const data = await one(
      "SELECT count(*), sum(length(response)), max(id), (SELECT group_concat(username) FROM users), " +
        "(SELECT group_concat(name) FROM workspaces) FROM workspace_chats",
    );
    return { applied, schema: [index, presets, hybrid], data: [...Object.values(data)].map(String) };
  } finally {
    client.close();
  }
}

/** Whether a file named `name` (or, for a name ending in "*", starting with it) was written since `since`. */
async function writtenSince(directory: string, name: string, since: number): Promise<boolean> {
  for await (const entry of Deno.readDir(directory)) {
    const matches = name.endsWith("*") ? entry.name.startsWith(name.slice(0, -1)) : entry.name === name;
    if (!matches) continue;
    const info = await Deno.stat(`${directory}/${entry.name}`).catch(() => null);
    if (info?.mtime && info.mtime.getTime() >= since) return true;
  }
  return false;
}

/**
 * Starts the server and kills it with SIGKILL once `trigger` (a file in the storage folder) was written, plus
 * `delayMs`. Returns false when the server finished migrating (answered /api/ping) before the trigger came.
 */
async function killWhile(storage: string, trigger: string, delayMs: number): Promise<boolean> {
  const port = closedPort();
  const since = Date.now() - 1;
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", ...nodeModulesFlag(), MAIN],
    env: { STORAGE_DIR: storage, HOST: "127.0.0.1", PORT: String(port), LOG_LEVEL: "info" },
    stdout: "null",
    stderr: "null",
  }).spawn();
  let exited = false;
  child.status.then(() => (exited = true));
  try {
    for (let polls = 0;; polls++) {
      if (await writtenSince(storage, trigger, since)) break;
      assert.ok(!exited, "the server stopped on its own while migrating");
      if (polls % 50 === 49) {
        const ping = await fetch(`http://127.0.0.1:${port}/api/ping`).then(
          (response) => response.body?.cancel().then(() => response.ok) ?? response.ok,
          () => false,
        );
        if (ping) return false;
      }
      await sleep(2);
    }
    if (delayMs) await sleep(delayMs);
    return true;
  } finally {
    child.kill("SIGKILL");
    await child.status;
  }
}

Deno.test({
  name:
    "kill -9 during a migration (while backing up, as the migrations start, in the middle): the database is the old one or the new one, never between, and the next start migrates fully with the data intact",
  sanitizeResources: false,
  async fn() {
    const storage = await Deno.makeTempDir({ prefix: "lectern-faults-" });
    const database = `${storage}/lectern.db`;
    try {
      // A database of the older release with enough chats that backing up and indexing take a moment.
      const client = createClient({ url: `file:${database}` });
      await client.execute("PRAGMA journal_mode = WAL");
      await migrate(client, migrations.slice(0, OLD));
      await client.batch([
        "INSERT INTO users (username, password, role) VALUES ('old', 'hash', 'admin')",
        "INSERT INTO workspaces (name, slug) VALUES ('Kept', 'kept')",
        `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${CHATS})
         INSERT INTO workspace_chats (workspace_id, prompt, response, user_id, created_at)
         SELECT 1, 'question ' || i, '{"text":"' || hex(randomblob(150)) || '"}', 1, 1700000000000 + i FROM n`,
      ], "write");
      client.close();
      const before = await inspect(database);
      assert.equal(before.applied, OLD);
      assert.deepEqual(before.schema, [0, 0, 0]);

      // Each kill: 250 ms into the backup copy (it takes about 600 ms), as the backup is done (the migrations
      // begin), and 150 ms into the migrations (about 450 ms). After each, the database is wholly old (nothing applied) or wholly new.
      // A backup left by an earlier attempt, whole or half-written, stays where it is, as after a real crash.
      const kills = [
        { trigger: "lectern.db.before-*", delayMs: 250 },
        { trigger: BACKUP, delayMs: 0 },
        { trigger: BACKUP, delayMs: 150 },
      ];
      let killedMidway = 0;
      // Under load the last kill may land after the migrations committed: then the database is wholly new.
      let migratedBeforeKill = false;
      for (const kill of kills) {
        if (!(await killWhile(storage, kill.trigger, kill.delayMs))) break;
        const after = await inspect(database);
        assert.deepEqual(after.data, before.data, "no chat, user or workspace was lost or changed");
        if (after.applied === OLD) {
          assert.deepEqual(after.schema, [0, 0, 0], "nothing of a migration that did not commit is left");
          killedMidway++;
        } else {
          assert.equal(after.applied, migrations.length);
          assert.deepEqual(after.schema, [1, 1, 1]);
          migratedBeforeKill = true;
          break;
        }
      }
      assert.ok(killedMidway >= 2, `the kills landed before the migrations committed (${killedMidway})`);

      // The attempts killed after their backup left it whole: the next start must take a new one over it (SQLite's
      // VACUUM INTO refuses an existing file, which once kept the server from ever starting again).
      const left = await inspect(`${storage}/${BACKUP}`);
      assert.equal(left.applied, OLD);
      assert.deepEqual(left.data, before.data);

      // The next start migrates fully, the data intact, and the backup is a whole copy of the old database.
      {
        await using server = await startServerProcess({ STORAGE_DIR: storage });
        if (!migratedBeforeKill) assert.match(server.output(), /Database migrated/);
        const workspaces = (await getJson(`${server.url}/api/workspaces`)).workspaces;
        assert.deepEqual(workspaces.map((workspace: { slug: string }) => workspace.slug), ["kept"]);
        await server.kill("SIGTERM");
        assert.equal(await server.exited(), 0);
      }
      const after = await inspect(database);
      assert.equal(after.applied, migrations.length);
      assert.deepEqual(after.schema, [1, 1, 1]);
      assert.deepEqual(after.data, before.data);
      await checkDatabaseFile(database);
      const backup = await inspect(`${storage}/${BACKUP}`);
      assert.equal(backup.applied, OLD);
      assert.deepEqual(backup.data, before.data);
    } finally {
      await Deno.remove(storage, { recursive: true });
    }
  },
});
