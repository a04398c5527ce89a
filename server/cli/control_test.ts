// The control socket's path: in the storage when it fits a Unix socket, else a short owner-only fallback that
// the server and the `lectern` commands agree on.
import assert from "node:assert/strict";
import { join } from "node:path";
import { runLectern } from "../testing/cli.ts";
import { startServerProcess } from "../testing/process.ts";
import { controlPath, controlPaths, serverRunning, SOCKET_PATH_MAX, trustedFolder } from "./control.ts";

const bytes = (text: string) => new TextEncoder().encode(text).length;

/** A storage folder whose `lectern.sock` would be longer than a Unix socket's path can be. */
async function longStorage(): Promise<{ base: string; storage: string }> {
  const base = await Deno.makeTempDir({ prefix: "lectern-socket-" });
  const storage = join(base, "a-storage-folder-with-a-long-name".repeat(3), "lectern-data");
  await Deno.mkdir(storage, { recursive: true });
  assert.ok(bytes(join(storage, "lectern.sock")) > SOCKET_PATH_MAX);
  return { base, storage };
}

Deno.test("controlPaths: <storage>/lectern.sock when it fits, else short fallbacks named from the real path", async () => {
  assert.deepEqual(controlPaths("/nonexistent/lectern"), ["/nonexistent/lectern/lectern.sock"]);
  const { base, storage } = await longStorage();
  try {
    const paths = controlPaths(storage);
    assert.ok(paths.length >= 1);
    const uid = Deno.uid();
    assert.match(paths[0], new RegExp(`^/tmp/lectern-${uid}/lectern-[0-9a-f]{16}\\.sock$`));
    for (const path of paths) assert.ok(bytes(path) <= SOCKET_PATH_MAX, path);
    // The same storage written another way (trailing slash, relative, through a symlink) gives the same name.
    const name = paths[0].slice(paths[0].lastIndexOf("/"));
    assert.ok(controlPath(`${storage}/`).endsWith(name));
    const link = join(base, "l".repeat(100));
    await Deno.symlink(storage, link);
    assert.ok(controlPath(link).endsWith(name));
    const cwd = Deno.cwd();
    try {
      Deno.chdir(join(storage, ".."));
      assert.ok(controlPath("lectern-data").endsWith(name));
    } finally {
      Deno.chdir(cwd);
    }
    // Another storage gets another socket.
    assert.ok(!controlPath(`${storage}-2`).endsWith(name));
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});

Deno.test("a fallback folder is trusted only when it is this user's and no one else's", async () => {
  const base = await Deno.makeTempDir({ prefix: "lectern-socket-" });
  try {
    const folder = join(base, "fallback");
    await Deno.mkdir(folder, { mode: 0o700 });
    await Deno.chmod(folder, 0o700);
    assert.equal(trustedFolder("/elsewhere", join(folder, "x.sock")), true);
    await Deno.chmod(folder, 0o755);
    assert.equal(trustedFolder("/elsewhere", join(folder, "x.sock")), false, "others can enter it");
    assert.equal(trustedFolder("/elsewhere", join(base, "missing", "x.sock")), false);
    await Deno.remove(folder);
    await Deno.symlink(base, folder);
    assert.equal(trustedFolder("/elsewhere", join(folder, "x.sock")), false, "a symlink is not a folder");
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});

Deno.test("a server on a storage path too long for a socket is found by restore, migrate and backup", async () => {
  const { base, storage } = await longStorage();
  try {
    {
      // The server runs with XDG_RUNTIME_DIR set, the commands without: they still agree.
      await using server = await startServerProcess({
        STORAGE_DIR: storage,
        XDG_RUNTIME_DIR: base,
      }, 120_000);
      const socket = controlPaths(storage)[0];
      assert.match(server.output(), /the control socket is elsewhere/);
      assert.ok(!server.output().includes("Cannot open the control socket"), server.output());
      assert.ok((await Deno.lstat(socket)).isSocket, socket);
      assert.equal((await Deno.stat(socket.slice(0, socket.lastIndexOf("/")))).mode! & 0o777, 0o700);
      assert.equal(await serverRunning(storage), true);
      // A probe that connects and leaves without a word (a second server starting on this storage) is no failure.
      (await Deno.connect({ transport: "unix", path: socket })).close();

      const backupFile = join(base, "running.tar.gz");
      const restore = await runLectern(["restore", backupFile, "--storage", storage]);
      assert.equal(restore.code, 1, restore.stderr);
      assert.match(restore.stderr, /A Lectern server is running on/);
      assert.ok(restore.stderr.includes(socket), restore.stderr);
      const migrate = await runLectern(["migrate", "--storage", storage]);
      assert.equal(migrate.code, 1, migrate.stderr);
      assert.match(migrate.stderr, /A Lectern server is running on/);
      // A backup goes through the running server.
      const backup = await runLectern(["backup", backupFile, "--storage", storage], {
        env: { LOG_LEVEL: "info" },
      });
      assert.equal(backup.code, 0, backup.stderr);
      assert.ok((await Deno.stat(backupFile)).size > 0);

      await server.kill("SIGTERM");
      assert.equal(await server.exited(), 0);
      await assert.rejects(Deno.lstat(socket), Deno.errors.NotFound, "the socket is removed on stop");
      assert.ok(!server.output().includes("A control connection failed"), server.output());
    }
    assert.equal(await serverRunning(storage), false);
    const migrate = await runLectern(["migrate", "--storage", storage]);
    assert.equal(migrate.code, 0, migrate.stderr);
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});
