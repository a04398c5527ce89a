// Client size benchmark: the JavaScript the workspace chat page loads before anyone does anything, gzipped.
// The page is rendered by the real server (in-process, over a temporary storage folder); every script its HTML
// names (the entry, the module preloads) is counted, and every static import those files make, transitively.
// Dynamic imports (islands other pages use, highlight.js languages, dialogs opened later) are not. Needs a
// built client (`deno task build`). Prints a table and a JSON line. Not a timed measurement.
import { gzipSync } from "node:zlib";
import { createTestApp } from "../server/testing/test_app.ts";

/** The goal of issue 21: the chat page's first load, JS gzip. */
export const FIRST_LOAD_GOAL_BYTES = 150 * 1024;

export interface ScriptSize {
  /** The path under /static/, as the page asks for it. */
  file: string;
  bytes: number;
  gzipBytes: number;
}

/** The scripts a page's HTML loads: `<script type="module" src>` and `<link rel="modulepreload" href>`. */
export function scriptsOfHtml(html: string): string[] {
  const found = new Set<string>();
  for (const tag of html.match(/<(script|link)\b[^>]*>/g) ?? []) {
    const isScript = tag.startsWith("<script");
    if (!isScript && !/\brel="modulepreload"/.test(tag)) continue;
    const url = /\b(?:src|href)="([^"]+\.js)"/.exec(tag)?.[1];
    if (url) found.add(url);
  }
  return [...found];
}

/** The files a built chunk imports statically (`import … from "./x.js"`, `import "./x.js"`, `export … from`). */
export function staticImports(code: string): string[] {
  const found = new Set<string>();
  const pattern =
    /(?:^|[;\s}])(?:import|export)\s*(?:[\w*$\s{},]*?\s*from\s*)?["'](\.{1,2}\/[^"']+\.js)["']/g;
  for (const match of code.matchAll(pattern)) found.add(match[1]);
  return [...found];
}

/** Every script the page loads at first: those its HTML names and, transitively, their static imports. */
export async function firstLoad(html: string, directory: string, base = "/static/"): Promise<ScriptSize[]> {
  const seen = new Map<string, ScriptSize>();
  const visit = async (url: string) => {
    if (!url.startsWith(base)) throw new Error(`A script outside ${base}: ${url}`);
    const file = url.slice(base.length);
    if (seen.has(file)) return;
    const bytes = await Deno.readFile(`${directory}/${file}`);
    seen.set(file, { file, bytes: bytes.length, gzipBytes: gzipSync(bytes).length });
    const code = new TextDecoder().decode(bytes);
    const folder = url.slice(0, url.lastIndexOf("/") + 1);
    for (const imported of staticImports(code)) {
      await visit(new URL(imported, `http://page${folder}`).pathname);
    }
  };
  for (const url of scriptsOfHtml(html)) await visit(url);
  return [...seen.values()].sort((a, b) => b.gzipBytes - a.gzipBytes);
}

/** The workspace chat page as the server renders it, and the first-load scripts it names. */
export async function chatPageFirstLoad(): Promise<ScriptSize[]> {
  await using app = await createTestApp();
  const response = await app.request("/workspace/anything");
  if (response.status !== 200) throw new Error(`The chat page answered ${response.status}`);
  const html = await response.text();
  if (!html.includes('data-island="WorkspaceChat"')) throw new Error("The chat page has no chat island");
  return await firstLoad(html, app.deps.assets.directory);
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

if (import.meta.main) {
  const scripts = await chatPageFirstLoad();
  const total = scripts.reduce((sum, script) => sum + script.gzipBytes, 0);
  const raw = scripts.reduce((sum, script) => sum + script.bytes, 0);
  console.log("Workspace chat page, first load (JS, gzip level 6)");
  for (const script of scripts) {
    console.log(
      `  ${script.file.padEnd(44)} ${kb(script.bytes).padStart(10)} ${kb(script.gzipBytes).padStart(10)}`,
    );
  }
  console.log(
    `first load of the workspace chat page, JS gzip: ${kb(total)} in ${scripts.length} files ` +
      `(${kb(raw)} raw); goal ≤ ${kb(FIRST_LOAD_GOAL_BYTES)}`,
  );
  console.log(JSON.stringify({
    bench: "client_size",
    chatFirstLoadGzipBytes: total,
    chatFirstLoadRawBytes: raw,
    files: scripts.length,
    goalGzipBytes: FIRST_LOAD_GOAL_BYTES,
    met: total <= FIRST_LOAD_GOAL_BYTES,
  }));
}
