// The module graph `deno compile server/main.ts` embeds, read from `deno info --json`: the local modules reached
// through code imports (type-only imports are not emitted, so they do not count; literal dynamic imports do),
// and the npm packages those modules reach, with their dependencies. Used by scripts/compile.ts and
// tests/ops/compile_graph_test.ts.
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("..", import.meta.url));

interface InfoDependency {
  specifier: string;
  code?: { specifier: string };
  type?: { specifier: string };
  isDynamic?: boolean;
}

interface InfoModule {
  kind: string;
  specifier: string;
  local?: string;
  dependencies?: InfoDependency[];
  npmPackage?: string;
}

export interface InfoPackage {
  name: string;
  version: string;
  dependencies: string[];
  localPath?: string;
}

export interface ModuleGraph {
  /** Absolute paths of the local files (modules, JSON) the code graph reaches. */
  localFiles: Set<string>;
  /** Lock ids (name@version[_peer…]) of the npm packages the code graph reaches, dependencies included. */
  npmPackages: Map<string, InfoPackage>;
}

/** Runs `deno info --json` on an entry point (relative to the project root) and walks its code edges. */
export async function moduleGraph(entry = "server/main.ts"): Promise<ModuleGraph> {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", entry],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (code !== 0) throw new Error(`deno info failed: ${new TextDecoder().decode(stderr)}`);
  const info = JSON.parse(new TextDecoder().decode(stdout)) as {
    roots: string[];
    modules: InfoModule[];
    redirects: Record<string, string>;
    npmPackages: Record<string, InfoPackage>;
  };
  const bySpecifier = new Map(info.modules.map((module) => [module.specifier, module]));
  const resolve = (specifier: string) => info.redirects[specifier] ?? specifier;
  const seen = new Set<string>();
  const queue = info.roots.map(resolve);
  const localFiles = new Set<string>();
  const npmRoots = new Set<string>();
  while (queue.length > 0) {
    const specifier = queue.pop()!;
    if (seen.has(specifier)) continue;
    seen.add(specifier);
    const module = bySpecifier.get(specifier);
    if (!module) continue;
    if (module.kind === "npm" && module.npmPackage) npmRoots.add(module.npmPackage);
    if (module.local && specifier.startsWith("file:")) localFiles.add(module.local);
    for (const dependency of module.dependencies ?? []) {
      if (dependency.code) queue.push(resolve(dependency.code.specifier));
    }
  }
  const npmPackages = new Map<string, InfoPackage>();
  const pending = [...npmRoots];
  while (pending.length > 0) {
    const id = pending.pop()!;
    if (npmPackages.has(id)) continue;
    const found = info.npmPackages[id];
    if (!found) continue;
    npmPackages.set(id, found);
    pending.push(...found.dependencies);
  }
  return { localFiles, npmPackages };
}

/** What a source file can load that the graph may not show: computed imports, workers, files beside it. */
export interface LoadSite {
  file: string;
  line: number;
  kind: "import" | "worker" | "process-worker" | "file";
  /** The argument as written. */
  expression: string;
  /** The file (or, for a template prefix, the folder) it loads; null when it cannot be told from the source. */
  target: string | null;
  /** The mode a process worker is started with (`workerCommand(…, "mode")`). */
  mode?: string;
  /** Whether the specifier is a string literal (Deno's graph follows those). */
  literal: boolean;
}

/** Blanks comments out, keeping strings, template literals and line numbers. */
export function stripComments(source: string): string {
  let out = "";
  let index = 0;
  while (index < source.length) {
    const char = source[index];
    const next = source[index + 1];
    if (char === "/" && next === "/") {
      while (index < source.length && source[index] !== "\n") index++;
    } else if (char === "/" && next === "*") {
      const end = source.indexOf("*/", index + 2);
      const stop = end === -1 ? source.length : end + 2;
      out += source.slice(index, stop).replace(/[^\n]/g, " ");
      index = stop;
    } else if (char === '"' || char === "'" || char === "`") {
      let end = index + 1;
      while (end < source.length && source[end] !== char) end += source[end] === "\\" ? 2 : 1;
      out += source.slice(index, end + 1);
      index = end + 1;
    } else {
      out += char;
      index++;
    }
  }
  return out;
}

