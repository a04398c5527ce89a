import { Hono } from "hono";
import { heldStream } from "./held_stream.ts";

/** How the fake answers one `streamGenerateContent`. */
export interface GeminiReply {
  /** Text parts, streamed one event each. */
  chunks?: string[];
  /** `functionCall` parts sent after the text, in one event (as the API sends a turn's calls). */
  toolCalls?: { name: string; args: Record<string, unknown>; id?: string; thoughtSignature?: string }[];
  /** Thought parts (`thought: true`) sent before the text. */
  thoughts?: string[];
  finishReason?: string;
  /** The prompt refused before any candidate (`promptFeedback.blockReason`). */
  blockReason?: string;
  usage?: { promptTokenCount: number; candidatesTokenCount: number; thoughtsTokenCount?: number };
  /** Fail before streaming with this status and message, in Google's error body. */
  status?: number;
  message?: string;
  /** Answers with exactly this instead (a proxy's page, garbage). */
  raw?: { status?: number; contentType: string; body: string };
  /** After this many events the stream stays open, silent, until the client goes. */
  hangAfter?: number;
  /** After this many events the stream ends without a finish reason. */
  closeAfter?: number;
}

export interface GeminiModel {
  name: string;
  displayName?: string;
  description?: string;
  inputTokenLimit?: number;
  supportedGenerationMethods?: string[];
}

