// A real Chroma server for the Chroma adapter's tests, outside the project's node_modules (its native bindings
// are about 400 MB, and Lectern itself talks to Chroma over HTTP only).
//
//   deno run -A scripts/chroma.ts install            installs it into the cache folder (or reuses it)
//   deno run -A scripts/chroma.ts run [--port N] [--path DIR]
//
// The cache folder is $LECTERN_CHROMA_DIR, else ~/.cache/lectern-chroma.
import { join } from "node:path";

export const CHROMA_VERSION = "3.0.9";
/** The client's own range would take the newest bindings; an npm override pins them so every run starts the same server. */
export const CHROMA_BINDINGS_VERSION = "1.0.5";
const BINDINGS = "chromadb-js-bindings-linux-x64-gnu";

const PACKAGE_JSON = {
  name: "lectern-chroma",
  private: true,
  description: "A Chroma server for Lectern's tests (scripts/chroma.ts).",
  dependencies: { chromadb: CHROMA_VERSION },
  overrides: { [BINDINGS]: CHROMA_BINDINGS_VERSION },
};

export function chromaDir(): string {
  const chosen = Deno.env.get("LECTERN_CHROMA_DIR");
  if (chosen) return chosen;
  const home = Deno.env.get("HOME") ?? Deno.env.get("USERPROFILE") ?? ".";
  return join(home, ".cache", "lectern-chroma");
}

const binOf = (dir: string) => join(dir, "node_modules", ".bin", "chroma");

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

async function installedVersion(dir: string, name: string): Promise<string | null> {
  try {
    const text = await Deno.readTextFile(join(dir, "node_modules", name, "package.json"));
    return JSON.parse(text).version ?? null;
  } catch {
    return null;
  }
}

/** The `chroma` command, installed with npm into `dir` when it is missing or at other versions. */
export async function installChroma(dir = chromaDir()): Promise<string> {
  const bin = binOf(dir);
  if (
    await exists(bin) && await installedVersion(dir, "chromadb") === CHROMA_VERSION &&
    await installedVersion(dir, BINDINGS) === CHROMA_BINDINGS_VERSION
  ) {
    return bin;
  }
  if (Deno.build.os !== "linux" || Deno.build.arch !== "x86_64") {
    throw new Error(
      `The pinned Chroma bindings are for Linux x64; this is ${Deno.build.os} ${Deno.build.arch}.`,
    );
  }
  await Deno.mkdir(dir, { recursive: true });
  await Deno.writeTextFile(join(dir, "package.json"), JSON.stringify(PACKAGE_JSON, null, 2) + "\n");
  let output: Deno.CommandOutput;
  try {
    output = await new Deno.Command("npm", {
      args: ["install", "--no-audit", "--no-fund", "--no-save", "--loglevel=error"],
      cwd: dir,
      stdout: "piped",
      stderr: "piped",
    }).output();
  } catch (error) {
    throw new Error(`Cannot run npm to install Chroma: ${(error as Error).message}`);
  }
  if (!output.success || !(await exists(bin))) {
    const text = new TextDecoder().decode(output.stderr).trim().split("\n").slice(-5).join("\n");
    throw new Error(`npm could not install chromadb@${CHROMA_VERSION} into ${dir}:\n${text}`);
  }
  return bin;
}

export interface ChromaServer {
  url: string;
  output(): string;
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

/**
 * Starts `chroma run` on loopback and resolves once /api/v2/heartbeat answers. Without `path` the data lives in
 * a temporary folder removed on close.
 */
export async function startChroma(
  options: { bin?: string; port?: number; path?: string; timeoutMs?: number } = {},
): Promise<ChromaServer> {
  const bin = options.bin ?? await installChroma();
  const port = options.port ?? freePort();
  const temporary = options.path === undefined;
  const path = options.path ?? await Deno.makeTempDir({ prefix: "lectern-chroma-data-" });
  const child = new Deno.Command(bin, {
    args: ["run", "--path", path, "--port", String(port), "--host", "127.0.0.1"],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let text = "";
  const decoder = new TextDecoder();
  const drain = async (stream: ReadableStream<Uint8Array>) => {
    for await (const chunk of stream) text += decoder.decode(chunk, { stream: true });
  };
  const drained = Promise.all([drain(child.stdout), drain(child.stderr)]);
  let exitCode: number | null = null;
  const status = child.status.then((result) => {
    exitCode = result.code;
    return result;
  });
  const url = `http://127.0.0.1:${port}`;
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    if (exitCode === null) {
      try {
        child.kill("SIGTERM");
      } catch {
        // already gone
      }
    }
    const timer = setTimeout(() => {
      try {
        child.kill("SIGKILL");
      } catch {
        // already gone
      }
    }, 5_000);
    await status;
    clearTimeout(timer);
    await drained;
    if (temporary) await Deno.remove(path, { recursive: true }).catch(() => {});
  };

  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  while (true) {
    if (exitCode !== null) {
      await close();
      throw new Error(`chroma run exited with ${exitCode}:\n${text.slice(-2000)}`);
    }
    try {
      const response = await fetch(`${url}/api/v2/heartbeat`);
      await response.body?.cancel();
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await close();
      throw new Error(`Chroma did not answer ${url}/api/v2/heartbeat in time:\n${text.slice(-2000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url, output: () => text, close, [Symbol.asyncDispose]: close };
}

if (import.meta.main) {
  const [command, ...rest] = Deno.args;
  const flag = (name: string) => {
    const index = rest.indexOf(`--${name}`);
    return index >= 0 ? rest[index + 1] : undefined;
  };
  if (command === "install") {
    console.log(await installChroma());
  } else if (command === "run") {
    const port = flag("port");
    const server = await startChroma({ port: port ? Number(port) : undefined, path: flag("path") });
    console.log(`Chroma is listening on ${server.url} (Ctrl-C stops it).`);
    const stop = () => server.close().then(() => Deno.exit(0));
    Deno.addSignalListener("SIGINT", stop);
    Deno.addSignalListener("SIGTERM", stop);
  } else {
    console.error("Usage: deno run -A scripts/chroma.ts install | run [--port N] [--path DIR]");
    Deno.exit(2);
  }
}
