// Bundles the server into dist/server/ with `deno bundle` (esbuild inside), so that a start loads a few dozen
// files of plain JavaScript rather than about 600 TypeScript and npm modules (issue 21). The entry is
// server/bundle_main.ts (dist/server/bundle_main.js), which runs server/main.ts. Every dynamic import stays a
// chunk of its own, loaded when first used, as from source. The bundle is minified (names kept): V8 keeps each
// loaded module's source in its heap. The native addons' packages (and the packages that load them) stay
// outside, loaded from node_modules as from source; so do the optional decoders audio-decode picks at run time. With --if-stale it bundles only when the bundle is missing or older than a source.
//
//   deno run -A scripts/build_server.ts [--if-stale]
import { fileURLToPath, pathToFileURL } from "node:url";
import { listSources, sourcesNewerThan, writeSourceList } from "./source_times.ts";

const root = fileURLToPath(new URL("..", import.meta.url)).replace(/\/$/, "");
export const SERVER_DIST = `${root}/dist/server`;
/** The bundle's entry module, which `deno task start` and `deno task lectern` run. */
export const SERVER_BUNDLE = `${SERVER_DIST}/bundle_main.js`;
const ENTRY = "server/bundle_main.ts";
/** The list of the bundle's sources (scripts/source_times.ts), which the staleness check stats. */
const SOURCE_LIST_NAME = "sources.json";
const SOURCE_LIST = `${SERVER_DIST}/${SOURCE_LIST_NAME}`;

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
  // The OpenAPI document's JSON Schema (@standard-community/standard-json imports zod's core by name, on first
  // use). Bundled, its namespace (locales included) made every zod locale live, and esbuild put them all in the
  // chunk a start loads with zod; the server's modules import zod's namespace (`import * as z`), so the rest of
  // what they leave unused stays out too (issue 21).
  {
    pattern: "zod/v4/core",
    why: "zod's core, which the OpenAPI document's JSON Schema imports whole, on first use",
  },
];

/**
 * Packages the server imports on first use (`import("pkg")`) stay outside too, loaded as from source. Bundled,
 * a CommonJS package imported that way keeps only its default export (esbuild: "import() of CommonJS gives
 * default"), where Deno also gives its named ones: `const { Readability } = await import(...)` got undefined
 * and every web page was read whole, navigation included. Loaded on first use, they cost a start nothing; ES
 * module packages imported that way (drizzle's driver, the SDKs) are bundled as the rest.
 */
export function lazilyImportedPackages(): string[] {
  const found = new Set<string>();
  const scan = (path: string) => {
    for (const entry of Deno.readDirSync(path)) {
      const child = `${path}/${entry.name}`;
      if (entry.isDirectory) scan(child);
      else if (/\.tsx?$/.test(entry.name) && !notBundled(child)) {
        for (const match of Deno.readTextFileSync(child).matchAll(/\bimport\(\s*"([^".][^"]*)"\s*\)/g)) {
          const parts = match[1].replace(/^npm:/, "").split("/");
          found.add(parts[0].startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0]);
        }
      }
    }
  };
  for (const folder of ["server", "shared", "db"]) scan(`${root}/${folder}`);
  return [...found].filter((name) => !name.startsWith("node:") && isCommonJs(name)).sort();
}

/** Whether a package in node_modules ships CommonJS only (no ES module entry for an `import`). */
function isCommonJs(name: string): boolean {
  let manifest: { type?: string; module?: string; exports?: unknown };
  try {
    manifest = JSON.parse(Deno.readTextFileSync(`${root}/node_modules/${name}/package.json`));
  } catch {
    return true; // not installed here: left outside, as from source
  }
  const hasImportCondition = (exports: unknown): boolean =>
    typeof exports === "object" && exports !== null &&
    Object.entries(exports).some(([key, value]) => key === "import" || hasImportCondition(value));
  return manifest.type !== "module" && !manifest.module && !hasImportCondition(manifest.exports);
}

