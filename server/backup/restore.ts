// Restoring a backup file: unpacked and checked in a new folder beside the storage, swapped in only when whole.
import { createHash } from "../hash.ts";
import { basename, dirname, join } from "node:path";
import { createTarDecoder, type ParsedTarEntry } from "modern-tar";
import {
  BACKUP_FORMAT,
  BACKUP_FORMAT_VERSION,
  BackupError,
  BackupManifest,
  KNOWN_MIGRATIONS,
  schemaOf,
  sentence,
  stamp,
  verifyLance,
} from "./archive.ts";
import { messageOf } from "../errors.ts";
import { LECTERN_VERSION } from "../../shared/version.ts";

export interface RestoreResult {
  manifest: BackupManifest;
  /** Where the storage folder was before (kept until the operator deletes it); null when there was none. */
  previous: string | null;
}

/** The archive's entries, read from the gzip'd file as they are asked for (Web Streams carry the back-pressure). */
function entriesOf(file: Deno.FsFile): ReadableStreamDefaultReader<ParsedTarEntry> {
  return file.readable.pipeThrough(new DecompressionStream("gzip")).pipeThrough(createTarDecoder())
    .getReader();
}

/** A name inside the archive's storage/ that stays inside the folder it is unpacked into. */
function safePath(name: string): string | null {
  if (!name.startsWith("storage/")) return null;
  const path = name.slice("storage/".length);
  if (!path || path.startsWith("/") || path.includes("\\") || path.includes("\0")) return null;
  if (path.split("/").some((part) => part === "" || part === "." || part === "..")) return null;
  return path;
}

function checkManifest(value: unknown): BackupManifest {
  const parsed = BackupManifest.safeParse(value);
  if (!parsed.success || parsed.data.format !== BACKUP_FORMAT) {
    throw new BackupError("This file is not a Lectern backup: its manifest is missing or unreadable.");
  }
  const manifest = parsed.data;
  if (manifest.formatVersion > BACKUP_FORMAT_VERSION) {
    throw new BackupError(
      `This backup was written in a newer format (version ${manifest.formatVersion}) by Lectern ` +
        `${manifest.lecternVersion}; this is Lectern ${LECTERN_VERSION}. Restore it with that version or newer.`,
    );
  }
  if (manifest.migrations > KNOWN_MIGRATIONS) {
    throw new BackupError(
      `This backup's database has a newer schema (${manifest.migrations} migrations) than this Lectern knows ` +
        `(${KNOWN_MIGRATIONS}); restore it with Lectern ${manifest.lecternVersion} or newer.`,
    );
  }
  return manifest;
}

/** Unpacks the archive into `target` (which must not exist), checking each file against the manifest. */
async function unpack(archive: string, target: string): Promise<BackupManifest> {
  using file = await Deno.open(archive).catch((error) => {
    if (error instanceof Deno.errors.NotFound) throw new BackupError(`There is no file ${archive}.`);
    throw error;
  });
  const entries = entriesOf(file);

  let manifest: BackupManifest | null = null;
  const seen = new Map<string, { size: number; sha256: string }>();
  await Deno.mkdir(target, { mode: 0o700 });
  try {
    while (true) {
      const next = await entries.read();
      if (next.done) break;
      const entry = next.value;
      const { name, type } = entry.header;
      if (manifest === null) {
        if (name !== "manifest.json" || type !== "file") {
          throw new BackupError("This file is not a Lectern backup: it does not start with its manifest.");
        }
        let json: unknown = null;
        try {
          json = JSON.parse(await new Response(entry.body).text());
        } catch {
          // checkManifest names it
        }
        manifest = checkManifest(json);
        continue;
      }
      if (type === "directory") {
        await entry.body.cancel();
        continue;
      }
      const path = safePath(name);
      if (type !== "file" || path === null) {
        throw new BackupError(`The backup holds an entry Lectern does not restore: ${name}.`);
      }
      if (seen.has(path)) throw new BackupError(`The backup holds ${path} twice.`);
      const destination = join(target, ...path.split("/"));
      await Deno.mkdir(dirname(destination), { recursive: true, mode: 0o700 });
      const hash = createHash("sha256");
      let size = 0;
      const out = await Deno.open(destination, { write: true, createNew: true, mode: 0o600 });
      try {
        for await (const chunk of entry.body) {
          hash.update(chunk);
          size += chunk.length;
          let offset = 0;
          while (offset < chunk.length) offset += await out.write(chunk.subarray(offset));
        }
        await out.syncData();
      } finally {
        out.close();
      }
      seen.set(path, { size, sha256: hash.digest("hex") });
    }
  } catch (error) {
    await entries.cancel().catch(() => {});
    throw error;
  }
  if (manifest === null) throw new BackupError("This file is not a Lectern backup: it is empty.");
  const listed = new Set(manifest.files.map((entry) => entry.path));
  for (const expected of manifest.files) {
    const found = seen.get(expected.path);
    if (!found) throw new BackupError(`The backup is incomplete: ${expected.path} is missing.`);
    if (found.size !== expected.size || found.sha256 !== expected.sha256) {
      throw new BackupError(`The backup is damaged: ${expected.path} does not match its checksum.`);
    }
  }
  for (const path of seen.keys()) {
    if (!listed.has(path)) {
      throw new BackupError(`The backup holds ${path}, which its manifest does not list.`);
    }
  }
  if (!listed.has("lectern.db")) throw new BackupError("The backup is incomplete: it holds no database.");
  return manifest;
}

