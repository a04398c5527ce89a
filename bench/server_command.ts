// The server as `deno task lectern` starts it, for the benchmarks: the task's environment and flags (no update
// check, no lockfile read, no V8 code cache, a manual node_modules, which spares one npm resolution pass per npm
// import; V8's young-generation size) without the task runner.
import { fileURLToPath } from "node:url";
import { buildServer, serverIsStale } from "../scripts/build_server.ts";
import { parseDenoTask } from "./deno_task.ts";

const root = fileURLToPath(new URL("../", import.meta.url));

const LECTERN_TASK = parseDenoTask(
  (JSON.parse(Deno.readTextFileSync(`${root}deno.json`)).tasks as Record<string, string>).lectern,
);

/** `deno task lectern`'s arguments after `deno` (`run`, its flags, `server/main.ts`). */
export const LECTERN_TASK_ARGS: readonly string[] = LECTERN_TASK.args;

/**
 * The environment the lectern task sets (DENO_NO_UPDATE_CHECK): set in this process too, so that the servers a
 * benchmark starts inherit it as the task's would (and so does the floor, a bare `Deno.serve`).
 */
export const LECTERN_TASK_ENV: Readonly<Record<string, string>> = LECTERN_TASK.env;
for (const [name, value] of Object.entries(LECTERN_TASK_ENV)) Deno.env.set(name, value);

// The lectern task runs the server's bundle: a benchmark never measures one older than the source.
if (await serverIsStale() && !(await buildServer())) throw new Error("The server bundle could not be built.");

/** The script the lectern task runs (scripts/lectern.ts, which runs the server's bundle), its last argument. */
const LECTERN_SCRIPT = LECTERN_TASK_ARGS[LECTERN_TASK_ARGS.length - 1];

/**
 * For `startServerProcess`'s `wrap`: runs the server with the lectern task's flags. `BENCH_V8_FLAGS` (if set,
 * space-separated) is added to the task's own V8 flags, so a run can try another setting without editing deno.json.
 */
export function asLecternTask(command: string[]): string[] {
  const [deno] = command;
  const extra = Deno.env.get("BENCH_V8_FLAGS");
  const args = LECTERN_TASK_ARGS.map((arg) =>
    extra && arg.startsWith("--v8-flags=") ? `${arg},${extra.split(/\s+/).join(",")}` : arg
  );
  // BENCH_DENO_FLAGS (space-separated) goes before the script, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" for a
  // profile of the server (written when it exits on the bench's SIGTERM).
  const denoFlags = Deno.env.get("BENCH_DENO_FLAGS")?.split(/\s+/).filter(Boolean) ?? [];
  return [
    deno,
    ...args.flatMap((arg) => arg === LECTERN_SCRIPT ? [...denoFlags, `${root}${arg}`] : [arg]),
  ];
}
