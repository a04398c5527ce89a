// The `lectern` commands, each spawned as `deno run -A server/main.ts …` against a temporary storage.
import assert from "node:assert/strict";
import { join } from "node:path";
import { runLectern } from "../testing/cli.ts";
import { createTestApp, type TestApp } from "../testing/test_app.ts";
import { startServerProcess } from "../testing/process.ts";
import { startFakeLibsql } from "../testing/fake_libsql.ts";
import { LECTERN_VERSION } from "../../shared/version.ts";
import { KNOWN_MIGRATIONS } from "../backup/archive.ts";
import { parseCommand } from "./main.ts";

const temp = () => Deno.makeTempDir({ prefix: "lectern-cli-" });
const env = (values: Record<string, string>) => ({ get: (name: string) => values[name] });
const sentence = (text: string) => assert.match(text.trim(), /\.$/, `a sentence: ${text}`);

async function login(app: TestApp, body: unknown) {
  return await app.json<{ valid: boolean; token: string | null }>("/api/request-token", { json: body });
}

Deno.test("parseCommand: serve by default, --storage or STORAGE_DIR, usage errors with exit code 2", () => {
  assert.equal(parseCommand([], env({})).command, "serve");
  assert.equal(parseCommand([], env({})).storage, join(Deno.cwd(), "storage"));
  assert.equal(parseCommand([], env({ STORAGE_DIR: "/srv/lectern" })).storage, "/srv/lectern");
  assert.equal(parseCommand(["backup", "b.tgz", "--storage", "/x"], env({})).storage, "/x");
  assert.deepEqual(parseCommand(["restore", "b.tgz"], env({})).operands, ["b.tgz"]);
  assert.equal(parseCommand(["reset-password", "--stdin"], env({})).stdin, true);
  assert.equal(parseCommand(["--help"], env({})).command, "help");
  for (const args of [["nope"], ["--nope"], ["backup"], ["restore", "a", "b"], ["version", "--stdin"]]) {
    assert.throws(() => parseCommand(args, env({})), (error: Error & { exitCode?: number }) => {
      assert.equal(error.exitCode, 2, args.join(" "));
      sentence(error.message);
      return true;
    });
  }
});

Deno.test("lectern --help, version and usage errors: exit codes and sentences", async () => {
  const help = await runLectern(["--help"]);
  assert.equal(help.code, 0);
  for (const command of ["serve", "backup FILE", "restore FILE", "reset-password", "migrate", "version"]) {
    assert.ok(help.stdout.includes(command), command);
  }
  const storage = await temp();
  try {
    const version = await runLectern(["version", "--storage", storage]);
    assert.equal(version.code, 0);
    assert.ok(version.stdout.includes(`Lectern ${LECTERN_VERSION}`));
    assert.ok(version.stdout.includes(`${KNOWN_MIGRATIONS} migrations`));

    const unknown = await runLectern(["frobnicate"]);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /There is no command "frobnicate"/);
    sentence(unknown.stderr);
    const option = await runLectern(["version", "--colour"]);
    assert.equal(option.code, 2);
    sentence(option.stderr);
    const missing = await runLectern(["backup"]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /needs a file name/);
  } finally {
    await Deno.remove(storage, { recursive: true });
  }
});

