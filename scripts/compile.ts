// Builds the client, then compiles Lectern into one executable with the client bundle embedded (migrations
// are code, so they travel inside). `deno compile` needs the denort runtime for the target: set DENORT_BIN to
// a denort binary, or have it in the Deno cache ($DENO_DIR/dl/release/v<version>/denort-<target>.zip).
//
//   deno task compile [--target=<triple>] [--output=FILE]
//
// What the executable carries: the module graph from server/main.ts (literal dynamic imports included, so the
// worker processes' modules and the migrations come along), the INCLUDES below (what the graph cannot see), and
// the npm packages installed in node_modules, native addons included. Native addons are per platform: the
// release builds each target on a runner of that platform (.github/workflows/release.yml), where `deno install`
// puts that platform's packages in node_modules; this script refuses to build when they are missing.
// tests/ops/compile_graph_test.ts checks that these lists cover everything the server can load.
import { join, resolve } from "node:path";
import { moduleGraph, ROOT } from "./module_graph.ts";

/** The release targets (release.yml builds one job per target; install.sh downloads `lectern-<target>`). */
export const TARGETS = [
  "x86_64-unknown-linux-gnu",
  "aarch64-unknown-linux-gnu",
  "aarch64-apple-darwin",
] as const;
export type Target = typeof TARGETS[number];

/** A target's platform as npm names it (package.json "os" and "cpu"), and its C library. */
export function npmPlatform(target: string): { os: string; cpu: string; libc: "gnu" | null } {
  const [arch, , system] = target.split("-");
  const cpu = arch === "x86_64" ? "x64" : arch === "aarch64" ? "arm64" : arch;
  if (system === "linux") return { os: "linux", cpu, libc: "gnu" };
  if (system === "darwin") return { os: "darwin", cpu, libc: null };
  if (system === "windows") return { os: "win32", cpu, libc: null };
  throw new Error(`Unknown target ${target}.`);
}

/**
 * What `deno compile` must be told to include: files the module graph from server/main.ts does not reach
 * (computed import specifiers, `new Worker` modules, files read beside a module). A folder includes all below it.
 */
export const INCLUDES: { path: string; why: string }[] = [
  { path: "dist/static", why: "the client bundle, served from disk (server/pages/assets.ts)" },
  {
    path: "client/locales",
    why: "the interface's texts, read by the server to render pages (server/pages/language.ts)",
  },
  {
    path: "server/pages/routes.tsx",
    why: "loaded with a computed specifier on the first page request (server/app.ts)",
  },
  { path: "server/agents/skills/sql_worker.ts", why: "the SQL skill's worker (`new Worker`)" },
  {
    path: "server/providers/vectors/soft_words.bin",
    why:
      "the hybrid search's soft matches (each word stem's nearest neighbours by word vectors), read on first use (server/providers/vectors/soft_words.ts)",
  },
];

/** The arguments given to `deno compile`. */
export function compileArgs(options: { output: string; target?: string }): string[] {
  return [
    "compile",
    "-A",
    ...INCLUDES.flatMap((include) => ["--include", include.path]),
    "--output",
    options.output,
    ...(options.target ? ["--target", options.target] : []),
    "server/main.ts",
  ];
}

interface LockPackage {
  os?: string[];
  cpu?: string[];
  optionalDependencies?: string[];
}

function matches(list: string[] | undefined, value: string): boolean {
  if (!list || list.length === 0) return true;
  const negated = list.filter((entry) => entry.startsWith("!")).map((entry) => entry.slice(1));
  if (negated.includes(value)) return false;
  const positive = list.filter((entry) => !entry.startsWith("!"));
  return positive.length === 0 || positive.includes(value);
}

/** Whether an npm package (by its lock entry and name) is built for `target`. musl builds never are. */
export function packageFitsTarget(name: string, entry: LockPackage, target: string): boolean {
  const platform = npmPlatform(target);
  if (!matches(entry.os, platform.os) || !matches(entry.cpu, platform.cpu)) return false;
  return !(platform.libc === "gnu" && /musl/.test(name));
}

/**
 * The platform-specific packages a target needs, from the lock file: for every package with platform-restricted
 * optional dependencies (LanceDB, libSQL, argon2, node-llama-cpp), the ones built for the target. Keys are the
 * lock's package ids (name@version). With `reached` (the server graph's packages), only those packages count.
 */
