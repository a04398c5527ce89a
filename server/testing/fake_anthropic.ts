import { Hono } from "hono";

/** How the fake answers one `/v1/messages`: text deltas, then `tool_use` blocks (their input in pieces). */
export interface AnthropicReply {
  chunks?: string[];
  toolCalls?: { name: string; input: Record<string, unknown>; id?: string }[];
}

export interface FakeAnthropic {
  /** `http://127.0.0.1:<port>` (the SDK adds /v1/messages). */
  baseURL: string;
  requests: { body: Record<string, unknown>; apiKey: string | null }[];
  /** Scripts the next answers from the request's body. */
  setReply(reply: (body: Record<string, unknown>) => AnthropicReply): void;
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** Anthropic's Messages API on loopback: `/v1/models` and streaming `/v1/messages` (its SSE events). */
export function startFakeAnthropic(options: { apiKey?: string; reply?: string[] } = {}): FakeAnthropic {
  const requests: { body: Record<string, unknown>; apiKey: string | null }[] = [];
  let reply = (_body: Record<string, unknown>): AnthropicReply => ({
    chunks: options.reply ?? ["Hi ", "from ", "Claude."],
  });
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
    const script = reply(body);
    const chunks = script.chunks ?? [];
    const calls = script.toolCalls ?? [];
    const parts = [
      event("message_start", {
        message: {
          id: `msg_${requests.length}`,
          type: "message",
          role: "assistant",
          content: [],
          model: body.model,
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 25, output_tokens: 1 },
        },
      }),
    ];
    let index = 0;
    if (chunks.length || !calls.length) {
      parts.push(event("content_block_start", { index, content_block: { type: "text", text: "" } }));
      for (const text of chunks) {
        parts.push(event("content_block_delta", { index, delta: { type: "text_delta", text } }));
      }
      parts.push(event("content_block_stop", { index }));
      index++;
    }
    for (const [n, call] of calls.entries()) {
      const id = call.id ?? `toolu_${requests.length}_${n}`;
      parts.push(event("content_block_start", {
        index,
        content_block: { type: "tool_use", id, name: call.name, input: {} },
      }));
      // The input arrives as pieces of its JSON text, as the API streams it.
      const json = JSON.stringify(call.input);
      const cut = Math.floor(json.length / 2);
      for (const partial_json of ["", json.slice(0, cut), json.slice(cut)]) {
        parts.push(
          event("content_block_delta", { index, delta: { type: "input_json_delta", partial_json } }),
        );
      }
      parts.push(event("content_block_stop", { index }));
      index++;
    }
    parts.push(
      event("message_delta", {
        delta: { stop_reason: calls.length ? "tool_use" : "end_turn", stop_sequence: null },
        usage: { output_tokens: 3 },
      }),
      event("message_stop", {}),
    );
    return new Response(parts.join(""), { headers: { "Content-Type": "text/event-stream" } });
  });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, app.fetch);
  const close = async () => await server.shutdown();
  return {
    baseURL: `http://127.0.0.1:${server.addr.port}`,
    requests,
    setReply: (next) => (reply = next),
    close,
    [Symbol.asyncDispose]: close,
  };
}
