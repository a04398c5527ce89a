// The running server's control socket: `<storage>/lectern.sock`, a Unix socket only the storage's owner can open
// (the folder is 0700, the socket 0600). A Unix socket's path holds at most 107 bytes (103 on macOS), so for a
// longer storage path the socket lives in a short owner-only (0700) folder instead, named from a hash of the
// storage's real path: `/tmp/lectern-<uid>/`, else `$XDG_RUNTIME_DIR/lectern/`, else `$TMPDIR/lectern-<uid>/`.
// Server and CLI compute the same candidates; the server listens on the first it can use, the CLI tries each.
//
// The socket tells `lectern` commands that a server holds the storage (one that answers is running; a file left
// by a killed server refuses connections), and carries out the commands that must run inside that server: a
// backup (it holds the embed gate) and a password reset (it caches the settings).
//
// One request per connection: a JSON line in; a JSON line out (`{ok:true,…}` or `{ok:false,message}`), followed,
// for a backup, by the archive's bytes until the server closes the connection.
import { createHash } from "../hash.ts";
import { join, resolve } from "node:path";
import type { Deps } from "../deps.ts";
import { messageOf } from "../errors.ts";
import { CONTROL_SOCKET } from "../storage.ts";
import { CliError } from "./errors.ts";

export type ControlRequest =
  | { command: "ping" }
  | { command: "backup" }
  | { command: "reset-password"; user: string | null; password: string };

export type ControlAnswer =
  | { ok: true; pid: number; name?: string; username?: string | null }
  | { ok: false; message: string; exitCode?: 1 | 2 };

const encoder = new TextEncoder();

/** The longest path a Unix socket can bind to: sun_path's 108 bytes (104 on macOS) less the final NUL. */
export const SOCKET_PATH_MAX = Deno.build.os === "darwin" ? 103 : 107;

const byteLength = (text: string) => encoder.encode(text).length;

/** The storage folder's real path (symlinks resolved) when it exists, else its absolute path. */
function canonicalRoot(root: string): string {
  try {
    return Deno.realPathSync(root);
  } catch {
    return resolve(root);
  }
}

/**
 * Where the server holding `root` may answer, best first: `<storage>/lectern.sock` when that path fits a Unix
 * socket, else `lectern-<hash>.sock` in the short owner-only folders (the environment of the CLI may differ from
 * the server's, e.g. no XDG_RUNTIME_DIR under sudo, so every candidate is tried).
 */
export function controlPaths(root: string): string[] {
  // Decided on the real path, so that a storage named through a symlink or relatively finds the same socket.
  const real = canonicalRoot(root);
  const inStorage = join(real, CONTROL_SOCKET);
  if (byteLength(inStorage) <= SOCKET_PATH_MAX) return [inStorage];
  const name = `lectern-${createHash("sha256").update(real).digest("hex").slice(0, 16)}.sock`;
  const uid = Deno.uid() ?? "user";
  // /tmp first: it is the same for every environment; the others serve when it is taken by someone else.
  const folders = [`/tmp/lectern-${uid}`];
  const runtime = Deno.env.get("XDG_RUNTIME_DIR");
  if (runtime?.startsWith("/")) folders.push(join(runtime, "lectern"));
  const temp = Deno.env.get("TMPDIR");
  if (temp?.startsWith("/")) folders.push(join(temp, `lectern-${uid}`));
  const paths = [...new Set(folders.map((folder) => join(folder, name)))];
  return paths.filter((path) => byteLength(path) <= SOCKET_PATH_MAX);
}

/** The control socket's path as shown to people: where this server listens, or would. */
export function controlPath(root: string): string {
  return controlPaths(root)[0] ?? join(canonicalRoot(root), CONTROL_SOCKET);
}

/**
 * Whether the socket's folder can be trusted: the storage folder itself, or a fallback folder owned by this user
 * that no one else can enter (another user could otherwise create it in /tmp first and answer in our place).
 */
