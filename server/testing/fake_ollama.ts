import { Hono } from "hono";

export interface FakeOllama {
  /** `http://127.0.0.1:<port>` (Ollama's base path has no /v1). */
  baseURL: string;
  chatRequests: Record<string, unknown>[];
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** Ollama's native API on loopback: `/api/tags` and streaming `/api/chat` (newline-delimited JSON). */
export function startFakeOllama(
  options: { models?: string[]; reply?: string[]; error?: string } = {},
): FakeOllama {
  const chatRequests: Record<string, unknown>[] = [];
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
    const lines = (options.reply ?? ["Hello ", "from ", "Ollama."]).map((content) =>
      JSON.stringify({ model: body.model, message: { role: "assistant", content }, done: false })
    );
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
    close,
    [Symbol.asyncDispose]: close,
  };
}
