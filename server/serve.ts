import { ConfigError, loadConfig } from "./config.ts";
import { boot } from "./boot.ts";
import { createApp } from "./app.ts";
import { messageOf } from "./errors.ts";
import { startMemoryTrim } from "./memory_trim.ts";
import { settleWhenQuiet } from "./memory_settle.ts";
import { startControlSocket } from "./cli/control.ts";

/** Responses still being delivered; shutdown waits for them so no answer is cut mid-body. */
class InFlight {
  private readonly pending = new Set<Promise<void>>();
  /** Requests started so far. */
  started = 0;
  get size(): number {
    return this.pending.size;
  }
  track(completed: Promise<void>) {
    this.started++;
    const settled = completed.catch(() => {}).finally(() => this.pending.delete(settled));
    this.pending.add(settled);
  }
  async settled(timeoutMs: number): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
    await Promise.race([Promise.all(this.pending), timeout]);
    clearTimeout(timer);
  }
}

/** Starts Lectern: config from the environment, storage, database, then HTTP until SIGTERM or SIGINT. */
export async function serve(): Promise<void> {
  let config;
  try {
    config = loadConfig(Deno.env.toObject());
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      Deno.exit(2);
    }
    throw error;
  }
  const { deps, close } = await boot(config);
  const app = createApp(deps);
  // Not while answers stream: the trim pauses the JS thread (server/memory_trim.ts).
  const memoryTrim = startMemoryTrim(config.memoryTrimSeconds, () => deps.streams.size > 0, {
    growthBytes: config.memoryTrimGrowthMb * 1024 * 1024,
  });
  // `lectern` commands find the running server here (server/cli/control.ts).
  const control = await startControlSocket(deps);
  const shutdown = new AbortController();
  const inFlight = new InFlight();
  const server = Deno.serve({
    port: config.port,
    hostname: config.host,
    signal: shutdown.signal,
    onListen: ({ hostname, port }) => {
      const shown = hostname === "0.0.0.0" || hostname === "::" ? "localhost" : hostname;
      deps.log.info(`Lectern is listening on http://${shown}:${port}`, { storage: deps.paths.root });
    },
    onError: (error) => {
      deps.log.error("Request failed", { error: messageOf(error) });
      return new Response("Internal Server Error", { status: 500 });
    },
  }, (request, info) => {
    inFlight.track(info.completed);
    // The connection info becomes the app's env: rate limits read the client address from it.
    return app.fetch(request, info);
  });

  // The heap room a start (or the first API call) grew goes back to the system as soon as the server is quiet
  // rather than some 30 s later (server/memory_settle.ts).
  const settle = settleWhenQuiet(() => inFlight.started, () => inFlight.size > 0 || deps.streams.size > 0, {
    onCollect: (before, after) =>
      deps.log.debug("Heap collected while quiet", { heapMiB: [mib(before), mib(after)] }),
  });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    deps.log.info("Shutting down", { signal, openStreams: deps.streams.size });
    const force = setTimeout(() => {
      deps.log.warn("Shutdown took longer than 10 s; exiting now");
      Deno.exit(1);
    }, 10_000);
    // Open answers end first (their text so far is saved), then the listener stops and in-flight requests finish.
    deps.streams.abortAll();
    await deps.streams.drained(5_000);
    await inFlight.settled(5_000);
    shutdown.abort();
    await server.finished;
    await control?.close();
    await close();
    settle.stop();
    memoryTrim.stop();
    clearTimeout(force);
    deps.log.info("Stopped");
    Deno.exit(0);
  };
  Deno.addSignalListener("SIGTERM", () => stop("SIGTERM"));
  Deno.addSignalListener("SIGINT", () => stop("SIGINT"));
}

const mib = (bytes: number) => Math.round(bytes / 104_857.6) / 10;
