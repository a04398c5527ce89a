import { Hono } from "hono";
import { heldStream } from "./held_stream.ts";

/** How the fake answers one streamed `/v2/chat`. */
export interface CohereReply {
  chunks?: string[];
  /** Thinking deltas (a reasoning model's `thinking` content) before the text. */
  thinking?: string[];
  usage?: { input_tokens: number; output_tokens: number };
  /** `message-end` with finish_reason ERROR and this error. */
  endError?: string;
  /** Fail before streaming with this status and message. */
  status?: number;
  message?: string;
  raw?: { status?: number; contentType: string; body: string };
  hangAfter?: number;
  closeAfter?: number;
}

export interface FakeCohere {
  /** `http://127.0.0.1:<port>` (the adapter adds /v2/chat). */
  baseURL: string;
  requests: { body: Record<string, unknown>; authorization: string | null }[];
  modelQueries: string[];
  setReply(reply: (body: Record<string, unknown>) => CohereReply): void;
  clientGone: Promise<void>;
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * Cohere's API on loopback: streaming `POST /v2/chat` (SSE `event:` + `data:` lines: message-start,
 * content-start, content-delta…, content-end, message-end with usage) and `GET /v1/models?endpoint=…`. A wrong
 * Bearer key gets Cohere's 401 `{"id":…,"message":"invalid api token"}`.
 */
export function startFakeCohere(
  options: { apiKey?: string; models?: { name: string; endpoints: string[]; context_length?: number }[] } =
    {},
): FakeCohere {
  let reply: (body: Record<string, unknown>) => CohereReply = () => ({
    chunks: ["Hello ", "from ", "Cohere."],
    usage: { input_tokens: 17, output_tokens: 4 },
  });
  const requests: FakeCohere["requests"] = [];
  const modelQueries: string[] = [];
  let gone!: () => void;
  const clientGone = new Promise<void>((resolve) => (gone = resolve));
  const app = new Hono();
  app.use("*", async (c, next) => {
    if (options.apiKey && c.req.header("authorization") !== `Bearer ${options.apiKey}`) {
      return c.json({ id: crypto.randomUUID(), message: "invalid api token" }, 401);
    }
    await next();
  });
  app.get("/v1/models", (c) => {
    modelQueries.push(new URL(c.req.url).search);
    const endpoint = c.req.query("endpoint");
    const models = (options.models ?? []).filter((model) => !endpoint || model.endpoints.includes(endpoint));
    return c.json({ models });
  });
  app.post("/v2/chat", async (c) => {
    const body = await c.req.json() as Record<string, unknown>;
    requests.push({ body, authorization: c.req.header("authorization") ?? null });
    const script = reply(body);
    if (script.raw) {
      return new Response(script.raw.body, {
        status: script.raw.status ?? 200,
        headers: { "Content-Type": script.raw.contentType },
      });
    }
    if (script.status) {
      return c.json({ id: crypto.randomUUID(), message: script.message ?? "failed" }, script.status as 400);
    }
    if (body.stream !== true) return c.json({ id: "x", message: "This fake only streams." }, 400);
    const id = crypto.randomUUID();
    const events: Record<string, unknown>[] = [
      {
        type: "message-start",
        id,
        delta: { message: { role: "assistant", content: [], tool_plan: "", tool_calls: [], citations: [] } },
      },
    ];
    if (script.thinking?.length) {
      events.push({
        type: "content-start",
        index: 0,
        delta: { message: { content: { type: "thinking", thinking: "" } } },
      });
      for (const thinking of script.thinking) {
        events.push({ type: "content-delta", index: 0, delta: { message: { content: { thinking } } } });
      }
      events.push({ type: "content-end", index: 0 });
    }
    const index = script.thinking?.length ? 1 : 0;
    events.push({
      type: "content-start",
      index,
      delta: { message: { content: { type: "text", text: "" } } },
    });
    for (const text of script.chunks ?? []) {
      events.push({ type: "content-delta", index, delta: { message: { content: { text } } } });
    }
    events.push({ type: "content-end", index });
    const usage = script.usage ?? { input_tokens: 0, output_tokens: 0 };
    events.push({
      type: "message-end",
      delta: script.endError
        ? { finish_reason: "ERROR", error: script.endError }
        : { finish_reason: "COMPLETE", usage: { billed_units: usage, tokens: usage } },
    });
    const encoder = new TextEncoder();
    const frames = events.map((event) =>
      encoder.encode(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`)
    );
    return new Response(
      heldStream(frames, { hangAfter: script.hangAfter, closeAfter: script.closeAfter, gone }),
      {
        headers: { "Content-Type": "text/event-stream" },
      },
    );
  });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, app.fetch);
  const close = async () => await server.shutdown();
  return {
    baseURL: `http://127.0.0.1:${server.addr.port}`,
    requests,
    modelQueries,
    setReply: (next) => (reply = next),
    clientGone,
    close,
    [Symbol.asyncDispose]: close,
  };
}
