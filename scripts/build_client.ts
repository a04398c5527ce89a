// Builds the client with Vite. With --if-stale it builds only when dist/ is missing or older than a source.
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const manifest = `${root}/dist/static/.vite/manifest.json`;
const SOURCES = ["client", "shared", "vite.config.ts", "deno.json", "package.json"];

async function newestSourceTime(path: string): Promise<number> {
  const info = await Deno.stat(path);
  if (!info.isDirectory) return info.mtime?.getTime() ?? 0;
  let newest = info.mtime?.getTime() ?? 0;
  for await (const entry of Deno.readDir(path)) {
    newest = Math.max(newest, await newestSourceTime(`${path}/${entry.name}`));
  }
  return newest;
}

export async function clientIsStale(): Promise<boolean> {
  let built: number;
  try {
    built = (await Deno.stat(manifest)).mtime?.getTime() ?? 0;
  } catch {
    return true;
  }
  for (const source of SOURCES) {
    if (await newestSourceTime(`${root}/${source}`) > built) return true;
  }
  return false;
}

/** Vite resolves the client's packages from node_modules, which a fresh clone does not have yet. */
async function installPackages(): Promise<void> {
  const { code } = await new Deno.Command(Deno.execPath(), {
    args: ["install", "--quiet"],
    cwd: root,
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (code !== 0) {
    console.error("Installing the npm packages failed.");
    Deno.exit(code);
  }
}

export async function buildClient(extraArgs: string[] = []): Promise<void> {
  await installPackages();
  const command = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "npm:vite", "build", "--logLevel", "warn", ...extraArgs],
    cwd: root,
    stdout: "inherit",
    stderr: "inherit",
  });
  const { code } = await command.output();
  if (code !== 0) {
    console.error("The client build failed.");
    Deno.exit(code);
  }
}

if (import.meta.main) {
  const ifStale = Deno.args.includes("--if-stale");
  if (ifStale && !(await clientIsStale())) Deno.exit(0);
  const started = performance.now();
  await buildClient(Deno.args.filter((arg) => arg !== "--if-stale"));
  console.log(`Client built in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
