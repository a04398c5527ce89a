// Builds the client with Vite. With --if-stale it builds only when dist/ is missing or older than a source.
import { fileURLToPath } from "node:url";
import { listSources, sourcesNewerThan, writeSourceList } from "./source_times.ts";

const root = fileURLToPath(new URL("..", import.meta.url)).replace(/\/$/, "");
const manifest = `${root}/dist/static/.vite/manifest.json`;
const SOURCES = ["client", "shared", "vite.config.ts", "vite.widget.config.ts", "deno.json", "package.json"];
/** The list of the client build's sources (scripts/source_times.ts), outside dist/static (which is served). */
const SOURCE_LIST = `${root}/dist/client_sources.json`;

/** The embeddable chat widget (client/embed/widget.ts), built on its own by vite.widget.config.ts. */
export const WIDGET_FILE = `${root}/dist/static/embed/lectern-chat-widget.min.js`;

/**
 * The API docs viewer (GET /api/docs, server/developer_api/openapi.ts): Swagger UI's bundle and styles, copied
 * from the pinned swagger-ui-dist package, and the page's initializer, into the client output, so the server
 * (and the compiled binary, which includes dist/static) serves them itself.
 */
export const DOCS_VIEWER_DIR = `${root}/dist/static/docs`;
const DOCS_VIEWER_FILES: [from: string, to: string][] = [
  [`${root}/node_modules/swagger-ui-dist/swagger-ui-bundle.js`, "swagger-ui-bundle.js"],
  [`${root}/node_modules/swagger-ui-dist/swagger-ui.css`, "swagger-ui.css"],
  [`${root}/node_modules/swagger-ui-dist/LICENSE`, "SWAGGER-UI-LICENSE.txt"],
  [`${root}/client/docs/swagger_init.js`, "swagger-init.js"],
];

/** Copies the docs viewer's files; source map comments are dropped (the maps are not shipped). */
export async function copyDocsViewer(): Promise<void> {
  await Deno.mkdir(DOCS_VIEWER_DIR, { recursive: true });
  for (const [from, to] of DOCS_VIEWER_FILES) {
    const text = await Deno.readTextFile(from);
    await Deno.writeTextFile(
      `${DOCS_VIEWER_DIR}/${to}`,
      text.replace(/\n?\/[/*]# sourceMappingURL=\S+\s*$/, "\n"),
    );
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

export async function clientIsStale(): Promise<boolean> {
  let built: number;
  try {
    built = (await Deno.stat(manifest)).mtime?.getTime() ?? 0;
  } catch {
    return true;
  }
  for (const [, file] of DOCS_VIEWER_FILES) {
    if (!(await exists(`${DOCS_VIEWER_DIR}/${file}`))) return true;
  }
  if (!(await exists(WIDGET_FILE))) return true;
  return sourcesNewerThan(built, root, SOURCES, SOURCE_LIST);
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

async function vite(args: string[]): Promise<void> {
  const command = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "npm:vite", "build", "--logLevel", "warn", ...args],
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

export async function buildClient(extraArgs: string[] = []): Promise<void> {
  // Listed before building: a source changed while the client is built is newer than the build.
  const sources = listSources(root, SOURCES);
  await installPackages();
  await vite(extraArgs);
  // After the main build, which empties dist/static.
  await vite(["--config", "vite.widget.config.ts"]);
  await copyDocsViewer();
  writeSourceList(SOURCE_LIST, sources);
}

if (import.meta.main) {
  const ifStale = Deno.args.includes("--if-stale");
  if (ifStale && !(await clientIsStale())) Deno.exit(0);
  const started = performance.now();
  await buildClient(Deno.args.filter((arg) => arg !== "--if-stale"));
  console.log(`Client built in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