/** The text between the parenthesis at `open` and its match, split into top-level arguments. */
function callArguments(source: string, open: number): string[] {
  const args: string[] = [];
  let depth = 0;
  let start = open + 1;
  for (let index = open; index < source.length; index++) {
    const char = source[index];
    if (char === '"' || char === "'" || char === "`") {
      let end = index + 1;
      while (end < source.length && source[end] !== char) end += source[end] === "\\" ? 2 : 1;
      index = end;
    } else if (char === "(" || char === "[" || char === "{") depth++;
    else if (char === ")" || char === "]" || char === "}") {
      depth--;
      if (depth === 0) {
        args.push(source.slice(start, index).trim());
        break;
      }
    } else if (char === "," && depth === 1) {
      args.push(source.slice(start, index).trim());
      start = index + 1;
    }
  }
  return args.filter((arg) => arg.length > 0);
}

const STRING = /^(["'])((?:\\.|(?!\1).)*)\1$/;

/** Resolves a specifier expression written in `file` to a path, following one `const NAME = …` indirection. */
function resolveExpression(expression: string, file: string, source: string, depth = 0): string | null {
  const text = expression.replace(/\s+as\s+[\s\S]*$/, "").replace(/^\(([\s\S]*)\)$/, "$1").trim();
  const directory = file.slice(0, file.lastIndexOf("/") + 1);
  const relative = (specifier: string) =>
    specifier.startsWith(".") || specifier.startsWith("/")
      ? fileURLToPath(new URL(specifier, `file://${directory}`))
      : null;
  const literal = text.match(STRING);
  if (literal) return relative(literal[2]);
  const url = text.match(/^new URL\(\s*([\s\S]+?)\s*,\s*import\.meta\.url\s*\)(?:\.(?:href|pathname))?$/);
  if (url) return resolveExpression(url[1], file, source, depth);
  // A path from the app's root (server/app_root.ts), which the bundle and the source share.
  const fromRoot = text.match(/^fromRoot\(\s*(["'])([^"'/][^"']*)\1\s*\)(?:\.(?:href|pathname))?$/);
  if (fromRoot) return ROOT + fromRoot[2].replace(/\/$/, "");
  const template = text.match(/^`([^`$]*)\$\{/);
  if (template) return relative(template[1].slice(0, template[1].lastIndexOf("/") + 1) || "./");
  const identifier = text.match(/^[A-Za-z_$][\w$]*$/);
  if (identifier && depth < 2) {
    const declaration = source.match(new RegExp(`(?:const|let)\\s+${text}\\s*(?::[^=]+)?=\\s*([^;\\n]+)`));
    if (declaration) return resolveExpression(declaration[1], file, source, depth + 1);
  }
  return null;
}

/** Finds the load sites in one source file. */
export function loadSites(file: string, original: string): LoadSite[] {
  const source = stripComments(original);
  const sites: LoadSite[] = [];
  const lineOf = (index: number) => source.slice(0, index).split("\n").length;
  const patterns: [RegExp, LoadSite["kind"]][] = [
    [/(?<![\w$.])import\s*\(/g, "import"],
    [/\bnew\s+(?:Shared)?Worker\s*\(/g, "worker"],
    [/(?<!function\s+)\bworkerCommand\s*\(/g, "process-worker"],
    [/\bnew\s+URL\s*\(/g, "file"],
    [/(?<![\w$.]|function\s+)fromRoot\s*\(/g, "file"],
  ];
  const claimed = new Set<number>();
  for (const [pattern, kind] of patterns) {
    for (const match of source.matchAll(pattern)) {
      const open = match.index! + match[0].length - 1;
      if (kind === "import" && /typeof\s*$/.test(source.slice(Math.max(0, match.index! - 20), match.index))) {
        continue;
      }
      const args = callArguments(source, open);
      if (args.length === 0) continue;
      const expression = args[0];
      if (kind === "file") {
        // Only `new URL(x, import.meta.url)` names a file beside the module; ones inside an import or a worker
        // were counted there.
        if (claimed.has(match.index!)) continue;
        if (match[0].startsWith("fromRoot")) {
          sites.push({
            file,
            line: lineOf(match.index!),
            kind,
            expression: match[0] + expression + ")",
            target: resolveExpression(`fromRoot(${expression})`, file, source),
            literal: false,
          });
          continue;
        }
        if (args[1] !== "import.meta.url") continue;
      } else {
        // Mark the `new URL(` calls inside this argument as claimed.
        const inner = source.indexOf(expression, open);
        for (const url of expression.matchAll(/\bnew\s+URL\s*\(|(?<![\w$.])fromRoot\s*\(/g)) {
          claimed.add(inner + url.index!);
        }
      }
      if (kind === "process-worker") {
        const mode = args[1]?.match(STRING)?.[2];
        sites.push({
          file,
          line: lineOf(match.index!),
          kind,
          expression,
          target: expression === "import.meta.url" ? file : resolveExpression(expression, file, source),
          mode,
          literal: false,
        });
        continue;
      }
      sites.push({
        file,
        line: lineOf(match.index!),
        kind,
        expression,
        target: resolveExpression(expression, file, source),
        literal: STRING.test(expression),
      });
    }
  }
  return sites;
}

/** Whether `path` is one of the included paths or lies in an included folder (all absolute). */
export function covered(path: string, includes: string[]): boolean {
  return includes.some((include) => path === include || path.startsWith(include.replace(/\/$/, "") + "/"));
}

/**
 * The load sites an executable built from `graph` plus `includes` would fail on, each as a sentence. `main` is
 * the entry module's source: a process worker re-runs the executable with its mode, which main must dispatch.
 * `exempt` maps a file read beside a module to why the executable never reads it.
 */
export function uncoveredSites(
  sites: LoadSite[],
  graph: { localFiles: Set<string> },
  includes: string[],
  main: string,
  exempt: Map<string, string> = new Map(),
): string[] {
  const problems: string[] = [];
  const where = (site: LoadSite) => `${site.file.replace(ROOT, "")}:${site.line}`;
  for (const site of sites) {
    if (site.kind === "process-worker") {
      if (!site.mode) {
        problems.push(`${where(site)}: a worker process whose mode is not a string literal.`);
      } else if (!main.includes(`Deno.args[0] === "${site.mode}"`)) {
        problems.push(`${where(site)}: server/main.ts does not dispatch the worker mode "${site.mode}".`);
      } else if (!site.target || !graph.localFiles.has(site.target)) {
        problems.push(
          `${where(site)}: the worker module ${site.target} is not in the graph from server/main.ts.`,
        );
      }
      continue;
    }
    if (site.kind === "import" && site.literal && site.target === null) continue; // a package: Deno follows it
    if (site.target === null) {
      problems.push(`${where(site)}: cannot tell what ${site.kind} ${site.expression} loads.`);
      continue;
    }
    if (site.kind === "file" && exempt.has(site.target)) continue;
    if (covered(site.target, includes)) continue;
    // Deno's graph follows literal imports; a computed import or a worker is only there if imported elsewhere.
    if (graph.localFiles.has(site.target)) continue;
    problems.push(
      `${where(site)}: the ${site.kind} ${
        site.target.replace(ROOT, "")
      } is neither in the module graph nor in ` +
        "scripts/compile.ts's INCLUDES.",
    );
  }
  return problems;
}
