// The `lectern` commands other than serve (server/cli/main.ts reads the arguments).
import { dirname } from "node:path";
import { LECTERN_VERSION } from "../../shared/version.ts";
import { storagePaths } from "../storage.ts";
import { createLogger } from "../log.ts";
import { backupFileName, KNOWN_MIGRATIONS, schemaOf, stageBackup } from "../backup/archive.ts";
import { restoreBackup } from "../backup/restore.ts";
import { askServer, controlPath, serverRunning } from "./control.ts";
import { randomPassword, resetPassword } from "./reset_password.ts";
import { CliError } from "./errors.ts";

/**
 * The libSQL server the instance's database is on (`DATABASE_URL`, docs/scaling.md), or null for the storage
 * folder's file. The CLI talks to the server directly, never through an embedded replica's file.
 */
async function remoteDatabase(): Promise<{ url: string; authToken?: string } | null> {
  const { loadConfig, ConfigError } = await import("../config.ts");
  try {
    const database = loadConfig(Deno.env.toObject()).database;
    return database ? { url: database.url, authToken: database.authToken } : null;
  } catch (error) {
    if (error instanceof ConfigError) throw new CliError(error.message);
    throw error;
  }
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

/** The storage's database path; a folder without one is not a Lectern storage. */
async function existingDatabase(root: string): Promise<string> {
  const database = storagePaths(root).database;
  if (!(await exists(database))) {
    throw new CliError(`There is no Lectern storage in ${root} (it holds no lectern.db). Use --storage DIR.`);
  }
  return database;
}

/** Refuses a database whose schema is newer than this build's. */
async function refuseNewer(database: string): Promise<number> {
  const { count } = await schemaOf(database);
  if (count > KNOWN_MIGRATIONS) {
    throw new CliError(
      `The database has a newer schema (${count} migrations) than this Lectern ${LECTERN_VERSION} knows ` +
        `(${KNOWN_MIGRATIONS}); run the newer Lectern that wrote it.`,
    );
  }
  return count;
}

async function refuseWhileServing(root: string, action: string): Promise<void> {
  if (await serverRunning(root)) {
    throw new CliError(
      `A Lectern server is running on ${root} (it answers on ${
        controlPath(root)
      }). Stop it before you ${action}.`,
    );
  }
}

export async function version(root: string): Promise<void> {
  let schema = `this version's schema has ${KNOWN_MIGRATIONS} migrations`;
  const database = storagePaths(root).database;
  if (await exists(database)) {
    const { count } = await schemaOf(database).catch(() => ({ count: -1 }));
    if (count >= 0) schema += `; the database in ${root} has ${count}`;
  }
  console.log(`Lectern ${LECTERN_VERSION} (Deno ${Deno.version.deno}; ${schema})`);
}

/** Writes `stream` to `file` (through a temporary file renamed at the end), or to standard output for "-". */
async function writeOut(stream: ReadableStream<Uint8Array>, file: string): Promise<void> {
  if (file === "-") {
    await stream.pipeTo(Deno.stdout.writable, { preventClose: true });
    return;
  }
  if (await exists(file)) {
    await stream.cancel();
    throw new CliError(`${file} exists already; name a new file for the backup.`);
  }
  await Deno.mkdir(dirname(file), { recursive: true });
  const partial = `${file}.partial`;
  try {
    const out = await Deno.open(partial, { write: true, create: true, truncate: true, mode: 0o600 });
    await stream.pipeTo(out.writable);
    await Deno.rename(partial, file);
  } catch (error) {
    await Deno.remove(partial).catch(() => {});
    throw error;
  }
}

/**
 * `lectern backup FILE`: a running server takes the backup itself (it pauses document changes for the snapshot);
 * with none, the storage is read here.
 */
export async function backup(root: string, file: string): Promise<void> {
  const fromServer = await askServer(root, { command: "backup" });
  if (fromServer) {
    await writeOut(fromServer.body, file);
    if (file !== "-") console.log(`Backup written to ${file} by the running server.`);
    return;
  }
  await existingDatabase(root);
  const paths = storagePaths(root);
  const { createClient } = await import("@libsql/client");
  const client = createClient({ url: `file:${paths.database}` });
  let staged;
  try {
    staged = await stageBackup({
      paths,
      vacuumInto: async (path) => void await client.execute({ sql: "VACUUM INTO ?", args: [path] }),
    });
  } finally {
    client.close();
  }
  await writeOut(staged.stream(), file);
  const bytes = staged.manifest.files.reduce((total, entry) => total + entry.size, 0);
  if (file !== "-") {
    console.log(
      `Backup written to ${file}: ${staged.manifest.files.length} files, ${mib(bytes)} before compression ` +
        `(suggested name ${backupFileName(new Date(staged.manifest.createdAt))}).`,
    );
  }
}

export async function restore(root: string, file: string): Promise<void> {
  await refuseWhileServing(root, "restore a backup");
  if (!(await exists(file))) throw new CliError(`There is no file ${file}.`);
  const { manifest, previous } = await restoreBackup(file, root);
  console.log(
    `Restored the backup of ${manifest.createdAt} (Lectern ${manifest.lecternVersion}, ` +
      `${manifest.files.length} files) into ${root}.`,
  );
  if (previous) {
    console.log(
      `The storage that was there is kept in ${previous}; delete it once the restored instance works.`,
    );
  }
}

async function readStdin(): Promise<string> {
  const text = await new Response(Deno.stdin.readable).text();
  return text.replace(/\r?\n$/, "");
}

/** `lectern reset-password [USER] [--stdin]`: prints the new password once (unless it came from stdin). */
export async function resetPasswordCommand(root: string, user: string | null, stdin: boolean): Promise<void> {
  const password = stdin ? await readStdin() : randomPassword();
  const viaServer = await askServer(root, { command: "reset-password", user, password });
  let username: string | null;
  if (viaServer) {
    await viaServer.body.cancel();
    username = viaServer.header.username ?? null;
  } else {
    const remote = await remoteDatabase();
    const paths = storagePaths(root);
    if (!remote) await refuseNewer(await existingDatabase(root));
    const { openDatabase, openRemoteDatabase } = await import("../../db/client.ts");
    const { loadInstanceKeys } = await import("../auth/keys.ts");
    const { SettingsService } = await import("../settings/service.ts");
    const opened = remote ? await openRemoteDatabase(remote) : await openDatabase(paths.database);
    try {
      const keys = await loadInstanceKeys(paths.keys);
      const settings = await SettingsService.load(opened.db, keys.settings, {});
      ({ username } = await resetPassword(
        { db: opened.db, log: createLogger("error"), settings },
        user,
        password,
      ));
    } finally {
      opened.close();
    }
  }
  const whose = username ? `${username}'s password` : "The instance password";
  if (stdin) console.log(`${whose} is reset; signed-in sessions have ended.`);
  else {
    console.error(`${whose} is now the one below (shown once); signed-in sessions have ended.`);
    console.log(password);
  }
}

export async function migrate(root: string): Promise<void> {
  await refuseWhileServing(root, "migrate the database");
  const remote = await remoteDatabase();
  const paths = storagePaths(root);
  const existed = remote ? true : await exists(paths.database);
  if (!remote && existed) await refuseNewer(paths.database);
  const { ensureStorage, protectDatabase } = await import("../storage.ts");
  await ensureStorage(paths);
  const { openDatabase, openRemoteDatabase } = await import("../../db/client.ts");
  const opened = remote ? await openRemoteDatabase(remote) : await openDatabase(paths.database);
  try {
    if (!remote) await protectDatabase(paths);
    const { applied, backupPath } = opened.migration;
    const where = remote ? ` on ${new URL(remote.url).host}` : "";
    if (applied.length === 0) {
      console.log(`The database${where} is up to date (${KNOWN_MIGRATIONS} migrations).`);
    } else {
      console.log(
        `${existed ? "Applied" : "Created the database with"} ${applied.length} migrations${where}: ${
          applied.join(", ")
        }.`,
      );
      if (backupPath) console.log(`The database as it was before is kept in ${backupPath}.`);
    }
  } finally {
    opened.close();
  }
}