export function trustedFolder(root: string, path: string): boolean {
  const folder = path.slice(0, path.lastIndexOf("/"));
  if (folder === canonicalRoot(root)) return true;
  try {
    const info = Deno.lstatSync(folder);
    const uid = Deno.uid();
    return info.isDirectory && (uid === null || info.uid === uid) && ((info.mode ?? 0) & 0o077) === 0;
  } catch {
    return false;
  }
}

/** Creates a fallback folder (0700) when missing; true when it is then trusted. */
async function prepareFolder(root: string, path: string): Promise<boolean> {
  const folder = path.slice(0, path.lastIndexOf("/"));
  if (folder !== canonicalRoot(root)) await Deno.mkdir(folder, { mode: 0o700 }).catch(() => {});
  return trustedFolder(root, path);
}

/**
 * Reads one line; returns it and the bytes read after it, or null when the other side closed before sending
 * anything (a server starting on the same storage checks whether this one answers, then leaves).
 */
async function readLine(
  reader: ReadableStreamDefaultReader<Uint8Array>,
): Promise<{ line: string; rest: Uint8Array } | null> {
  let buffered = new Uint8Array(0);
  while (true) {
    const newline = buffered.indexOf(10);
    if (newline >= 0) {
      return {
        line: new TextDecoder().decode(buffered.subarray(0, newline)),
        rest: buffered.subarray(newline + 1),
      };
    }
    const { done, value } = await reader.read();
    if (done && buffered.length === 0) return null;
    if (done) throw new CliError("The Lectern server closed the control connection without answering.");
    const joined = new Uint8Array(buffered.length + value.length);
    joined.set(buffered);
    joined.set(value, buffered.length);
    buffered = joined;
    if (buffered.length > 1_000_000) throw new CliError("The control connection sent an overlong line.");
  }
}

async function writeAll(conn: Deno.Conn, bytes: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < bytes.length) offset += await conn.write(bytes.subarray(offset));
}

const line = (answer: ControlAnswer) => encoder.encode(`${JSON.stringify(answer)}\n`);

async function handle(deps: Deps, conn: Deno.Conn): Promise<void> {
  const reader = conn.readable.getReader();
  try {
    let request: ControlRequest;
    try {
      const read = await readLine(reader);
      if (read === null) return; // a probe: nothing asked, nothing to answer
      request = JSON.parse(read.line) as ControlRequest;
    } catch {
      await writeAll(conn, line({ ok: false, message: "The control request is not valid JSON." }));
      return;
    }
    try {
      if (request.command === "ping") {
        await writeAll(conn, line({ ok: true, pid: Deno.pid }));
      } else if (request.command === "backup") {
        // The backup's and the password reset's modules load with their first command, not with the server.
        const { takeBackup } = await import("../backup/service.ts");
        const backup = await takeBackup(deps, { userId: null, via: "cli" });
        await writeAll(conn, line({ ok: true, pid: Deno.pid, name: backup.name }));
        for await (const chunk of backup.stream) await writeAll(conn, chunk);
      } else if (request.command === "reset-password") {
        const { resetPassword } = await import("./reset_password.ts");
        const outcome = await resetPassword(deps, request.user, request.password);
        await writeAll(conn, line({ ok: true, pid: Deno.pid, username: outcome.username }));
      } else {
        await writeAll(conn, line({ ok: false, message: "The control request names no known command." }));
      }
    } catch (error) {
      const exitCode = error instanceof CliError ? error.exitCode : 1;
      await writeAll(conn, line({ ok: false, message: messageOf(error), exitCode })).catch(() => {});
    }
  } catch (error) {
    deps.log.warn("A control connection failed", { error: messageOf(error) });
  } finally {
    reader.releaseLock();
    closeQuietly(conn);
  }
}

function closeQuietly(conn: Deno.Conn): void {
  try {
    conn.close();
  } catch {
    // already closed
  }
}

/** Opens a connection to the server holding `root`, or null when none answers there. */
async function connect(root: string): Promise<Deno.UnixConn | null> {
  for (const path of controlPaths(root)) {
    if (!trustedFolder(root, path)) continue;
    try {
      return await Deno.connect({ transport: "unix", path });
    } catch {
      // none here
    }
  }
  return null;
}

export interface ControlSocket {
  close(): Promise<void>;
}