Deno.test("lectern migrate creates and then keeps the database; backup and restore refuse a folder with none", async () => {
  const root = await temp();
  const storage = join(root, "storage");
  try {
    const backup = await runLectern(["backup", join(root, "b.tar.gz"), "--storage", storage]);
    assert.equal(backup.code, 1);
    assert.match(backup.stderr, /There is no Lectern storage in/);
    const first = await runLectern(["migrate", "--storage", storage]);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, new RegExp(`Created the database with ${KNOWN_MIGRATIONS} migrations`));
    const again = await runLectern(["migrate"], { env: { STORAGE_DIR: storage } });
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /The database is up to date/);
    const version = await runLectern(["version", "--storage", storage]);
    assert.match(version.stdout, new RegExp(`the database in .* has ${KNOWN_MIGRATIONS}`));
    const restore = await runLectern(["restore", join(root, "missing.tar.gz"), "--storage", storage]);
    assert.equal(restore.code, 1);
    assert.match(restore.stderr, /There is no file/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("lectern reset-password USER: a new password printed once, the old one and the old sessions end", async () => {
  const storage = await temp();
  try {
    let oldToken: string;
    {
      await using app = await createTestApp({ storageDir: storage });
      const enabled = await app.json("/api/system/enable-multi-user", {
        json: { username: "olga", password: "first-password" },
      });
      assert.equal(enabled.status, 200, JSON.stringify(enabled.body));
      const signedIn = await login(app, { username: "olga", password: "first-password" });
      assert.equal(signedIn.body.valid, true);
      oldToken = signedIn.body.token!;
    }
    const nobody = await runLectern(["reset-password", "nobody", "--storage", storage]);
    assert.equal(nobody.code, 1);
    assert.match(nobody.stderr, /There is no account named nobody\./);
    const noName = await runLectern(["reset-password", "--storage", storage]);
    assert.equal(noName.code, 2);
    sentence(noName.stderr);
    const short = await runLectern(["reset-password", "olga", "--stdin", "--storage", storage], {
      stdin: "short\n",
    });
    assert.equal(short.code, 1);
    sentence(short.stderr);

    const reset = await runLectern(["reset-password", "olga", "--storage", storage]);
    assert.equal(reset.code, 0, reset.stderr);
    const password = reset.stdout.trim();
    assert.match(password, /^[A-Za-z0-9_-]{24}$/);
    assert.match(reset.stderr, /olga's password is now the one below/);

    await using app = await createTestApp({ storageDir: storage });
    assert.equal((await login(app, { username: "olga", password: "first-password" })).body.valid, false);
    assert.equal((await login(app, { username: "olga", password })).body.valid, true);
    const stale = await app.request("/api/system/check-token", {
      headers: { Authorization: `Bearer ${oldToken}` },
    });
    assert.equal(stale.status, 401, "the session signed in before the reset has ended");
    await stale.body?.cancel();
  } finally {
    await Deno.remove(storage, { recursive: true });
  }
});

Deno.test("lectern reset-password on a single-user instance: the instance password, also through a running server", async () => {
  const storage = await temp();
  try {
    {
      await using app = await createTestApp({ storageDir: storage });
      const withName = await runLectern(["reset-password", "--storage", storage]);
      assert.equal(withName.code, 1, "an open instance has no password to reset");
      assert.match(withName.stderr, /has no password/);
      const set = await app.json("/api/system/update-password", {
        json: { usePassword: true, newPassword: "first-password" },
      });
      assert.equal(set.status, 200, JSON.stringify(set.body));
    }
    const named = await runLectern(["reset-password", "olga", "--storage", storage]);
    assert.equal(named.code, 2);
    sentence(named.stderr);
    const offline = await runLectern(["reset-password", "--stdin", "--storage", storage], {
      stdin: "second-password\n",
    });
    assert.equal(offline.code, 0, offline.stderr);
    assert.match(offline.stdout, /The instance password is reset/);
    {
      await using app = await createTestApp({ storageDir: storage });
      assert.equal((await login(app, { password: "first-password" })).body.valid, false);
      assert.equal((await login(app, { password: "second-password" })).body.valid, true);
    }

    // A running server keeps the settings in memory: the reset goes through it, and applies at once.
    await using server = await startServerProcess({ STORAGE_DIR: storage });
    const token = (await (await fetch(`${server.url}/api/request-token`, {
      method: "POST",
      body: JSON.stringify({ password: "second-password" }),
    })).json()).token;
    const online = await runLectern(["reset-password", "--storage", storage]);
    assert.equal(online.code, 0, online.stderr);
    const third = online.stdout.trim();
    const answer = async (password: string) =>
      (await (await fetch(`${server.url}/api/request-token`, {
        method: "POST",
        body: JSON.stringify({ password }),
      })).json()).valid;
    assert.equal(await answer("second-password"), false);
    assert.equal(await answer(third), true);
    const stale = await fetch(`${server.url}/api/system/check-token`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    assert.equal(stale.status, 401);
    await stale.body?.cancel();
    const migrate = await runLectern(["migrate", "--storage", storage]);
    assert.equal(migrate.code, 1, "migrate refuses a storage a server holds");
    assert.match(migrate.stderr, /A Lectern server is running on/);
    await server.kill("SIGTERM");
    assert.equal(await server.exited(), 0);
  } finally {
    await Deno.remove(storage, { recursive: true });
  }
});

Deno.test({
  name:
    "lectern migrate and reset-password with DATABASE_URL work on the libSQL server, not on a file in the storage folder",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const root = await temp();
    const storage = join(root, "storage");
    try {
      await using database = startFakeLibsql(join(root, "server.db"), { authToken: "db-token" });
      const remote = { DATABASE_URL: database.url, DATABASE_AUTH_TOKEN: "db-token" };
      const first = await runLectern(["migrate", "--storage", storage], { env: remote });
      assert.equal(first.code, 0, first.stderr);
      assert.match(
        first.stdout,
        new RegExp(`Applied ${KNOWN_MIGRATIONS} migrations on 127\\.0\\.0\\.1:\\d+`),
      );
      const again = await runLectern(["migrate", "--storage", storage], { env: remote });
      assert.match(again.stdout, /The database on 127\.0\.0\.1:\d+ is up to date/);
      assert.equal(await Deno.stat(join(storage, "lectern.db")).catch(() => null), null, "no local database");
      const wrongToken = await runLectern(["migrate", "--storage", storage], {
        env: { ...remote, DATABASE_AUTH_TOKEN: "wrong" },
      });
      assert.equal(wrongToken.code, 1);

      {
        await using server = await startServerProcess({ STORAGE_DIR: storage, ...remote });
        const enabled = await fetch(`${server.url}/api/system/enable-multi-user`, {
          method: "POST",
          body: JSON.stringify({ username: "olga", password: "first-password" }),
        });
        assert.equal(enabled.status, 200, await enabled.text());
        await server.kill("SIGTERM");
        assert.equal(await server.exited(), 0);
      }
      const reset = await runLectern(["reset-password", "olga", "--storage", storage], { env: remote });
      assert.equal(reset.code, 0, reset.stderr);
      const password = reset.stdout.trim();
      await using server = await startServerProcess({ STORAGE_DIR: storage, ...remote });
      const signIn = async (secret: string) =>
        (await (await fetch(`${server.url}/api/request-token`, {
          method: "POST",
          body: JSON.stringify({ username: "olga", password: secret }),
        })).json()).valid;
      assert.equal(await signIn("first-password"), false);
      assert.equal(await signIn(password), true, "the password reset on the libSQL server's database");
      await server.kill("SIGTERM");
      assert.equal(await server.exited(), 0);
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});
