/**
 * Structural checks that `deno task ok` runs before the tests (and tests/code_check_test.ts runs in CI):
 * - no import cycle among the sources of server/, shared/, db/ and client/ (static `import`, `import type`
 *   and `export ... from`, relative specifiers only);
 * - no `readJson(...) as` cast in server/: request bodies are parsed by a zod schema instead.
 *
 * Run: `deno run -A scripts/check_code.ts [root]`. Exits 1 and names the files when a check fails.
 */
import { dirname, join, relative, resolve } from "node:path";

/** The folders whose modules must form an acyclic graph. */
export const CHECKED_DIRS = ["server", "shared", "db", "client"];
const SOURCE = /\.(ts|tsx|mts)$/;
const SKIPPED_DIRS = new Set(["node_modules", "dist", "storage", "migrations", "fixtures"]);

export interface CodeCheckReport {
  /** Each cycle as the list of its files (root-relative, `/`-separated), in import order. */
  cycles: string[][];
  /** `file:line` of each `readJson(...) as` cast under server/. */
  casts: string[];
}

/** Runs both checks on the tree at `root`. */
export async function checkCode(root: string): Promise<CodeCheckReport> {
  const files: string[] = [];
  for (const dir of CHECKED_DIRS) await collect(join(root, dir), files);
  const sources = new Map<string, string>();
  for (const file of files) sources.set(file, await Deno.readTextFile(file));
  const graph = importGraph(sources);
  const cycles = findCycles(graph).map((cycle) => cycle.map((file) => toPosix(relative(root, file))));
  const casts: string[] = [];
  const serverDir = join(resolve(root), "server") + "/";
  for (const [file, text] of sources) {
    if (!file.startsWith(serverDir)) continue;
    for (const line of readJsonCasts(text)) casts.push(`${toPosix(relative(root, file))}:${line}`);
  }
  return { cycles, casts };
}

/** The messages that name what failed, empty when the tree passes. */
export function describeFailures(report: CodeCheckReport): string[] {
  const messages: string[] = [];
  for (const cycle of report.cycles) {
    messages.push(`Import cycle: ${[...cycle, cycle[0]].join(" -> ")}`);
  }
  for (const cast of report.casts) {
    messages.push(`Cast of readJson() at ${cast}: parse the body with a zod schema from shared/api instead`);
  }
  return messages;
}

async function collect(dir: string, out: string[]) {
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(dir)];
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return;
    throw error;
  }
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) {
      if (!SKIPPED_DIRS.has(entry.name)) await collect(path, out);
    } else if (entry.isFile && SOURCE.test(entry.name) && !entry.name.endsWith(".d.ts")) {
      out.push(resolve(path));
    }
  }
}

/**
 * Static import and re-export specifiers of a module: `import x from "s"`, `import type { X } from "s"`,
 * `import "s"`, `export { x } from "s"`, `export * from "s"`. Dynamic `import()` is left out: it does not make a
 * cycle at load time.
 */
export function importSpecifiers(text: string): string[] {
  const code = stripComments(text);
  const found: string[] = [];
  const fromClause = /(?:^|[;\n}])\s*(?:import|export)\s+(?:type\s+)?[^;'"`]*?\bfrom\s*["']([^"']+)["']/g;
  const bare = /(?:^|[;\n}])\s*import\s*["']([^"']+)["']/g;
  for (const match of code.matchAll(fromClause)) found.push(match[1]);
  for (const match of code.matchAll(bare)) found.push(match[1]);
  return found;
}

/**
 * Blanks out comments that start a line (JSDoc, `//` notes), keeping line numbers. Comments after code are left:
 * they cannot hide or fake an import, and skipping them spares this check from parsing strings and regexes.
 */
function stripComments(text: string): string {
  const blank = (comment: string) => comment.replace(/[^\n]/g, " ");
  return text.replace(/^[ \t]*\/\*[\s\S]*?\*\//gm, blank).replace(/^[ \t]*\/\/.*$/gm, blank);
}

function importGraph(sources: Map<string, string>): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const [file, text] of sources) {
    const targets = new Set<string>();
    for (const specifier of importSpecifiers(text)) {
      if (!specifier.startsWith("./") && !specifier.startsWith("../")) continue;
      const target = resolve(dirname(file), specifier.split("?")[0]);
      if (sources.has(target)) targets.add(target);
    }
    graph.set(file, [...targets].sort());
  }
  return graph;
}