/** Reads only the manifest (the first entry), for `lectern restore` to refuse early and to describe a file. */
export async function readManifest(archive: string): Promise<BackupManifest> {
  using file = await Deno.open(archive);
  const entries = entriesOf(file);
  try {
    const first = await entries.read();
    if (first.done || first.value.header.name !== "manifest.json") {
      throw new BackupError("This file is not a Lectern backup: it does not start with its manifest.");
    }
    let json: unknown = null;
    try {
      json = JSON.parse(await new Response(first.value.body).text());
    } catch {
      // checkManifest names it
    }
    return checkManifest(json);
  } finally {
    // The rest of the file is not read.
    await entries.cancel().catch(() => {});
  }
}

/** PRAGMA integrity_check on the restored database, and its schema against the manifest's. */
async function checkDatabase(path: string, manifest: BackupManifest): Promise<void> {
  const { createClient } = await import("@libsql/client");
  const client = createClient({ url: `file:${path}` });
  try {
    const result = await client.execute("PRAGMA integrity_check");
    const verdict = result.rows.map((row) => String(row[0]));
    if (verdict.length !== 1 || verdict[0] !== "ok") {
      throw new BackupError(`The backup's database is damaged: ${verdict.slice(0, 3).join("; ")}.`);
    }
  } catch (error) {
    if (error instanceof BackupError) throw error;
    throw new BackupError(`The backup's database cannot be read: ${sentence(messageOf(error))}`, {
      cause: error,
    });
  } finally {
    client.close();
  }
  const schema = await schemaOf(path);
  if (schema.count !== manifest.migrations) {
    throw new BackupError(
      `The backup's database records ${schema.count} migrations where its manifest says ${manifest.migrations}.`,
    );
  }
}

/**
 * Restores `archive` into the storage folder `root`: unpacked into `<root>.restore-<time>` beside it, checked
 * (checksums, the database's integrity_check, every vector table read), then swapped in; the storage that was
 * there is kept as `<root>.before-restore-<time>`. On any failure the storage folder is left as it was.
 */
export async function restoreBackup(archive: string, root: string, now = new Date()): Promise<RestoreResult> {
  const time = stamp(now);
  const parent = dirname(root);
  await Deno.mkdir(parent, { recursive: true });
  const target = join(parent, `${basename(root)}.restore-${time}`);
  try {
    let manifest: BackupManifest;
    try {
      manifest = await unpack(archive, target);
    } catch (error) {
      if (error instanceof BackupError) throw error;
      throw new BackupError(
        `The backup file cannot be read (is it a whole Lectern backup?): ${sentence(messageOf(error))}`,
        { cause: error },
      );
    }
    await checkDatabase(join(target, "lectern.db"), manifest);
    try {
      await verifyLance(join(target, "lancedb"));
    } catch (error) {
      throw new BackupError(`The backup's vector database cannot be read: ${sentence(messageOf(error))}`, {
        cause: error,
      });
    }
    let previous: string | null = join(parent, `${basename(root)}.before-restore-${time}`);
    try {
      await Deno.rename(root, previous);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
      previous = null;
    }
    await Deno.rename(target, root);
    await Deno.chmod(root, 0o700).catch(() => {});
    return { manifest, previous };
  } catch (error) {
    await Deno.remove(target, { recursive: true }).catch(() => {});
    throw error;
  }
}
