import { Hono } from "hono";

/** How the fake answers one `/api/chat`: content pieces, then the tool calls (in one line, as Ollama sends them). */
export interface OllamaReply {
  chunks?: string[];
  toolCalls?: { name: string; arguments: Record<string, unknown> }[];
}

export interface FakeOllama {
  /** `http://127.0.0.1:<port>` (Ollama's base path has no /v1). */
  baseURL: string;
  chatRequests: Record<string, unknown>[];
  /** Scripts the next answers from the request's body. */
  setReply(reply: (body: Record<string, unknown>) => OllamaReply): void;
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** Ollama's native API on loopback: `/api/tags` and streaming `/api/chat` (newline-delimited JSON). */
export function startFakeOllama(
  options: {
    models?: string[];
    reply?: string[];
    error?: string;
    /** Models that refuse a request with tools, as Ollama does (400, "… does not support tools"). */
    withoutTools?: string[];
  } = {},
): FakeOllama {
  const chatRequests: Record<string, unknown>[] = [];
  let reply = (_body: Record<string, unknown>): OllamaReply => ({
    chunks: options.reply ?? ["Hello ", "from ", "Ollama."],
  });
  const app = new Hono();
  app.get(
    "/api/tags",
    (c) =>
      c.json({
        models: (options.models ?? ["llama3.2:latest"]).map((name) => ({ name, model: name, size: 1 })),
      }),
  );
  app.post("/api/chat", async (c) => {
    const body = await c.req.json() as Record<string, unknown>;
    chatRequests.push(body);
    if (options.error) return c.json({ error: options.error }, 404);
    if (body.tools && options.withoutTools?.includes(String(body.model))) {
      return c.json({ error: `registry.ollama.ai/library/${body.model} does not support tools` }, 400);
    }
    const script = reply(body);
    const lines = (script.chunks ?? []).map((content) =>
      JSON.stringify({ model: body.model, message: { role: "assistant", content }, done: false })
    );
    if (script.toolCalls?.length) {
      lines.push(JSON.stringify({
        model: body.model,
        message: {
          role: "assistant",
          content: "",
          tool_calls: script.toolCalls.map((call, index) => ({
            function: { index, name: call.name, arguments: call.arguments },
          })),
        },
        done: false,
      }));
    }
    lines.push(
      JSON.stringify({
        model: body.model,
        message: { role: "assistant", content: "" },
        done: true,
        prompt_eval_count: 42,
        eval_count: 3,
      }),
    );
    return new Response(lines.join("\n") + "\n", { headers: { "Content-Type": "application/x-ndjson" } });
  });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, app.fetch);
  const close = async () => await server.shutdown();
  return {
    baseURL: `http://127.0.0.1:${server.addr.port}`,
    chatRequests,
    setReply: (next) => (reply = next),
    close,
    [Symbol.asyncDispose]: close,
  };
}