/** Files of no part in the bundle: tests and test helpers. */
const notBundled = (path: string) => /_test\.tsx?$|\/testing\//.test(path);

/** Whether the bundle is missing or older than one of its sources. */
export async function serverIsStale(): Promise<boolean> {
  let built: number;
  try {
    built = (await Deno.stat(SERVER_BUNDLE)).mtime?.getTime() ?? 0;
  } catch {
    return true;
  }
  return sourcesNewerThan(built, root, SOURCES, SOURCE_LIST);
}

/**
 * Minified, with the functions' and classes' names kept (stack traces and logs still name them). V8 holds the
 * source of every module it loaded as a string, and the minified bundle is about half the size: after a page
 * and an embed 3.1 MiB less resident memory (V8 heap used 28 → 26 MiB), idle about 1 MiB less
 * (bench/memory_account.ts, 3 alternated pairs; issue 21); the CPU to the first ping did not change. No source
 * map: Deno reads a linked one as it loads each chunk, which cost 2.6 MiB idle and 7 MiB after use; a stack
 * trace names the bundle's chunk and column (run from source, `deno task dev`, for the source's lines).
 */
export const MINIFY = ["--minify", "--keep-names"];

/** The arguments given to `deno` to bundle the server (from `entry`, by default server/bundle_main.ts) into `outdir`. */
export function bundleArgs(outdir: string, entry = ENTRY): string[] {
  return [
    "bundle",
    "--quiet",
    "--platform=deno",
    "--code-splitting",
    "--node-modules-dir=manual",
    ...MINIFY,
    `--outdir=${outdir}`,
    ...EXTERNAL.map((external) => `--external=${external.pattern}`),
    ...lazilyImportedPackages().flatMap((name) => [`--external=${name}`, `--external=${name}/*`]),
    entry,
  ];
}

/**
 * esbuild's stand-in for `require` in the modules of CommonJS packages, minified: it uses a global `require` when
 * there is one and otherwise throws "Dynamic require of … is not supported". Deno replaces it with Node's
 * `createRequire` in a bundle that is not minified only (it matches the unminified text), so in a minified one
 * React's server renderer could not `require("node:util")` and no page rendered.
 */
const MINIFIED_REQUIRE_SHIM =
  /\((\w+)=>typeof require<"u"\?require:typeof Proxy<"u"\?new Proxy\(\1,\{get:\((\w+),(\w+)\)=>\(typeof require<"u"\?require:\2\)\[\3\]\}\):\1\)\(function\((\w+)\)\{if\(typeof require<"u"\)return require\.apply\(this,arguments\);throw Error\('Dynamic require of "'\+\4\+'" is not supported'\)\}\)/g;
const SHIM_MESSAGE = "Dynamic require of";
const CREATE_REQUIRE = "__lectern_createRequire";

/**
 * Replaces esbuild's minified `require` stand-in in the chunks in `dir` by Node's `createRequire` for the chunk,
 * as Deno does in an unminified bundle. Returns how many chunks were changed; throws when a stand-in is left
 * (a newer esbuild writing it otherwise), so that a build never ships a bundle whose pages cannot render.
 */
export async function replaceRequireShim(dir: string): Promise<number> {
  let changed = 0;
  for (const entry of Deno.readDirSync(dir)) {
    if (!entry.isFile || !entry.name.endsWith(".js")) continue;
    const path = `${dir}/${entry.name}`;
    const code = await Deno.readTextFile(path);
    if (!code.includes(SHIM_MESSAGE)) continue;
    const replaced = code.replace(MINIFIED_REQUIRE_SHIM, `${CREATE_REQUIRE}(import.meta.url)`);
    if (replaced.includes(SHIM_MESSAGE)) {
      throw new Error(`${entry.name}: esbuild's require stand-in is not in the form this build replaces.`);
    }
    await Deno.writeTextFile(
      path,
      `import{createRequire as ${CREATE_REQUIRE}}from"node:module";${replaced}`,
    );
    changed++;
  }
  return changed;
}

