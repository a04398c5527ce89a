// Whether a build is older than its sources, for the staleness checks of `deno task start` and `deno task
// lectern` (scripts/build_client.ts, scripts/build_server.ts), which a start waits on (issue 21).
//
// A build writes the list of its sources (files and folders, tests left out) beside its output. A check then
// stats each listed path, with no folder to read: a file edited in place has a newer time; a file added,
// removed or renamed makes its folder's time newer; and `git pull` (like `git checkout`) writes each file it
// changes as a new file, which changes both. A listed path that is gone makes the build stale too. Without a
// list (a build made before there were lists), the check walks the folders. A path stat'ed once is not stat'ed
// again in the same process: `deno task start` checks the client and then the server, and both use client/ and
// shared/.

/** Whether a file or folder, by its name, is of no part in any build: a test, or a `testing/` folder of helpers. */
export const isTestName = (name: string): boolean => name === "testing" || /_test\.tsx?$/.test(name);

/** A build's sources, by their paths from the repository's root: the folders, then the files. */
export interface SourceList {
  folders: string[];
  files: string[];
}

/** Lists the files and folders under `sources` (paths from `root`), tests left out. Missing ones are skipped. */
export function listSources(root: string, sources: string[]): SourceList {
  const list: SourceList = { folders: [], files: [] };
  const walk = (path: string) => {
    const info = Deno.statSync(`${root}/${path}`);
    if (!info.isDirectory) {
      list.files.push(path);
      return;
    }
    list.folders.push(path);
    for (const entry of Deno.readDirSync(`${root}/${path}`)) {
      if (!isTestName(entry.name)) walk(`${path}/${entry.name}`);
    }
  };
  for (const source of sources) {
    try {
      walk(source);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
  }
  return list;
}

/** Writes a build's source list to `file`. */
export function writeSourceList(file: string, list: SourceList): void {
  Deno.writeTextFileSync(file, JSON.stringify(list));
}

/** The modification times stat'ed by this process, by path; -1 for a path that is gone. */
const stated = new Map<string, number>();

function timeOf(path: string): number {
  let time = stated.get(path);
  if (time === undefined) {
    try {
      time = Deno.statSync(path).mtime?.getTime() ?? 0;
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
      time = -1;
    }
    stated.set(path, time);
  }
  return time;
}

/**
 * Whether a build finished at `built` (ms) is older than one of its sources: by the list in `listFile` when
 * there is one, else by a walk of `sources`.
 */
export function sourcesNewerThan(built: number, root: string, sources: string[], listFile: string): boolean {
  let list: SourceList | null = null;
  try {
    const read = JSON.parse(Deno.readTextFileSync(listFile));
    if (Array.isArray(read?.folders) && Array.isArray(read?.files)) list = read;
  } catch {
    // No list (or an unreadable one): the folders are walked.
  }
  if (!list) list = listSources(root, sources);
  for (const path of [...list.folders, ...list.files]) {
    const time = timeOf(`${root}/${path}`);
    if (time < 0 || time > built) return true;
  }
  return false;
}

/** Forgets the times stat'ed so far (a test changes files between two checks in one process). */
export function forgetSourceTimes(): void {
  stated.clear();
}
