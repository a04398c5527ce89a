// One backup file: a gzip'd tar with manifest.json first, then the storage folder's files under storage/.
// The snapshot is staged inside the storage folder (the database through VACUUM INTO, every other file hard-linked,
// or copied where links cannot be made), so the live folder can change while the archive is being written.
import { createHash } from "../hash.ts";
import { dirname, join, relative, sep } from "node:path";
import { createTarPacker, type TarPackController } from "modern-tar";
import * as z from "zod";
import { LECTERN_VERSION } from "../../shared/version.ts";
import migrations from "../../db/migrations.gen.ts";
import type { StoragePaths } from "../storage.ts";
import { messageOf } from "../errors.ts";

export const BACKUP_FORMAT = "lectern-backup";
export const BACKUP_FORMAT_VERSION = 1;
import { CONTROL_SOCKET } from "../storage.ts";
export { CONTROL_SOCKET };
/** Folders of a snapshot being staged, inside the storage folder (a hard link cannot leave the file system). */
const STAGING_PREFIX = ".backup-";
/** Top-level entries a backup leaves out: caches and downloads that are made again, the live database files. */
const SKIPPED_FOLDERS = new Set(["models", "vector-cache"]);
const isSkipped = (name: string) =>
  SKIPPED_FOLDERS.has(name) || name === CONTROL_SOCKET || name.startsWith(STAGING_PREFIX) ||
  name.startsWith("lectern.db") || name.endsWith(".tmp") || name.endsWith(".partial");

export const BackupManifest = z.object({
  format: z.literal(BACKUP_FORMAT),
  formatVersion: z.number().int().min(1),
  lecternVersion: z.string(),
  /** Database migrations applied in the backed-up database (its schema), and the last one's tag. */
  migrations: z.number().int().min(0),
  lastMigration: z.string().nullable(),
  createdAt: z.string(),
  files: z.array(z.object({ path: z.string(), size: z.number().int().min(0), sha256: z.string() })),
});
export type BackupManifest = z.infer<typeof BackupManifest>;

/** A failure the operator is told about in a sentence (the CLI's exit code 1, the route's answer). */
export class BackupError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "BackupError";
  }
}

/** A message as a sentence: native errors (LanceDB, gzip) end without a period. */
export function sentence(message: string): string {
  return message.trim().replace(/[.!?]?$/, (end) => end || ".");
}

/** Migrations this build knows (the schema it creates). */
export const KNOWN_MIGRATIONS = migrations.length;

/** The file name a backup of `now` is offered under. */
export function backupFileName(now = new Date()): string {
  return `lectern-backup-${stamp(now)}.tar.gz`;
}

/** `20260102T030405Z`: a time that sorts and fits in a file name. */
export function stamp(now = new Date()): string {
  return now.toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z");
}

export interface SnapshotSource {
  paths: StoragePaths;
  /** Writes a consistent copy of the database to `path` (libSQL's `VACUUM INTO`). */
  vacuumInto(path: string): Promise<void>;
  /** Runs the snapshot while no document is being added or removed (the running server's embed gate). */
  hold?<T>(work: () => Promise<T>): Promise<T>;
}

export interface StagedBackup {
  manifest: BackupManifest;
  /** The archive, gzip'd; the staged snapshot is removed once it has been read to the end or cancelled. */
  stream(): ReadableStream<Uint8Array>;
  /** Removes the staged snapshot (when the stream is never read). */
  dispose(): Promise<void>;
}

/** sha256 and size of a file, read in chunks. */
async function digestFile(path: string): Promise<{ sha256: string; size: number }> {
  const hash = createHash("sha256");
  let size = 0;
  using file = await Deno.open(path);
  for await (const chunk of file.readable) {
    hash.update(chunk);
    size += chunk.length;
  }
  return { sha256: hash.digest("hex"), size };
}

/** Every file under `root`, as paths relative to it with forward slashes, sorted. */
async function filesUnder(root: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (directory: string) => {
    for await (const entry of Deno.readDir(directory)) {
      const path = join(directory, entry.name);
      if (entry.isDirectory) await walk(path);
      else if (entry.isFile) found.push(relative(root, path).split(sep).join("/"));
    }
  };
  await walk(root);
  return found.sort();
}

