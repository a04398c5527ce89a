// The compiled executable's module graph is complete: every computed dynamic import, `new Worker` module, worker
// process and file read beside a module that the server's graph can reach is in the graph `deno compile`
// embeds or in scripts/compile.ts's INCLUDES, and every native library it can load comes with an npm package
// built for each release target. (Building the executable itself needs the denort runtime, which cannot be
// downloaded here; .github/workflows/release.yml builds and starts it on each platform.)
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  compileArgs,
  INCLUDES,
  installedPackageDir,
  nativePackagesFor,
  npmPlatform,
  TARGETS,
} from "../../scripts/compile.ts";
import {
  type LoadSite,
  loadSites,
  type ModuleGraph,
  moduleGraph,
  ROOT,
  uncoveredSites,
} from "../../scripts/module_graph.ts";

const includes = INCLUDES.map((include) => join(ROOT, include.path));
const main = await Deno.readTextFile(join(ROOT, "server/main.ts"));
// Files read beside a module that the executable never reads, and why.
const EXEMPT = new Map([[
  ROOT,
  "server/app_root.ts names the app's root folder itself; the files under it are each found through fromRoot",
], [
  join(ROOT, "deno.json"),
  "server/worker_command.ts reads it only under `deno run`; compiled, a worker is the executable itself",
], [
  join(ROOT, "node_modules/.deno"),
  "server/worker_command.ts looks for it only under `deno run`; compiled, a worker is the executable itself",
]]);

let graph: ModuleGraph | null = null;
async function serverGraph(): Promise<ModuleGraph> {
  return graph ??= await moduleGraph("server/main.ts");
}

async function sitesOf(files: Iterable<string>): Promise<LoadSite[]> {
  const sites: LoadSite[] = [];
  for (const file of files) {
    if (!/\.(ts|tsx|js|mjs)$/.test(file)) continue;
    sites.push(...loadSites(file, await Deno.readTextFile(file)));
  }
  return sites;
}

const NATIVE = /\.(node|so(\.\d+)*|dylib|wasm)$/;

async function nativeFiles(folder: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (directory: string) => {
    for await (const entry of Deno.readDir(directory)) {
      const path = join(directory, entry.name);
      if (entry.isDirectory) await walk(path);
      else if (NATIVE.test(entry.name)) found.push(path);
    }
  };
  await walk(folder);
  return found;
}

Deno.test("deno compile gets the entry point, the INCLUDES and nothing else; each include exists", async () => {
  const args = compileArgs({ output: "out", target: "aarch64-unknown-linux-gnu" });
  assert.equal(args.at(-1), "server/main.ts");
  assert.deepEqual(
    args.flatMap((arg, index) => args[index - 1] === "--include" ? [arg] : []),
    INCLUDES.map((include) => include.path),
  );
  assert.deepEqual(args.slice(args.indexOf("--target"), args.indexOf("--target") + 2), [
    "--target",
    "aarch64-unknown-linux-gnu",
  ]);
  for (const include of INCLUDES) {
    await Deno.stat(join(ROOT, include.path)); // throws when a listed include is missing
  }
});

Deno.test("every computed import, worker and file the server's graph can load is embedded or included", async () => {
  const graph = await serverGraph();
  // The graph really is the one the executable embeds: the migrations and the workers' modules are in it, the
  // pages module (reached only through a computed import and a type) is not.
  assert.ok(graph.localFiles.has(join(ROOT, "db/migrations.gen.ts")));
  assert.ok(graph.localFiles.has(join(ROOT, "server/documents/parse_worker.ts")));
  assert.ok(graph.localFiles.has(join(ROOT, "server/providers/vectors/maintenance_worker.ts")));
  assert.ok(!graph.localFiles.has(join(ROOT, "server/pages/routes.tsx")));

  const sites = await sitesOf(graph.localFiles);
  // The scan finds the known sites: the computed pages import, both worker processes, the client bundle folder.
  const found = (kind: LoadSite["kind"], path: string) =>
    sites.some((site) => site.kind === kind && site.target === join(ROOT, path));
  assert.ok(found("import", "server/pages/routes.tsx"));
  assert.ok(found("process-worker", "server/documents/parse_worker.ts"));
  assert.ok(found("process-worker", "server/providers/vectors/maintenance_worker.ts"));
  assert.ok(found("file", "dist/static"));

  assert.deepEqual(uncoveredSites(sites, graph, includes, main, EXEMPT), []);
});

