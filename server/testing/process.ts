import { fileURLToPath } from "node:url";
import { nodeModulesFlag } from "../worker_command.ts";

const MAIN = fileURLToPath(new URL("../main.ts", import.meta.url));

export interface ServerProcess {
  url: string;
  pid: number;
  child: Deno.ChildProcess;
  output(): string;
  /** Waits for the process to end and returns its exit code. */
  exited(): Promise<number>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** The pids of a process's descendants (children of any of its threads, and theirs), from Linux's /proc. */
export function descendantPids(pid: number): number[] {
  const found: number[] = [];
  const walk = (parent: number) => {
    const children: number[] = [];
    try {
      for (const thread of Deno.readDirSync(`/proc/${parent}/task`)) {
        const text = Deno.readTextFileSync(`/proc/${parent}/task/${thread.name}/children`).trim();
        if (text) children.push(...text.split(/\s+/).map(Number));
      }
    } catch {
      return; // ended meanwhile, or not Linux
    }
    for (const child of children) {
      found.push(child);
      walk(child);
    }
  };
  walk(pid);
  return found;
}

/** Whether a process is still running (a zombie waiting for its new parent to reap it has ended). */
export function processRunning(pid: number): boolean {
  try {
    return !/^State:\s+Z/m.test(Deno.readTextFileSync(`/proc/${pid}/status`));
  } catch {
    return false;
  }
}

/** Waits until none of these processes runs, for at most `timeoutMs`; gives those still running. */
export async function processesEnded(pids: number[], timeoutMs = 10_000): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  let left = pids.filter(processRunning);
  while (left.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    left = left.filter(processRunning);
  }
  return left;
}

/** Starts `deno run server/main.ts` as a real process and waits until /api/ping answers. */
export async function startServerProcess(
  env: Record<string, string>,
  timeoutMs = 30_000,
  options: {
    /** Runs the server through another command (`unshare … sh -c '… exec "$@"'`), which must exec it. */
    wrap?: (command: string[]) => string[];
  } = {},
): Promise<ServerProcess> {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  const [program, ...args] = (options.wrap ?? ((command) => command))([
    Deno.execPath(),
    "run",
    "-A",
    // Without the lock on node_modules that Deno's "auto" mode takes at every start (worker_command.ts).
    ...nodeModulesFlag(),
    MAIN,
  ]);
  const child = new Deno.Command(program, {
    args,
    env: { HOST: "127.0.0.1", PORT: String(port), LOG_LEVEL: "info", ...env },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let text = "";
  const decoder = new TextDecoder();
  const drain = async (stream: ReadableStream<Uint8Array>) => {
    for await (const chunk of stream) text += decoder.decode(chunk, { stream: true });
  };
  const drained = Promise.all([drain(child.stdout), drain(child.stderr)]);
  const status = child.status;
  let exitCode: number | null = null;
  status.then((result) => (exitCode = result.code));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  while (true) {
    if (exitCode !== null) throw new Error(`The server exited with ${exitCode}:\n${text}`);
    try {
      const response = await fetch(`${url}/api/ping`);
      await response.body?.cancel();
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`The server did not answer /api/ping within ${timeoutMs} ms:\n${text}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const exited = async () => {
    const result = await status;
    await drained;
    return result.code;
  };
  return {
    url,
    pid: child.pid,
    child,
    output: () => text,
    exited,
    async [Symbol.asyncDispose]() {
      // Its worker processes (parse, vector maintenance) end when it does; wait for them too, so that the
      // caller can remove the storage folder they may still be writing into.
      const workers = descendantPids(child.pid);
      if (exitCode === null) {
        try {
          child.kill("SIGKILL");
        } catch {
          // already gone
        }
      }
      await exited();
      await processesEnded(workers);
    },
  };
}
