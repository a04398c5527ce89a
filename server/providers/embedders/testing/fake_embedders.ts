import { type Context, Hono } from "hono";
import { join } from "node:path";
import { embedLexical } from "../native.ts";

export interface RecordedRequest {
  path: string;
  query: Record<string, string>;
  authorization: string | null;
  apiKey: string | null;
  body: Record<string, unknown>;
}

export interface FakeEmbedders {
  /** `http://127.0.0.1:<port>`; the OpenAI-style routes are under `/v1`. */
  url: string;
  requests: RecordedRequest[];
  /** The model hub's file requests, `/:owner/:name/resolve/main/:file`, in order. */
  hubRequests: string[];
  /** The texts of every embedding request, in order. */
  inputs(): string[][];
  /** The next embedding requests answer these statuses (with a Retry-After of 0 on 429), then succeed again. */
  failNext(...statuses: number[]): void;
  /** Requests for this model answer 400 "model not found". */
  rejectModel(model: string): void;
  /** Embedding requests after the first `allowed` wait until `release()` is called. */
  hold(allowed?: number): { release(): void; waiting(): number };
  [Symbol.asyncDispose](): Promise<void>;
  close(): Promise<void>;
}

/**
 * The built-in lexical embedder's vector, cut to `dimensions`. Below its 384 dimensions most of a text's words
 * are cut away, and the words of a chunk header's upload time move what is left: "What do herons eat?" against
 * a sentence about herons falls under the 0.25 similarity threshold at about 1 % of upload times with 64
 * dimensions. A test that expects a chat to cite a chunk through this fake asks for 384 dimensions, where the
 * vectors are the lexical embedder's own (server/testing/lexical_margins.ts checks those pairs).
 */
const vectorFor = (text: string, dimensions: number) => embedLexical(text).slice(0, dimensions);

/**
 * One loopback server that speaks every embedding protocol Lectern uses: OpenAI-compatible `/v1/embeddings`
 * (also Voyage AI's, which adds `input_type`), Azure's `/openai/deployments/:name/embeddings`, Ollama's
 * `/api/embed`, Cohere's `/v2/embed`, and a model hub serving files from `hubDir` at
 * `/:owner/:name/resolve/main/:file`.
 */
export function startFakeEmbedders(
  options: { dimensions?: number; apiKey?: string; hubDir?: string } = {},
): FakeEmbedders {
  const dimensions = options.dimensions ?? 384;
  const requests: RecordedRequest[] = [];
  const hubRequests: string[] = [];
  const failures: number[] = [];
  const rejected = new Set<string>();
  let gate:
    | { allowed: number; seen: number; open: Promise<void>; release: () => void; waiting: number }
    | null = null;
  const app = new Hono();

  /** Records the request and applies the scripted failures and the hold; returns a response to send instead. */
  async function intercept(c: Context): Promise<{ body: Record<string, unknown>; stop?: Response }> {
    const body = await c.req.json() as Record<string, unknown>;
    requests.push({
      path: new URL(c.req.url).pathname,
      query: c.req.query(),
      authorization: c.req.header("authorization") ?? null,
      apiKey: c.req.header("api-key") ?? null,
      body,
    });
    const key = c.req.header("api-key") ?? c.req.header("authorization")?.replace(/^Bearer /, "");
    if (options.apiKey && key !== options.apiKey) {
      return { body, stop: c.json({ error: { message: "Incorrect API key provided" } }, 401) };
    }
    const current = gate;
    if (current) {
      current.seen++;
      if (current.seen > current.allowed) {
        current.waiting++;
        await current.open;
        current.waiting--;
      }
    }
    const status = failures.shift();
    if (status) {
      const headers: Record<string, string> = status === 429 ? { "Retry-After": "0" } : {};
      return {
        body,
        stop: c.json({ error: { message: `Scripted failure ${status}` } }, status as 500, headers),
      };
    }
    if (typeof body.model === "string" && rejected.has(body.model)) {
      return { body, stop: c.json({ error: { message: `The model ${body.model} does not exist` } }, 400) };
    }
    return { body };
  }

  const openAiStyle = async (c: Context) => {
    const { body, stop } = await intercept(c);
    if (stop) return stop;
    const input = Array.isArray(body.input) ? body.input as string[] : [String(body.input)];
    return c.json({
      object: "list",
      model: body.model,
      data: input.map((text, index) => ({
        object: "embedding",
        index,
        embedding: vectorFor(text, dimensions),
      }))
        .reverse(),
      usage: { prompt_tokens: 0, total_tokens: 0 },
    });
  };
  app.post("/v1/embeddings", openAiStyle);
  app.post("/openai/deployments/:deployment/embeddings", openAiStyle);
  app.post("/api/embed", async (c) => {
    const { body, stop } = await intercept(c);
    if (stop) return stop;
    const input = Array.isArray(body.input) ? body.input as string[] : [String(body.input)];
    return c.json({ model: body.model, embeddings: input.map((text) => vectorFor(text, dimensions)) });
  });
  app.post("/v2/embed", async (c) => {
    const { body, stop } = await intercept(c);
    if (stop) return stop;
    const texts = body.texts as string[];
    return c.json({
      id: crypto.randomUUID(),
      texts,
      embeddings: { float: texts.map((text) => vectorFor(text, dimensions)) },
      meta: { api_version: { version: "2" } },
    });
  });
  app.get("/:owner/:name/resolve/main/*", async (c) => {
    hubRequests.push(new URL(c.req.url).pathname);
    if (!options.hubDir) return c.text("Not found", 404);
    const prefix = `/${c.req.param("owner")}/${c.req.param("name")}/resolve/main/`;
    const file = new URL(c.req.url).pathname.slice(prefix.length);
    try {
      const bytes = await Deno.readFile(
        join(options.hubDir, c.req.param("owner"), c.req.param("name"), file),
      );
      return c.body(bytes, 200, { "Content-Type": "application/octet-stream" });
    } catch {
      return c.text("Entry not found", 404);
    }
  });

  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, app.fetch);
  const close = async () => {
    gate?.release();
    await server.shutdown();
  };
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    requests,
    hubRequests,
    inputs: () =>
      requests.map((request) => {
        const body = request.body;
        const input = body.input ?? body.texts;
        return Array.isArray(input) ? input as string[] : [String(input)];
      }),
    failNext: (...statuses) => failures.push(...statuses),
    rejectModel: (model) => rejected.add(model),
    hold(allowed = 0) {
      let release!: () => void;
      const open = new Promise<void>((resolve) => release = resolve);
      const current = { allowed, seen: 0, open, release, waiting: 0 };
      gate = current;
      return {
        release: () => {
          if (gate === current) gate = null;
          current.release();
        },
        waiting: () => current.waiting,
      };
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}
