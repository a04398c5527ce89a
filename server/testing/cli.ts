import { fileURLToPath } from "node:url";
import { nodeModulesFlag } from "../worker_command.ts";

const MAIN = fileURLToPath(new URL("../main.ts", import.meta.url));

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `deno run -A server/main.ts ARGS` (the `lectern` command) to its end. */
export async function runLectern(
  args: string[],
  options: { stdin?: string; env?: Record<string, string> } = {},
): Promise<CliRun> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", ...nodeModulesFlag(), MAIN, ...args],
    env: { LOG_LEVEL: "error", ...options.env },
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (options.stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(options.stdin));
    await writer.close();
  }
  const output = await child.output();
  const decoder = new TextDecoder();
  return { code: output.code, stdout: decoder.decode(output.stdout), stderr: decoder.decode(output.stderr) };
}