/**
 * Listens on the storage's control socket. When another live server already answers there (several processes on
 * one storage), this one runs without it; a socket file left by a killed server is replaced.
 */
export async function startControlSocket(deps: Deps): Promise<ControlSocket | null> {
  const other = await connect(deps.paths.root);
  if (other) {
    other.close();
    deps.log.warn(
      "Another Lectern server answers on this storage's control socket; this one runs without it",
      {
        socket: controlPath(deps.paths.root),
      },
    );
    return null;
  }
  let listener: Deno.Listener | null = null;
  let path = controlPath(deps.paths.root);
  let failure = "the storage path is too long for a Unix socket and no short folder is usable";
  for (const candidate of controlPaths(deps.paths.root)) {
    if (!await prepareFolder(deps.paths.root, candidate)) {
      failure = `${candidate.slice(0, candidate.lastIndexOf("/"))} is missing or not owned by this user only`;
      continue;
    }
    await Deno.remove(candidate).catch(() => {});
    try {
      listener = Deno.listen({ transport: "unix", path: candidate });
      path = candidate;
      break;
    } catch (error) {
      failure = messageOf(error);
    }
  }
  if (!listener) {
    deps.log.warn("Cannot open the control socket; lectern commands cannot reach this server", {
      socket: path,
      error: failure,
    });
    return null;
  }
  const active: Deno.Listener = listener;
  if (path !== join(canonicalRoot(deps.paths.root), CONTROL_SOCKET)) {
    deps.log.info("The storage path is too long for a Unix socket; the control socket is elsewhere", {
      socket: path,
    });
  }
  await Deno.chmod(path, 0o600).catch(() => {});
  const open = new Set<Promise<void>>();
  const accepting = (async () => {
    try {
      for await (const conn of active) {
        const task = handle(deps, conn);
        open.add(task);
        task.finally(() => open.delete(task));
      }
    } catch {
      // closed
    }
  })();
  return {
    async close() {
      try {
        active.close();
      } catch {
        // already closed
      }
      await accepting;
      await Promise.allSettled([...open]);
      await Deno.remove(path).catch(() => {});
    },
  };
}

/** Whether a server answers on the storage's control socket (it holds the storage). */
export async function serverRunning(root: string): Promise<boolean> {
  const conn = await connect(root);
  if (!conn) return false;
  try {
    const answer = await ask(conn, { command: "ping" });
    return answer.header.ok;
  } catch {
    return true;
  } finally {
    closeQuietly(conn);
  }
}

async function ask(
  conn: Deno.UnixConn,
  request: ControlRequest,
): Promise<{ header: ControlAnswer; body: ReadableStream<Uint8Array> }> {
  await writeAll(conn, encoder.encode(`${JSON.stringify(request)}\n`));
  const reader = conn.readable.getReader();
  const read = await readLine(reader);
  if (read === null) {
    throw new CliError("The Lectern server closed the control connection without answering.");
  }
  const { line: text, rest } = read;
  const header = JSON.parse(text) as ControlAnswer;
  let first: Uint8Array | null = rest.length > 0 ? rest : null;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (first) {
        controller.enqueue(first);
        first = null;
        return;
      }
      const { done, value } = await reader.read();
      if (done) {
        controller.close();
        closeQuietly(conn);
      } else controller.enqueue(value);
    },
    async cancel() {
      await reader.cancel().catch(() => {});
      closeQuietly(conn);
    },
  });
  return { header, body };
}

/**
 * Sends a request to the server holding `root`. Null when no server answers; a refusal is thrown as a CliError.
 * The body (a backup's bytes) must be read to the end or cancelled; the connection closes with it.
 */
export async function askServer(
  root: string,
  request: ControlRequest,
): Promise<{ header: ControlAnswer & { ok: true }; body: ReadableStream<Uint8Array> } | null> {
  const conn = await connect(root);
  if (!conn) return null;
  const { header, body } = await ask(conn, request);
  if (!header.ok) {
    await body.cancel().catch(() => {});
    throw new CliError(header.message, header.exitCode ?? 1);
  }
  return { header, body };
}
