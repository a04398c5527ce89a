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
  /**
   * Sends the server a signal, having noted its worker processes first (with the server frozen, so that it
   * starts no other meanwhile): once the server is dead they are no longer its children, and the dispose waits
   * for them by these pids. Use this rather than `child.kill`.
   */
  kill(signal: Deno.Signal): Promise<void>;
  /**
   * Kills the server if it runs, then waits for the worker processes it had (which end with it: their stdin pipe
   * closes), so that the caller may remove the storage folder they were writing into. Throws if one outlives
   * it.
   */
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

/** Whether every thread of a running process is stopped (SIGSTOP); true once it has ended. */
function frozen(pid: number): boolean {
  try {
    for (const thread of Deno.readDirSync(`/proc/${pid}/task`)) {
      const stat = Deno.readTextFileSync(`/proc/${pid}/task/${thread.name}/stat`);
      // "pid (name) S ...": the state follows the last parenthesis (a name may hold one).
      if (!/^[TtZX]$/.test(stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3))) return false;
    }
  } catch {
    // A thread ended while it was read: look again.
    return processRunning(pid) ? false : true;
  }
  return true;
}

/**
 * Freezes a process (SIGSTOP) and gives its descendants then: a frozen process starts no other, so none is
 * missed between the reading of /proc and a signal sent next. The caller resumes it (SIGCONT) or kills it.
 */
export async function freezeAndList(pid: number): Promise<number[]> {
  Deno.kill(pid, "SIGSTOP");
  // The stop takes effect when each thread is next scheduled, which a loaded machine delays.
  while (!frozen(pid)) await new Promise((resolve) => setTimeout(resolve, 5));
  return descendantPids(pid);
}

/** The command line of a process, for messages ("" once it has ended). */
export function commandLineOf(pid: number): string {
  try {
    return Deno.readTextFileSync(`/proc/${pid}/cmdline`).split("\0").join(" ").trim();
  } catch {
    return "";
  }
}

/**
 * How long the dispose waits for a dead server's workers. Each ends as soon as it reads the end of its stdin,
 * which needs some CPU time: on a loaded 2-core machine a starting Deno process may wait seconds for it, and a
 * parse worker finishes the file it is on first (its own time limit bounds that).
 */
const WORKERS_END_MS = 60_000;

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
    /** How long the dispose waits for the server's workers to end after it (WORKERS_END_MS). */
    workersEndMs?: number;
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
  // The worker processes (parse, vector maintenance) the server had when it was sent a signal.
  const workers = new Set<number>();
  const kill = async (signal: Deno.Signal) => {
    if (exitCode !== null) return;
    let frozenNow = false;
    try {
      for (const pid of await freezeAndList(child.pid)) workers.add(pid);
      frozenNow = true;
      child.kill(signal);
    } catch {
      // It has ended meanwhile.
    }
    if (frozenNow && signal !== "SIGKILL") {
      try {
        Deno.kill(child.pid, "SIGCONT");
      } catch {
        // It has ended meanwhile.
      }
    }
  };
  return {
    url,
    pid: child.pid,
    child,
    output: () => text,
    exited,
    kill,
    async [Symbol.asyncDispose]() {
      await kill("SIGKILL");
      await exited();
      // Its workers end when it does; they may still be writing into the storage folder the caller removes next.
      const waitMs = options.workersEndMs ?? WORKERS_END_MS;
      const left = await processesEnded([...workers], waitMs);
      if (left.length === 0) return;
      const lines = left.map((pid) => `${pid}: ${commandLineOf(pid)}`);
      for (const pid of left) {
        try {
          Deno.kill(pid, "SIGKILL");
        } catch {
          // It has ended meanwhile.
        }
      }
      await processesEnded(left);
      throw new Error(
        `Worker processes still ran ${waitMs / 1000} s after their server ended:\n${lines.join("\n")}`,
      );
    },
  };
}
