import { fileURLToPath } from "node:url";
import { bundle, fromRoot } from "./app_root.ts";

/**
 * The command that starts a worker process: `mode` is the first argument main.ts dispatches on, `payload` the
 * task as JSON. In an executable made by `deno compile` that is the executable itself (through main.ts; its V8
 * flags are fixed at build time). Under `deno run` it is Deno with the worker's own module as the main module
 * and the project's config: starting from main.ts would load the server's whole module graph for every task.
 * From the bundle (dist/server/, server/app_root.ts) it is the bundle's entry, which dispatches on `mode` as
 * main.ts does and loads only the worker's chunks.
 */
export function workerCommand(
  module: string,
  mode: string,
  payload: unknown,
  v8Flags: string[] = [],
): { command: string; args: string[] } {
  if (Deno.build.standalone) return { command: Deno.execPath(), args: [mode, JSON.stringify(payload)] };
  const configPath = fileURLToPath(fromRoot("deno.json"));
  let config: string[] = [];
  try {
    if (Deno.statSync(configPath).isFile) config = ["--config", configPath];
  } catch {
    // Without the project's config Deno finds its own from the working directory.
  }
  return {
    command: Deno.execPath(),
    args: [
      "run",
      "-A",
      "--quiet",
      ...nodeModulesFlag(),
      ...(v8Flags.length > 0 ? [`--v8-flags=${v8Flags.join(",")}`] : []),
      ...config,
      fileURLToPath(bundle()?.entry ?? module),
      mode,
      JSON.stringify(payload),
    ],
  };
}

/**
 * `--node-modules-dir=manual` when the project's node_modules is installed (the server's own start, or the
 * server's first import of its packages, filled it): a worker then loads the packages as they are. In Deno's
 * "auto" mode every start takes a lock on node_modules to check it, so a worker waited on any other Deno
 * process holding it ("Blocking waiting for file lock on node_modules directory"): a `deno test`, an install,
 * or the server's other workers starting at the same time.
 */
export function nodeModulesFlag(): string[] {
  try {
    const installed = Deno.statSync(fileURLToPath(fromRoot("node_modules/.deno")));
    return installed.isDirectory ? ["--node-modules-dir=manual"] : [];
  } catch {
    return [];
  }
}