/** Hard-links (or, across file systems, copies) one file; a file removed meanwhile is left out. */
async function linkFile(from: string, to: string): Promise<void> {
  await Deno.mkdir(dirname(to), { recursive: true });
  try {
    await Deno.link(from, to);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return;
    try {
      await Deno.copyFile(from, to);
    } catch (copyError) {
      if (!(copyError instanceof Deno.errors.NotFound)) throw copyError;
    }
  }
}

/** Links a folder's files; `first` names subfolders linked before the rest (at any depth). */
async function linkTree(from: string, to: string, first: (name: string) => boolean = () => false) {
  let entries: Deno.DirEntry[];
  try {
    entries = await Array.fromAsync(Deno.readDir(from));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return;
    throw error;
  }
  entries.sort((a, b) => Number(first(b.name)) - Number(first(a.name)));
  for (const entry of entries) {
    if (entry.isDirectory) await linkTree(join(from, entry.name), join(to, entry.name), first);
    else if (entry.isFile) await linkFile(join(from, entry.name), join(to, entry.name));
  }
}

/**
 * LanceDB never changes a file once written: a commit adds data files, then a version manifest naming them.
 * Each table's `_versions` folder is linked before its data, so every version in the copy finds its files.
 */
const lanceFirst = (name: string) => name === "_versions";

/** Removes staged snapshots a killed process left (older than an hour, so none being written now). */
async function sweepStaging(root: string): Promise<void> {
  for await (const entry of Deno.readDir(root)) {
    if (!entry.isDirectory || !entry.name.startsWith(STAGING_PREFIX)) continue;
    const path = join(root, entry.name);
    const info = await Deno.stat(path).catch(() => null);
    if (info?.mtime && Date.now() - info.mtime.getTime() > 3_600_000) {
      await Deno.remove(path, { recursive: true }).catch(() => {});
    }
  }
}

/** Applied migrations recorded in a database file, and the last one's tag. */
export async function schemaOf(databasePath: string): Promise<{ count: number; last: string | null }> {
  const { createClient } = await import("@libsql/client");
  const client = createClient({ url: `file:${databasePath}` });
  try {
    const table = await client.execute(
      `SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = '__drizzle_migrations'`,
    );
    if (Number(table.rows[0][0]) === 0) return { count: 0, last: null };
    const rows = await client.execute(`SELECT created_at FROM "__drizzle_migrations" ORDER BY created_at`);
    const whens = rows.rows.map((row) => Number(row[0]));
    const last = whens.at(-1);
    return {
      count: whens.length,
      last: last === undefined ? null : (migrations.find((m) => m.when === last)?.tag ?? String(last)),
    };
  } finally {
    client.close();
  }
}

/** Opens every LanceDB table of `directory` and reads each row's document id: a missing file fails here. */
export async function verifyLance(directory: string): Promise<{ tables: number; rows: number }> {
  const hasTables = await Array.fromAsync(Deno.readDir(directory)).then(
    (entries) => entries.some((entry) => entry.isDirectory && entry.name.endsWith(".lance")),
    () => false,
  );
  if (!hasTables) return { tables: 0, rows: 0 };
  if (!Deno.env.get("LANCEDB_LOG")) Deno.env.set("LANCEDB_LOG", "error");
  const lancedb = await import("@lancedb/lancedb");
  const connection = await lancedb.connect(directory);
  let rows = 0;
  const names = await connection.tableNames();
  try {
    for (const name of names) {
      const table = await connection.openTable(name);
      try {
        const count = await table.countRows();
        const read = await table.query().select(["doc_id"]).toArray();
        if (read.length !== count) {
          throw new BackupError(`The vector table ${name} holds ${read.length} of its ${count} rows.`);
        }
        rows += count;
      } finally {
        table.close();
      }
    }
  } finally {
    connection.close();
  }
  return { tables: names.length, rows };
}

/**
 * Stages a snapshot of the storage folder and describes it: the database copied by VACUUM INTO, every other
 * file (LanceDB's included) hard-linked, all while `hold` keeps documents from being added or removed; then the
 * copy of the vectors is read back and every file's checksum taken.
 */
