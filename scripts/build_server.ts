// Bundles the server into dist/server/ with `deno bundle` (esbuild inside), so that a start loads a few dozen
// files of plain JavaScript rather than about 600 TypeScript and npm modules (issue 21). The entry is
// server/bundle_main.ts (dist/server/bundle_main.js), which runs server/main.ts. Every dynamic import stays a
// chunk of its own, loaded when first used, as from source. The native addons' packages (and the packages that
// load them) stay outside, loaded from node_modules as from source; so do the optional decoders audio-decode
// picks at run time. With --if-stale it bundles only when the bundle is missing or older than a source.
//
//   deno run -A scripts/build_server.ts [--if-stale]
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url)).replace(/\/$/, "");
export const SERVER_DIST = `${root}/dist/server`;
/** The bundle's entry module, which `deno task start` and `deno task lectern` run. */
export const SERVER_BUNDLE = `${SERVER_DIST}/bundle_main.js`;
const ENTRY = "server/bundle_main.ts";

/** What the bundle is made of (the server imports client/ modules to render pages). */
const SOURCES = ["server", "shared", "db", "client", "deno.json", "deno.lock", "scripts/build_server.ts"];

/** Packages loaded from node_modules at run time rather than bundled, and why. */
export const EXTERNAL: { pattern: string; why: string }[] = [
  { pattern: "@libsql/*", why: "native addon (the database)" },
  { pattern: "libsql", why: "native addon (the database)" },
  { pattern: "@lancedb/*", why: "native addon (the vector store)" },
  { pattern: "@node-rs/*", why: "native addon (argon2)" },
  { pattern: "node-llama-cpp", why: "native addon (local models), loaded on first use" },
  { pattern: "onnxruntime-node", why: "native addon (the built-in embedder)" },
  { pattern: "@huggingface/transformers", why: "loads onnxruntime-node, on first use" },
  { pattern: "audio-decode", why: "picks its optional decoders (@audio/*) at run time" },
  { pattern: "@audio/*", why: "audio-decode's optional decoders" },
];

/** Files of no part in the bundle: tests and test helpers. */
const notBundled = (path: string) => /_test\.tsx?$|\/testing\//.test(path);

/** The newest modification time of the files under `path` (synchronous calls: a start waits on this walk). */
function newestSourceTime(path: string): number {
  const info = Deno.statSync(path);
  if (!info.isDirectory) return notBundled(path) ? 0 : info.mtime?.getTime() ?? 0;
  let newest = 0;
  for (const entry of Deno.readDirSync(path)) {
    newest = Math.max(newest, newestSourceTime(`${path}/${entry.name}`));
  }
  return newest;
}

/** Whether the bundle is missing or older than one of its sources. */
export async function serverIsStale(): Promise<boolean> {
  let built: number;
  try {
    built = (await Deno.stat(SERVER_BUNDLE)).mtime?.getTime() ?? 0;
  } catch {
    return true;
  }
  for (const source of SOURCES) {
    try {
      if (newestSourceTime(`${root}/${source}`) > built) return true;
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
  }
  return false;
}

/** The arguments given to `deno` to bundle the server into `outdir`. */
export function bundleArgs(outdir: string): string[] {
  return [
    "bundle",
    "--quiet",
    "--platform=deno",
    "--code-splitting",
    "--node-modules-dir=manual",
    `--outdir=${outdir}`,
    ...EXTERNAL.map((external) => `--external=${external.pattern}`),
    ENTRY,
  ];
}

/**
 * Bundles the server into dist/server/, written beside it first and then moved in its place, so that a server
 * running from the old bundle never sees half of the new one. Returns false (and says why) when bundling failed.
 */
export async function buildServer(): Promise<boolean> {
  const staging = `${SERVER_DIST}.new`;
  await Deno.remove(staging, { recursive: true }).catch(() => {});
  const { code } = await new Deno.Command(Deno.execPath(), {
    args: bundleArgs(staging),
    cwd: root,
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (code !== 0) {
    await Deno.remove(staging, { recursive: true }).catch(() => {});
    console.error("The server bundle failed.");
    return false;
  }
  const old = `${SERVER_DIST}.old`;
  await Deno.remove(old, { recursive: true }).catch(() => {});
  await Deno.rename(SERVER_DIST, old).catch(() => {});
  await Deno.rename(staging, SERVER_DIST);
  await Deno.remove(old, { recursive: true }).catch(() => {});
  return true;
}

if (import.meta.main) {
  const ifStale = Deno.args.includes("--if-stale");
  if (ifStale && !(await serverIsStale())) Deno.exit(0);
  const started = performance.now();
  if (!(await buildServer())) Deno.exit(1);
  console.log(`Server bundled in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