export interface FakeGemini {
  /** `http://127.0.0.1:<port>` (the adapter adds /v1beta/…). */
  baseURL: string;
  requests: { model: string; body: Record<string, unknown>; apiKey: string | null; query: string }[];
  /** Model-list calls, as `v1` or `v1beta` with the page token asked for. */
  listCalls: { version: string; pageToken: string | null }[];
  setReply(reply: (body: Record<string, unknown>) => GeminiReply): void;
  /** Resolves when a client has gone away from a stream the fake held open. */
  clientGone: Promise<void>;
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

const INVALID_KEY = "API key not valid. Please pass a valid API key.";

/**
 * The Generative Language API on loopback: `GET /v1/models` and `/v1beta/models` (paged: `pageSize`,
 * `nextPageToken`) and `POST /v1beta/models/{model}:streamGenerateContent?alt=sse` answering
 * GenerateContentResponse events as the real API does (`data: …` separated by CRLF pairs). The key is read from
 * `x-goog-api-key` (or `?key=`); a wrong one gets Google's 400 INVALID_ARGUMENT.
 */
export function startFakeGemini(
  options: {
    apiKey?: string;
    /** Served by v1 (stable) and v1beta. */
    stableModels?: GeminiModel[];
    /** Served by v1beta only (experimental). */
    betaModels?: GeminiModel[];
    /** Models per page of the list. */
    pageSize?: number;
    /** The v1 list answers 500 (the lookup then judges by name). */
    v1Down?: boolean;
  } = {},
): FakeGemini {
  let reply: (body: Record<string, unknown>) => GeminiReply = () => ({
    chunks: ["Hello ", "from ", "Gemini."],
    usage: { promptTokenCount: 11, candidatesTokenCount: 3 },
  });
  const requests: FakeGemini["requests"] = [];
  const listCalls: FakeGemini["listCalls"] = [];
  let gone!: () => void;
  const clientGone = new Promise<void>((resolve) => (gone = resolve));
  const app = new Hono();
  const keyOf = (
    c: { req: { header(name: string): string | undefined; query(name: string): string | undefined } },
  ) => c.req.header("x-goog-api-key") ?? c.req.query("key") ?? null;
  const googleError = (code: number, message: string, status: string) => ({
    error: { code, message, status },
  });

  app.use("*", async (c, next) => {
    if (options.apiKey && keyOf(c) !== options.apiKey) {
      return c.json(googleError(400, INVALID_KEY, "INVALID_ARGUMENT"), 400);
    }
    await next();
  });
  for (const version of ["v1", "v1beta"]) {
    app.get(`/${version}/models`, (c) => {
      const pageToken = c.req.query("pageToken") ?? null;
      listCalls.push({ version, pageToken });
      if (version === "v1" && options.v1Down) {
        return c.json(googleError(500, "Internal error.", "INTERNAL"), 500);
      }
      const models = version === "v1"
        ? options.stableModels ?? []
        : [...(options.stableModels ?? []), ...(options.betaModels ?? [])];
      const size = options.pageSize ?? 1000;
      const start = Number(pageToken ?? 0);
      const page = models.slice(start, start + size);
      const next = start + size < models.length ? String(start + size) : undefined;
      return c.json({ models: page, ...(next ? { nextPageToken: next } : {}) });
    });
  }
  app.post("/v1beta/models/*", async (c) => {
    const path = decodeURIComponent(new URL(c.req.url).pathname.slice("/v1beta/models/".length));
    const [model, method] = path.split(":");
    if (method !== "streamGenerateContent" || c.req.query("alt") !== "sse") {
      return c.json(googleError(404, `Method ${method} is not served by this fake.`, "NOT_FOUND"), 404);
    }
    const body = await c.req.json() as Record<string, unknown>;
    requests.push({ model, body, apiKey: keyOf(c), query: new URL(c.req.url).search });
    const known = [...(options.stableModels ?? []), ...(options.betaModels ?? [])];
    if (known.length && !known.some((entry) => entry.name === `models/${model}`)) {
      return c.json(
        googleError(
          404,
          `models/${model} is not found for API version v1beta, or is not supported for generateContent. Call ListModels to see the list of available models and their supported methods.`,
          "NOT_FOUND",
        ),
        404,
      );
    }
    const script = reply(body);
    if (script.raw) {
      return new Response(script.raw.body, {
        status: script.raw.status ?? 200,
        headers: { "Content-Type": script.raw.contentType },
      });
    }
    if (script.status) {
      return c.json(
        googleError(script.status, script.message ?? "Failed.", "INVALID_ARGUMENT"),
        script.status as 400,
      );
    }
    const events: Record<string, unknown>[] = [];
    const candidate = (parts: Record<string, unknown>[], finishReason?: string) => ({
      candidates: [{
        content: { parts, role: "model" },
        index: 0,
        ...(finishReason ? { finishReason } : {}),
      }],
      modelVersion: model,
    });
    if (script.blockReason) {
      events.push({ promptFeedback: { blockReason: script.blockReason }, modelVersion: model });
    } else {
      for (const thought of script.thoughts ?? []) events.push(candidate([{ text: thought, thought: true }]));
      const chunks: Record<string, unknown>[][] = (script.chunks ?? []).map((text) => [{ text }]);
      if (script.toolCalls?.length) {
        chunks.push(script.toolCalls.map(({ thoughtSignature, ...call }) => ({
          functionCall: call,
          ...(thoughtSignature ? { thoughtSignature } : {}),
        })));
      }
      chunks.forEach((parts, index) => {
        const last = index === chunks.length - 1;
        events.push({
          ...candidate(parts, last ? script.finishReason ?? "STOP" : undefined),
          ...(last && script.usage
            ? {
              usageMetadata: {
                ...script.usage,
                totalTokenCount: script.usage.promptTokenCount + script.usage.candidatesTokenCount +
                  (script.usage.thoughtsTokenCount ?? 0),
              },
            }
            : {}),
        });
      });
    }
    const encoder = new TextEncoder();
    const stream = heldStream(
      events.map((event) => encoder.encode(`data: ${JSON.stringify(event)}\r\n\r\n`)),
      {
        hangAfter: script.hangAfter,
        closeAfter: script.closeAfter,
        gone,
      },
    );
    return new Response(stream, { headers: { "Content-Type": "text/event-stream" } });
  });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, app.fetch);
  const close = async () => await server.shutdown();
  return {
    baseURL: `http://127.0.0.1:${server.addr.port}`,
    requests,
    listCalls,
    setReply: (next) => (reply = next),
    clientGone,
    close,
    [Symbol.asyncDispose]: close,
  };
}