export function nativePackagesFor(
  lock: { npm: Record<string, LockPackage> },
  target: string,
  reached?: Set<string>,
): {
  parent: string;
  packages: string[];
}[] {
  const npm = lock.npm;
  const byName = new Map<string, string[]>();
  for (const id of Object.keys(npm)) {
    const name = id.slice(0, id.indexOf("@", 1));
    byName.set(name, [...(byName.get(name) ?? []), id]);
  }
  const needs: { parent: string; packages: string[] }[] = [];
  for (const [parent, entry] of Object.entries(npm)) {
    if (reached && !reached.has(parent)) continue;
    const variants: { id: string; name: string; entry: LockPackage }[] = [];
    for (const dependency of entry.optionalDependencies ?? []) {
      if (dependency.includes("@npm:empty-npm-package")) continue;
      const ids = byName.get(dependency) ?? [];
      for (const id of ids) {
        const variant = npm[id];
        if (variant.os || variant.cpu) variants.push({ id, name: dependency, entry: variant });
      }
    }
    if (variants.length === 0) continue;
    needs.push({
      parent,
      packages: variants.filter((variant) => packageFitsTarget(variant.name, variant.entry, target)).map((
        variant,
      ) => variant.id),
    });
  }
  return needs;
}

/** The folder of an installed npm package (Deno's node_modules layout), or null when it is not installed. */
export function installedPackageDir(id: string): string | null {
  const name = id.slice(0, id.indexOf("@", 1));
  const version = id.slice(name.length + 1).split("_")[0];
  const folder = join(
    ROOT,
    "node_modules/.deno",
    `${name.replace("/", "+")}@${version}`,
    "node_modules",
    name,
  );
  try {
    return Deno.statSync(folder).isDirectory ? folder : null;
  } catch {
    return null;
  }
}

function denortAvailable(target: string | undefined): string | null {
  const explicit = Deno.env.get("DENORT_BIN");
  if (explicit) {
    try {
      if (Deno.statSync(explicit).isFile) return explicit;
    } catch {
      console.error(`DENORT_BIN points to ${explicit}, which does not exist.`);
      Deno.exit(1);
    }
  }
  const home = Deno.env.get("HOME") ?? "";
  const denoDir = Deno.env.get("DENO_DIR") ?? `${home}/.cache/deno`;
  const version = Deno.version.deno;
  const triple = target ?? Deno.build.target;
  const cached = `${denoDir}/dl/release/v${version}/denort-${triple}.zip`;
  try {
    if (Deno.statSync(cached).isFile) return cached;
  } catch {
    // not cached
  }
  return null;
}

async function main(): Promise<void> {
  const output = resolve(
    Deno.args.find((arg) => arg.startsWith("--output="))?.slice("--output=".length) ?? "lectern",
  );
  const target = Deno.args.find((arg) => arg.startsWith("--target="))?.slice("--target=".length);
  const triple = target ?? Deno.build.target;
  if (!(TARGETS as readonly string[]).includes(triple)) {
    console.warn(`${triple} is not a release target (${TARGETS.join(", ")}); building it anyway.`);
  }

  // The native addons travel from node_modules: refuse to build an executable that would fail at start.
  const lock = JSON.parse(await Deno.readTextFile(join(ROOT, "deno.lock")));
  const reached = new Set((await moduleGraph()).npmPackages.keys());
  const missing = nativePackagesFor(lock, triple, reached).flatMap((need) =>
    need.packages.filter((id) => installedPackageDir(id) === null)
  );
  if (missing.length > 0) {
    console.error(
      `The native packages for ${triple} are not installed: ${missing.join(", ")}. ` +
        "Build on a machine of that platform after `deno install`.",
    );
    Deno.exit(1);
  }

  if (!denortAvailable(target)) {
    console.warn(
      "No denort runtime found (DENORT_BIN unset and none in the Deno cache); deno compile will try to download it.",
    );
  }

  const { buildClient } = await import("./build_client.ts");
  await buildClient();
  const args = compileArgs({ output, target });
  const { code } = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: ROOT,
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (code !== 0) {
    console.error(
      "deno compile failed. Without network access it needs DENORT_BIN or a cached denort runtime.",
    );
    Deno.exit(code);
  }
  console.log(`Wrote ${output}`);
}

if (import.meta.main) await main();
