// Where the app's files are (deno.json, dist/, client/locales, node_modules), whether the server runs from its
// source (server/main.ts: tests, `deno task dev`, `deno compile`) or from the bundle scripts/build_server.ts
// writes (dist/server/lectern.js: `deno task start` and `deno task lectern`). A module's own import.meta.url
// says where it is only under the source layout; in the bundle every module is in dist/server/, so paths beside
// a module go through here. The bundle's entry (server/bundle_main.ts) says where the root is before any other
// module of the server runs.

/** What the bundle's entry declares: the app's root, its own file, and the modules it bundled as chunks. */
export interface BundleInfo {
  /** The app's root folder (a file: URL ending in "/"). */
  root: string;
  /** The bundle's entry module (a file: URL), which worker processes start from. */
  entry: string;
  /** Loads the pages' module (server/pages/routes.tsx, on the first page request), a chunk of its own. */
  pages: () => Promise<unknown>;
}

const BUNDLE = Symbol.for("lectern.bundle");

/** Called by the bundle's entry, before it loads the server. */
export function declareBundle(info: BundleInfo): void {
  (globalThis as { [BUNDLE]?: BundleInfo })[BUNDLE] = info;
}

/** The bundle's declaration when the server runs from dist/server/, else null (the source layout). */
export function bundle(): BundleInfo | null {
  return (globalThis as { [BUNDLE]?: BundleInfo })[BUNDLE] ?? null;
}

/** The app's root folder as a file: URL ending in "/". */
export function appRoot(): URL {
  return new URL(bundle()?.root ?? new URL("../", import.meta.url).href);
}

/** A file or folder of the app, by its path from the root ("dist/static", "client/locales/"). */
export function fromRoot(path: string): URL {
  return new URL(path, appRoot());
}
