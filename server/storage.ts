import { join } from "node:path";

/** The Unix socket a running server answers on (server/cli/control.ts); never part of a backup. */
export const CONTROL_SOCKET = "lectern.sock";

/** Paths inside STORAGE_DIR (docs/api-compat.md#storage-layout). */
export interface StoragePaths {
  root: string;
  database: string;
  lancedb: string;
  documents: string;
  uploads: string;
  /** Texts of files attached in the chat (parsed, not embedded). */
  directUploads: string;
  vectorCache: string;
  models: string;
  keys: string;
  profilePictures: string;
  /** The custom logo (assets/, as the reference keeps it). */
  assets: string;
}

export function storagePaths(root: string): StoragePaths {
  return {
    root,
    database: join(root, "lectern.db"),
    lancedb: join(root, "lancedb"),
    documents: join(root, "documents"),
    uploads: join(root, "uploads"),
    directUploads: join(root, "direct-uploads"),
    vectorCache: join(root, "vector-cache"),
    models: join(root, "models"),
    keys: join(root, "keys"),
    profilePictures: join(root, "assets", "pfp"),
    assets: join(root, "assets"),
  };
}

export async function ensureStorage(paths: StoragePaths): Promise<void> {
  for (
    const directory of [
      paths.root,
      paths.lancedb,
      paths.documents,
      paths.uploads,
      paths.directUploads,
      paths.keys,
      paths.profilePictures,
    ]
  ) {
    await Deno.mkdir(directory, { recursive: true });
  }
  // Documents, chats and keys are the owner's alone: nobody else on the machine may read the folder.
  await Deno.chmod(paths.root, 0o700).catch(() => {});
  await Deno.chmod(paths.keys, 0o700).catch(() => {});
}

/** The database and its journal files are readable by the server's user only (they exist once it is open). */
export async function protectDatabase(paths: StoragePaths): Promise<void> {
  for (const file of [paths.database, `${paths.database}-wal`, `${paths.database}-shm`]) {
    await Deno.chmod(file, 0o600).catch(() => {});
  }
}

/**
 * Writes a file so that a crash leaves either the old or the new content: a synced temporary file
 * renamed over the target. `sync: false` skips the sync for files that may be lost (a cache, whose damaged
 * file reads as absent): a rename still never shows a half-written file to a running server.
 */
export function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  mode?: number,
  options: { sync?: boolean } = {},
): Promise<void> {
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  return writeAtomically(path, (file) => writeAll(file, bytes), mode, options);
}

/** Writes all of `bytes` to `file`. */
export async function writeAll(file: Deno.FsFile, bytes: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < bytes.length) offset += await file.write(bytes.subarray(offset));
}

/** `writeFileAtomic` with the content written by `write` into the temporary file. */
export async function writeAtomically(
  path: string,
  write: (file: Deno.FsFile) => Promise<void>,
  mode?: number,
  options: { sync?: boolean } = {},
): Promise<void> {
  const temporary = `${path}.${crypto.randomUUID()}.tmp`;
  const file = await Deno.open(temporary, { write: true, createNew: true, mode });
  try {
    try {
      await write(file);
      if (options.sync !== false) await file.syncData();
    } finally {
      file.close();
    }
    await Deno.rename(temporary, path);
  } catch (error) {
    // A write cut short (a full disk) leaves no half file behind, and gives its space back.
    await Deno.remove(temporary).catch(() => {});
    throw error;
  }
}