Deno.test("a new worker module, computed import or worker mode without an include is reported", async () => {
  const graph = await serverGraph();
  const file = join(ROOT, "server/documents/example.ts");
  const source = [
    'const worker = new Worker(new URL("./ocr_worker.ts", import.meta.url), { type: "module" });',
    'const NAME = "./plugins/extra.ts";',
    "const plugin = await import(NAME);",
    "const dynamic = await import(`./parsers/${kind}.ts`);",
    "const unknown = await import(someValue);",
    'const command = workerCommand(import.meta.url, "ocr-worker", {});',
  ].join("\n");
  const sites = loadSites(file, source);
  assert.deepEqual(sites.map((site) => site.kind), [
    "import",
    "import",
    "import",
    "worker",
    "process-worker",
  ]);
  const problems = uncoveredSites(sites, graph, includes, main, EXEMPT);
  assert.equal(problems.length, 5, problems.join("\n"));
  assert.match(
    problems.join("\n"),
    /worker server\/documents\/ocr_worker\.ts is neither in the module graph/,
  );
  assert.match(problems.join("\n"), /import server\/documents\/plugins\/extra\.ts is neither/);
  assert.match(problems.join("\n"), /import server\/documents\/parsers\/ is neither/);
  assert.match(problems.join("\n"), /cannot tell what import someValue loads/);
  assert.match(problems.join("\n"), /does not dispatch the worker mode "ocr-worker"/);

  // Listed in the includes (a folder covers what is below it), the same sites pass, but for the mode and the
  // unknown specifier.
  const widened = [
    ...includes,
    join(ROOT, "server/documents/ocr_worker.ts"),
    join(ROOT, "server/documents/plugins"),
    join(ROOT, "server/documents/parsers"),
  ];
  assert.equal(uncoveredSites(sites, graph, widened, main, EXEMPT).length, 2);
  // Paths from the app's root (server/app_root.ts) are load sites too, inside a worker or alone.
  const fromRootSites = loadSites(
    file,
    'new Worker(fromRoot("server/ocr_worker.ts"), { type: "module" });\nconst data = fromRoot("data/extra/");',
  );
  assert.deepEqual(fromRootSites.map((site) => [site.kind, site.target]), [
    ["worker", join(ROOT, "server/ocr_worker.ts")],
    ["file", join(ROOT, "data/extra")],
  ]);
  assert.equal(uncoveredSites(fromRootSites, graph, includes, main, EXEMPT).length, 2);
  // Comments and type positions are not load sites.
  assert.deepEqual(
    loadSites(file, '// new Worker(new URL("./x.ts", import.meta.url))\ntype T = typeof import("./y.ts");'),
    [],
  );
});

Deno.test("every native library the server can load comes in an npm package built for each release target", async () => {
  const graph = await serverGraph();
  const reached = new Set(graph.npmPackages.keys());
  const lock = JSON.parse(await Deno.readTextFile(join(ROOT, "deno.lock")));
  const nameOf = (id: string) => id.slice(0, id.indexOf("@", 1));

  // The native addons the server loads, by the package that loads them.
  const families = nativePackagesFor(lock, "x86_64-unknown-linux-gnu", reached).map((need) =>
    nameOf(need.parent)
  );
  for (const family of ["@lancedb/lancedb", "libsql", "@node-rs/argon2", "node-llama-cpp"]) {
    assert.ok(families.includes(family), `${family} loads a platform package`);
  }
  for (const target of TARGETS) {
    for (const need of nativePackagesFor(lock, target, reached)) {
      assert.ok(need.packages.length > 0, `${need.parent} has no package built for ${target}`);
    }
  }

  // On this machine every native package for its own target is installed (so embedded), and every native
  // file of the reached packages lies inside an installed package: none is loaded from elsewhere.
  const host = Deno.build.target;
  if ((TARGETS as readonly string[]).includes(host)) {
    for (const need of nativePackagesFor(lock, host, reached)) {
      for (const id of need.packages) assert.ok(installedPackageDir(id), `${id} is installed`);
    }
  }
  const withNative: string[] = [];
  for (const [id, info] of graph.npmPackages) {
    const folder = installedPackageDir(id);
    if (!folder) continue;
    assert.equal(info.localPath, folder, `${id} is loaded from node_modules`);
    const files = await nativeFiles(folder);
    if (files.length > 0) withNative.push(nameOf(id));
    // A package that carries the binaries of several platforms itself (onnxruntime-node) has one per target.
    const perPlatform = files.filter((file) => /\/(linux|darwin|win32)\/(x64|arm64)\//.test(file));
    if (perPlatform.length > 0) {
      for (const target of TARGETS) {
        const { os, cpu } = npmPlatform(target);
        assert.ok(
          perPlatform.some((file) => file.includes(`/${os}/${cpu}/`)),
          `${id} has no native library for ${target}`,
        );
      }
    }
  }
  for (const expected of ["@lancedb/lancedb-linux-x64-gnu", "@libsql/linux-x64-gnu", "onnxruntime-node"]) {
    if (host === "x86_64-unknown-linux-gnu") assert.ok(withNative.includes(expected), expected);
  }

  // No native library or wasm file in the project's own folders, unless included.
  const own: string[] = [];
  for (const folder of ["server", "db", "shared"]) own.push(...await nativeFiles(join(ROOT, folder)));
  assert.deepEqual(own.filter((file) => !includes.some((include) => file.startsWith(include))), []);
});
