import { loadConfig } from "../config.ts";
import { boot } from "../boot.ts";
import { createApp } from "../app.ts";
import type { Deps, Providers } from "../deps.ts";
import { type Logger, silentLogger } from "../log.ts";
import type { ProviderDeps } from "../providers/endpoints.ts";

export interface TestApp {
  deps: Deps;
  /** Serves the app on a loopback port (for browsers and real HTTP clients); closed with the app. */
  listen(): string;
  storageDir: string;
  /** In-process request: `path` is relative to the server root ("/api/ping"); `env` stands for Deno.serve's info. */
  request(path: string, init?: RequestInit, env?: Record<string, unknown>): Promise<Response>;
  json<T = Record<string, unknown>>(
    path: string,
    init?: RequestInit & { json?: unknown },
  ): Promise<{ status: number; body: T }>;
  [Symbol.asyncDispose](): Promise<void>;
  close(): Promise<void>;
}

/** A whole Lectern in-process over a temporary storage folder, torn down by `await using`. */
export async function createTestApp(
  options: {
    env?: Record<string, string>;
    providers?: Partial<Providers>;
    providerDeps?: ProviderDeps;
    storageDir?: string;
    /** Where the server's log lines go; silent unless a test wants to read them. */
    log?: Logger;
  } = {},
): Promise<TestApp> {
  const storageDir = options.storageDir ?? await Deno.makeTempDir({ prefix: "lectern-test-" });
  const config = loadConfig({ STORAGE_DIR: storageDir, LOG_LEVEL: "error", ...options.env });
  const booted = await boot(config, {
    log: options.log ?? silentLogger,
    providers: options.providers,
    providerDeps: options.providerDeps,
  });
  const app = createApp(booted.deps);
  const request = (path: string, init?: RequestInit, env?: Record<string, unknown>) =>
    Promise.resolve(app.request(path, init, env));
  let server: Deno.HttpServer<Deno.NetAddr> | null = null;
  const close = async () => {
    booted.deps.streams.abortAll();
    await server?.shutdown();
    await booted.close();
    if (!options.storageDir) await Deno.remove(storageDir, { recursive: true }).catch(() => {});
  };
  return {
    deps: booted.deps,
    listen() {
      server ??= Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, app.fetch);
      return `http://127.0.0.1:${server.addr.port}`;
    },
    storageDir,
    request,
    async json(path, init = {}) {
      const { json, ...rest } = init;
      const response = await request(path, {
        ...rest,
        method: rest.method ?? (json !== undefined ? "POST" : "GET"),
        body: json !== undefined ? (typeof json === "string" ? json : JSON.stringify(json)) : rest.body,
      });
      const text = await response.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // keep text
      }
      return { status: response.status, body: body as never };
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}

/** Reads an SSE body into its parsed `data:` frames, checking the framing is exactly `data: <json>\n\n`. */
export async function readFrames(response: Response): Promise<Record<string, unknown>[]> {
  const text = await response.text();
  const blocks = text.split("\n\n").filter((block) => block.length > 0);
  return blocks.map((block) => {
    if (!block.startsWith("data: ") || block.includes("\n")) {
      throw new Error(`Not a data-only SSE frame: ${JSON.stringify(block)}`);
    }
    return JSON.parse(block.slice("data: ".length));
  });
}

/** Settings that point the instance at a fake OpenAI-compatible server. */
export function genericOpenAiSettings(baseURL: string, extra: Record<string, string> = {}) {
  return {
    LLMProvider: "generic-openai",
    GenericOpenAiBasePath: baseURL,
    GenericOpenAiModelPref: "fake-model",
    GenericOpenAiTokenLimit: "4096",
    GenericOpenAiMaxTokens: "512",
    EmbeddingEngine: "native",
    VectorDB: "lancedb",
    ...extra,
  };
}

/**
 * A test app whose instance is set up (a language model at `llm`, the built-in embedder, LanceDB), so that an
 * open instance's pages are not sent to onboarding. `settings` adds to or overrides the save.
 */
export async function configuredTestApp(
  options: Parameters<typeof createTestApp>[0] & { llm?: string; settings?: Record<string, string> } = {},
): Promise<TestApp> {
  const { llm = "http://127.0.0.1:9/v1", settings, ...appOptions } = options;
  const app = await createTestApp(appOptions);
  const saved = await app.json("/api/system/update-env", { json: genericOpenAiSettings(llm, settings) });
  if (saved.status !== 200) {
    await app.close();
    throw new Error(`The test instance could not be configured: ${JSON.stringify(saved.body)}`);
  }
  return app;
}

/** Uploads one text file to a workspace's library (not embedded) and returns its document location. */
export async function uploadText(app: TestApp, slug: string, name: string, text: string): Promise<string> {
  const form = new FormData();
  form.append("file", new File([text], name));
  const answer = await app.json<{ documents: { location: string }[] }>(`/api/workspace/${slug}/upload`, {
    method: "POST",
    body: form,
  });
  if (answer.status !== 200) throw new Error(`The upload of ${name} failed: ${JSON.stringify(answer.body)}`);
  return answer.body.documents[0].location;
}