/** The strongly connected components with more than one file (or a file importing itself), Tarjan's algorithm. */
function findCycles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];

  const visit = (start: string) => {
    // Iterative to stay clear of the call-stack limit on long import chains.
    const work: { node: string; next: number }[] = [{ node: start, next: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const edges = graph.get(frame.node) ?? [];
      if (frame.next < edges.length) {
        const target = edges[frame.next++];
        if (!index.has(target)) {
          index.set(target, counter);
          low.set(target, counter++);
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, next: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(target)!));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1].node;
        low.set(parent, Math.min(low.get(parent)!, low.get(frame.node)!));
      }
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        const selfLoop = component.length === 1 && (graph.get(member) ?? []).includes(member);
        if (component.length > 1 || selfLoop) components.push(orderCycle(component, graph));
      }
    }
  };

  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return components.sort((a, b) => a[0].localeCompare(b[0]));
}

/** Orders a component's files along one cycle through its first file (sorted), the rest after it. */
function orderCycle(component: string[], graph: Map<string, string[]>): string[] {
  const members = new Set(component);
  const start = [...component].sort()[0];
  // Breadth-first search for the shortest path back to `start`, so the message shows a real chain.
  const previous = new Map<string, string>();
  const queue = [start];
  let closing: string | undefined;
  search: while (queue.length > 0) {
    const node = queue.shift()!;
    for (const target of graph.get(node) ?? []) {
      if (!members.has(target)) continue;
      if (target === start) {
        closing = node;
        break search;
      }
      if (!previous.has(target)) {
        previous.set(target, node);
        queue.push(target);
      }
    }
  }
  const chain: string[] = [];
  for (let node = closing; node !== undefined && node !== start; node = previous.get(node)) {
    chain.unshift(node);
  }
  chain.unshift(start);
  const rest = component.filter((file) => !chain.includes(file)).sort();
  return [...chain, ...rest];
}

/**
 * Line numbers (1-based) of `readJson(...) as` casts, the parentheses balanced across lines. A cast of the
 * parenthesised call (`(await readJson(c) ?? {}) as T`) counts; a cast of what another call made of the body
 * (`f(await readJson(c)) as T`) does not.
 */
export function readJsonCasts(text: string): number[] {
  const code = stripComments(text);
  const lines: number[] = [];
  for (const match of code.matchAll(/\breadJson\s*(?:<[^>]*>)?\s*\(/g)) {
    let depth = 1;
    let at = match.index! + match[0].length;
    while (at < code.length && depth > 0) {
      const char = code[at++];
      if (char === "(") depth++;
      else if (char === ")") depth--;
    }
    // Parentheses opened right before the call (`(await readJson`) may close before the cast.
    const before = code.slice(Math.max(0, match.index! - 200), match.index!);
    const prefix = /((?:\(\s*)*)(?:await\s+)?$/.exec(before)!;
    const calledWith = /[\w$)\]]$/.test(before.slice(0, prefix.index).trimEnd()); // `f(await readJson(c))`
    const opened = calledWith ? 0 : prefix[1].split("(").length - 1;
    const after = code.slice(at, at + 200);
    const cast = new RegExp(
      `^(?:\\s*\\?\\?\\s*(?:\\{\\s*\\}|null|undefined|\\[\\s*\\]))?(?:\\s*\\)){0,${opened}}\\s*as\\s`,
    );
    if (cast.test(after)) lines.push(code.slice(0, match.index).split("\n").length);
  }
  return lines;
}

function toPosix(path: string): string {
  return path.replaceAll("\\", "/");
}

if (import.meta.main) {
  const root = resolve(Deno.args[0] ?? ".");
  const failures = describeFailures(await checkCode(root));
  if (failures.length > 0) {
    for (const failure of failures) console.error(failure);
    Deno.exit(1);
  }
  console.log("Code check passed: no import cycle, no readJson() cast");
}
