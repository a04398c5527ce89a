// The loopback server under every vector database fake: each fake answers its engine's REST API from memory.

export interface FakeServer {
  /** http://127.0.0.1:PORT */
  url: string;
  /** Every request seen, as "METHOD /path". */
  requests: string[];
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}

/** Plain cosine similarity in [−1, 1], as the engines compute it. */
export function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let index = 0; index < Math.min(a.length, b.length); index++) {
    dot += a[index] * b[index];
    normA += a[index] * a[index];
    normB += b[index] * b[index];
  }
  return normA === 0 || normB === 0 ? 0 : dot / Math.sqrt(normA * normB);
}

/** Starts `handler` on 127.0.0.1 (a free port); a thrown error answers 500 with its message. */
export function serveFake(
  handler: (request: Request, url: URL, body: unknown) => Response | Promise<Response>,
  port = 0,
): FakeServer {
  const requests: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port, onListen() {} }, async (request) => {
    const url = new URL(request.url);
    requests.push(`${request.method} ${url.pathname}`);
    const text = await request.text();
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      return json({ message: "The body is not JSON." }, 400);
    }
    try {
      return await handler(request, url, body);
    } catch (error) {
      return json({ message: (error as Error).message }, 500);
    }
  });
  const close = async () => {
    await server.shutdown();
  };
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    requests,
    close,
    [Symbol.asyncDispose]: close,
  };
}

/** A port nothing listens on (for the unreachable-server tests). */
export function closedPort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}
