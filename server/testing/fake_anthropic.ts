import { Hono } from "hono";

export interface FakeAnthropic {
  /** `http://127.0.0.1:<port>` (the SDK adds /v1/messages). */
  baseURL: string;
  requests: { body: Record<string, unknown>; apiKey: string | null }[];
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** Anthropic's Messages API on loopback: `/v1/models` and streaming `/v1/messages` (its SSE events). */
export function startFakeAnthropic(options: { apiKey?: string; reply?: string[] } = {}): FakeAnthropic {
  const requests: { body: Record<string, unknown>; apiKey: string | null }[] = [];
  const app = new Hono();
  // The API takes the key as x-api-key; newer SDKs send it as a Bearer token.
  const keyOf = (header: (name: string) => string | undefined) =>
    header("x-api-key") ?? header("authorization")?.replace(/^Bearer /, "") ?? null;
  app.use("*", async (c, next) => {
    if (options.apiKey && keyOf((name) => c.req.header(name)) !== options.apiKey) {
      return c.json(
        { type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } },
        401,
      );
    }
    await next();
  });
  app.get("/v1/models", (c) =>
    c.json({
      data: [{
        type: "model",
        id: "claude-test-1",
        display_name: "Claude Test",
        created_at: "2026-01-01T00:00:00Z",
      }],
      has_more: false,
    }));
  app.post("/v1/messages", async (c) => {
    const body = await c.req.json() as Record<string, unknown>;
    requests.push({ body, apiKey: keyOf((name) => c.req.header(name)) });
    const event = (type: string, data: Record<string, unknown>) =>
      `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
    const parts = [
      event("message_start", {
        message: {
          id: "msg_1",
          type: "message",
          role: "assistant",
          content: [],
          model: body.model,
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 25, output_tokens: 1 },
        },
      }),
      event("content_block_start", { index: 0, content_block: { type: "text", text: "" } }),
      ...(options.reply ?? ["Hi ", "from ", "Claude."]).map((text) =>
        event("content_block_delta", { index: 0, delta: { type: "text_delta", text } })
      ),
      event("content_block_stop", { index: 0 }),
      event("message_delta", {
        delta: { stop_reason: "end_turn", stop_sequence: null },
        usage: { output_tokens: 3 },
      }),
      event("message_stop", {}),
    ];
    return new Response(parts.join(""), { headers: { "Content-Type": "text/event-stream" } });
  });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, app.fetch);
  const close = async () => await server.shutdown();
  return { baseURL: `http://127.0.0.1:${server.addr.port}`, requests, close, [Symbol.asyncDispose]: close };
}
