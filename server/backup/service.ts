// Backups taken by the running server: `POST /api/admin/backup` and `lectern backup` through the control socket.
import { sql } from "drizzle-orm";
import type { Deps } from "../deps.ts";
import { fail } from "../errors.ts";
import { logEvent } from "../events/log.ts";
import { backupFileName, stageBackup, type StagedBackup } from "./archive.ts";

/** Storage folders with a backup being taken: one at a time each (a snapshot holds disk space and the gate). */
const running = new Set<string>();

export const REMOTE_DATABASE_BACKUP_MESSAGE =
  "The database is on a libSQL server (DATABASE_URL): back it up with that server's tools, and the storage folder with the file system's (docs/scaling.md).";

export const BACKUP_BUSY_MESSAGE = "A backup is already being taken. Try again when it has finished.";

export interface ServerBackup {
  name: string;
  staged: StagedBackup;
  /** The archive; the one-at-a-time slot is freed when it has been read to the end or cancelled. */
  stream: ReadableStream<Uint8Array>;
}

/**
 * Takes a snapshot of the running server's storage (documents are neither added nor removed meanwhile; chats
 * go on) and returns its archive. A second backup while one is being taken or streamed is refused (409).
 */
export async function takeBackup(
  deps: Pick<Deps, "db" | "log" | "paths" | "providers"> & { config: Pick<Deps["config"], "database"> },
  by: { userId: number | null; via: "api" | "cli" },
): Promise<ServerBackup> {
  const root = deps.paths.root;
  // VACUUM INTO would write the copy on the database server's machine, not into this storage folder.
  if (deps.config.database) fail("unavailable", REMOTE_DATABASE_BACKUP_MESSAGE);
  if (running.has(root)) fail("conflict", BACKUP_BUSY_MESSAGE);
  running.add(root);
  let staged: StagedBackup;
  try {
    staged = await stageBackup({
      paths: deps.paths,
      vacuumInto: async (path) => void await deps.db.run(sql`VACUUM INTO ${path}`),
      hold: (work) => deps.providers.embedding.whileStill(work),
    });
  } catch (error) {
    running.delete(root);
    throw error;
  }
  const name = backupFileName(new Date(staged.manifest.createdAt));
  await logEvent(deps, "backup_created", {
    file: name,
    files: staged.manifest.files.length,
    bytes: staged.manifest.files.reduce((total, file) => total + file.size, 0),
    via: by.via,
  }, by.userId);
  deps.log.info("Backup taken", { file: name, via: by.via });
  const inner = staged.stream();
  const reader = inner.getReader();
  const release = () => running.delete(root);
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          release();
          controller.close();
        } else controller.enqueue(value);
      } catch (error) {
        release();
        controller.error(error);
      }
    },
    async cancel(reason) {
      release();
      await reader.cancel(reason).catch(() => {});
    },
  });
  return { name, staged, stream };
}