export async function stageBackup(source: SnapshotSource, now = new Date()): Promise<StagedBackup> {
  const { paths } = source;
  await sweepStaging(paths.root);
  const staging = join(paths.root, `${STAGING_PREFIX}${crypto.randomUUID()}`);
  const tree = join(staging, "storage");
  await Deno.mkdir(tree, { recursive: true, mode: 0o700 });
  const dispose = () => Deno.remove(staging, { recursive: true }).catch(() => {});
  try {
    const snapshot = async () => {
      await source.vacuumInto(join(tree, "lectern.db"));
      await linkTree(paths.lancedb, join(tree, relative(paths.root, paths.lancedb)), lanceFirst);
      for await (const entry of Deno.readDir(paths.root)) {
        const from = join(paths.root, entry.name);
        if (isSkipped(entry.name) || from === paths.lancedb) continue;
        if (entry.isDirectory) await linkTree(from, join(tree, entry.name));
        else if (entry.isFile) await linkFile(from, join(tree, entry.name));
      }
    };
    await (source.hold ? source.hold(snapshot) : snapshot());
    const lance = join(tree, relative(paths.root, paths.lancedb));
    try {
      await verifyLance(lance);
    } catch (error) {
      throw new BackupError(`The copy of the vector database cannot be read: ${sentence(messageOf(error))}`, {
        cause: error,
      });
    }
    const schema = await schemaOf(join(tree, "lectern.db"));
    const files = [];
    for (const path of await filesUnder(tree)) {
      files.push({ path, ...(await digestFile(join(tree, path))) });
    }
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      formatVersion: BACKUP_FORMAT_VERSION,
      lecternVersion: LECTERN_VERSION,
      migrations: schema.count,
      lastMigration: schema.last,
      createdAt: now.toISOString(),
      files,
    };
    return { manifest, stream: () => archiveStream(tree, manifest, dispose), dispose };
  } catch (error) {
    await dispose();
    throw error;
  }
}

/** Writes one tar entry from a file; the entry's stream waits whenever the archive's reader is behind. */
async function addFile(pack: TarPackController, name: string, path: string, size: number): Promise<void> {
  const body = pack.add({ name, size, mode: 0o600, type: "file" });
  using file = await Deno.open(path);
  let written = 0;
  // The manifest promised this size: a file that grew meanwhile (it cannot: it is a snapshot) is cut to it.
  const cut = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      const part = chunk.subarray(0, Math.max(0, size - written));
      written += part.length;
      if (part.length > 0) controller.enqueue(part);
    },
    flush() {
      if (written !== size) {
        throw new BackupError(`The staged file ${name} changed while it was being archived.`);
      }
    },
  });
  await file.readable.pipeThrough(cut).pipeTo(body);
}

function archiveStream(
  tree: string,
  manifest: BackupManifest,
  dispose: () => Promise<void>,
): ReadableStream<Uint8Array> {
  const { readable, controller: pack } = createTarPacker();
  const produce = async () => {
    const json = new TextEncoder().encode(JSON.stringify(manifest, null, 2));
    const writer = pack.add({ name: "manifest.json", size: json.length, mode: 0o600, type: "file" })
      .getWriter();
    await writer.write(json);
    await writer.close();
    for (const file of manifest.files) {
      await addFile(pack, `storage/${file.path}`, join(tree, file.path), file.size);
    }
    pack.finalize();
  };
  produce().catch((error) => pack.error(error));
  const gzipped = readable.pipeThrough(new CompressionStream("gzip"));
  const reader = gzipped.getReader();
  let disposed = false;
  const cleanUp = async () => {
    if (disposed) return;
    disposed = true;
    await dispose();
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          // The staged snapshot is gone before the reader sees the end.
          await cleanUp();
          controller.close();
        } else controller.enqueue(value);
      } catch (error) {
        controller.error(error);
        await cleanUp();
      }
    },
    async cancel(reason) {
      await reader.cancel(reason).catch(() => {});
      await cleanUp();
    },
  });
}
