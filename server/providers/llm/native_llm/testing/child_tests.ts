/**
 * Runs a file of Deno tests in a child `deno test` process and reports each of its cases as a step of the calling
 * test. The native provider's tests load node-llama-cpp, whose llama.cpp threads and pending dispose outlive the
 * test file's isolate: when `deno test` tore that isolate down, the process crashed now and then (a general
 * protection fault in a tokio thread), and with it every other test file of a parallel run. In a child process
 * such a crash ends the child only; the cases it reported before still count, one by one.
 */
import { fileURLToPath } from "node:url";

/** One top-level case of the child's file, as its TAP line said. */
export interface ChildCase {
  name: string;
  ok: boolean;
  skipped: boolean;
  /** Why a failed case failed (the TAP diagnostics' message). */
  detail?: string;
}

/** What a child run reported. */
export interface ChildRun {
  cases: ChildCase[];
  /** The TAP plan's count (`1..N`), printed after the file's last case; null when the child ended before it. */
  planned: number | null;
  code: number;
  signal: Deno.Signal | null;
  /** The child's standard error (its last lines, at most TAIL_CHARS). */
  stderr: string;
}

/** How a run ended, as the parent test sees it. */
export type ChildVerdict =
  | { kind: "clean" }
  /** Every case reported and passed, but the process did not exit cleanly (a crash at teardown). */
  | { kind: "crashed-after"; reason: string }
  /** The child ended before it reported all its cases (or reported none). */
  | { kind: "cut-short"; reason: string };

const TAIL_CHARS = 4_000;
/** A child still running after this long is killed, so that a hang fails the test rather than the whole run. */
const CHILD_LIMIT_MS = 10 * 60_000;

const ROOT = fileURLToPath(new URL("../../../../../", import.meta.url));

/** Reads the top-level cases and the plan out of `deno test --reporter=tap` output. */
export function parseTap(output: string): { cases: ChildCase[]; planned: number | null } {
  const cases: ChildCase[] = [];
  let planned: number | null = null;
  let diagnostics: string[] | null = null;
  for (const line of output.split("\n")) {
    if (diagnostics) {
      if (line === "  ...") {
        const failed = cases.at(-1)!;
        const text = diagnostics.join("\n");
        try {
          failed.detail = String((JSON.parse(text) as { message?: unknown }).message ?? text);
        } catch {
          failed.detail = text;
        }
        diagnostics = null;
      } else if (line !== "  ---") diagnostics.push(line.replace(/^ {2}/, ""));
      continue;
    }
    const plan = /^1\.\.(\d+)$/.exec(line);
    if (plan) {
      planned = Number(plan[1]);
      continue;
    }
    const result = /^(not )?ok \d+ - (.*?)( # SKIP.*)?$/.exec(line);
    if (!result) continue;
    const name = result[2].replace(/\\([\\#])/g, "$1");
    cases.push({ name, ok: !result[1], skipped: Boolean(result[3]) });
    if (result[1]) diagnostics = [];
  }
  return { cases, planned };
}

/** Whether the child reported all its cases, and whether it then exited cleanly. */
export function verdictOf(run: ChildRun): ChildVerdict {
  const ending = run.signal ? `killed by ${run.signal}` : `exit code ${run.code}`;
  if (run.planned === null || run.cases.length !== run.planned || run.planned === 0) {
    return {
      kind: "cut-short",
      reason: `The child test process ended (${ending}) after reporting ${run.cases.length} case(s)` +
        (run.planned === null ? " and no plan" : ` of ${run.planned}`) +
        `; its standard error:\n${run.stderr}`,
    };
  }
  const failed = run.cases.some((testCase) => !testCase.ok);
  // deno test exits with 1 when a case failed; anything else after all cases passed is the process dying late.
  if (run.signal !== null || run.code !== (failed ? 1 : 0)) {
    return {
      kind: "crashed-after",
      reason: `The child test process ended (${ending}) after all its ${run.planned} case(s) reported; ` +
        `its standard error:\n${run.stderr}`,
    };
  }
  return { kind: "clean" };
}

/** Runs `file` (a path or file URL) with `deno test --reporter=tap` in a child process of the same Deno. */
export async function runChildTests(file: string | URL, env: Record<string, string> = {}): Promise<ChildRun> {
  const path = file instanceof URL ? fileURLToPath(file) : file;
  const killer = new AbortController();
  const child = new Deno.Command(Deno.execPath(), {
    // No type check: `deno check` covers the file, and a second check under a loaded CI machine costs seconds.
    // node_modules as the parent left it (manual): with "auto", each Deno process takes node_modules' file lock
    // to set it up and again at each lazy npm import, for seconds on a loaded machine, and the parent's own lazy
    // imports (a page's first server render) waited for it.
    args: ["test", "-A", "--no-check", "--node-modules-dir=manual", "--reporter=tap", path],
    cwd: ROOT,
    env: { NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1", ...env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    signal: killer.signal,
  }).spawn();
  const limit = setTimeout(() => killer.abort(), CHILD_LIMIT_MS);
  try {
    const [status, stdout, stderr] = await Promise.all([
      child.status,
      new Response(child.stdout).text(),
      tail(child.stderr),
    ]);
    const { cases, planned } = parseTap(stdout);
    return { cases, planned, code: status.code, signal: status.signal, stderr };
  } finally {
    clearTimeout(limit);
  }
}

/** The last TAIL_CHARS characters of a stream, read to its end. */
async function tail(stream: ReadableStream<Uint8Array>): Promise<string> {
  const decoder = new TextDecoder();
  let kept = "";
  for await (const chunk of stream) {
    kept = (kept + decoder.decode(chunk, { stream: true })).slice(-TAIL_CHARS);
  }
  return kept + decoder.decode();
}

/**
 * Runs `file` in a child process and makes each of its cases a step of `t`, failing as the case failed. A child
 * that ended before reporting all its cases fails `t`. A child that crashed after all its cases passed is logged
 * (to standard error, with the child's own) but does not fail `t`: the crash is the test runner tearing down an
 * isolate that still holds llama.cpp, which no user path does (the server exits its process; tests/
 * native_shutdown_test.ts checks that a server with a loaded model stops cleanly on SIGTERM).
 */
export async function childTestSteps(
  t: Pick<Deno.TestContext, "name" | "step">,
  file: string | URL,
  options: { run?: typeof runChildTests; log?: (line: string) => void } = {},
): Promise<ChildRun> {
  const run = await (options.run ?? runChildTests)(file);
  for (const testCase of run.cases) {
    await t.step({
      name: testCase.name,
      ignore: testCase.skipped,
      fn() {
        if (!testCase.ok) throw new Error(`In the child process: ${testCase.detail ?? "failed"}`);
      },
    });
  }
  const verdict = verdictOf(run);
  if (verdict.kind === "cut-short") throw new Error(verdict.reason);
  if (verdict.kind === "crashed-after") (options.log ?? console.error)(`${t.name}: ${verdict.reason}`);
  return run;
}