/** How many builds' files stay in dist/server/: a server started from an older one still loads its chunks. */
const BUILDS_KEPT = 3;
/** The files of the last builds, newest first (dist/server/builds.json). */
const BUILDS_FILE = "builds.json";

/**
 * Bundles the server into dist/server/. The bundle is written beside it first; then its files are moved in (a
 * chunk's name holds a hash of its content, so a new build's chunks never replace an older build's) and the
 * entry last, so a server that is running keeps loading the chunks of the build it started from: its routes
 * load on first use, maybe long after a rebuild. Files of no part in the last `BUILDS_KEPT` builds are removed.
 * Returns false (and says why) when bundling failed.
 */
export async function buildServer(): Promise<boolean> {
  const staging = `${SERVER_DIST}.new`;
  // Listed before bundling: a source changed while the bundle is made is newer than the bundle.
  const sources = listSources(root, SOURCES);
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
  try {
    await replaceRequireShim(staging);
  } catch (error) {
    await Deno.remove(staging, { recursive: true }).catch(() => {});
    console.error(`The server bundle failed: ${error instanceof Error ? error.message : error}`);
    return false;
  }
  await Deno.mkdir(SERVER_DIST, { recursive: true });
  const entry = SERVER_BUNDLE.slice(SERVER_DIST.length + 1);
  const files = [...Deno.readDirSync(staging)].filter((file) => file.isFile).map((file) => file.name);
  for (const name of files) {
    if (name !== entry) await Deno.rename(`${staging}/${name}`, `${SERVER_DIST}/${name}`);
  }
  writeSourceList(SOURCE_LIST, sources);
  await Deno.rename(`${staging}/${entry}`, SERVER_BUNDLE);
  await Deno.remove(staging, { recursive: true }).catch(() => {});
  await keepLastBuilds(SERVER_DIST, files);
  return true;
}

/** Records a build's files in `dir` and removes the files of no part in the last `BUILDS_KEPT` builds. */
export async function keepLastBuilds(dir: string, files: string[]): Promise<void> {
  let builds: string[][] = [];
  try {
    const recorded = JSON.parse(await Deno.readTextFile(`${dir}/${BUILDS_FILE}`));
    if (Array.isArray(recorded)) builds = recorded.filter(Array.isArray);
  } catch {
    // No record yet (or an unreadable one): only this build's files are known.
  }
  builds = [files, ...builds].slice(0, BUILDS_KEPT);
  const kept = new Set([BUILDS_FILE, SOURCE_LIST_NAME, ...builds.flat()]);
  await Deno.writeTextFile(`${dir}/${BUILDS_FILE}`, JSON.stringify(builds));
  for (const file of Deno.readDirSync(dir)) {
    if (!kept.has(file.name)) await Deno.remove(`${dir}/${file.name}`, { recursive: true });
  }
}

/**
 * Runs the server (or a `lectern` command) in this process from its bundle, bundling it first when a source is
 * newer; when the bundle cannot be built, from the source (server/main.ts), as before there was a bundle.
 */
export async function runServer(): Promise<void> {
  if (await serverIsStale()) {
    console.error("Bundling the server (its source is newer than dist/server/)…");
    if (!(await buildServer())) {
      console.error("Running the server from its source.");
      // Computed, so that the source's module graph is not loaded with this script when the bundle runs.
      await import(new URL("../server/main.ts", import.meta.url).href);
      return;
    }
  }
  await import(pathToFileURL(SERVER_BUNDLE).href);
}

if (import.meta.main) {
  const ifStale = Deno.args.includes("--if-stale");
  if (ifStale && !(await serverIsStale())) Deno.exit(0);
  const started = performance.now();
  if (!(await buildServer())) Deno.exit(1);
  console.log(`Server bundled in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
