// Test helpers: an `@agent` message through stream-chat, and the agent's socket as a browser would open it.
import type { TestApp } from "../testing/test_app.ts";
import { readFrames } from "../testing/test_app.ts";

/** Sends `message` to stream-chat and returns its frames. */
export async function sendChat(
  app: TestApp,
  slug: string,
  message: string,
  headers: Record<string, string> = {},
): Promise<Record<string, unknown>[]> {
  const response = await app.request(`/api/workspace/${slug}/stream-chat`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: JSON.stringify({ message }),
  });
  return await readFrames(response);
}

export interface AgentSocket {
  messages: Record<string, unknown>[];
  /** Resolves with the close code and reason. */
  closed: Promise<{ code: number; reason: string }>;
  /** Resolves once a message passes `test` (already received ones count). */
  next(test: (message: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
  send(feedback: string): void;
  close(): void;
}

/** Opens `/api/agent-invocation/<uuid>` on a listening app, with the token as the `bearer.` subprotocol. */
export function openAgentSocket(
  base: string,
  uuid: string,
  options: { token?: string; origin?: string } = {},
): AgentSocket {
  const protocols = ["lectern-agent", ...(options.token ? [`bearer.${options.token}`] : [])];
  // Deno's constructor takes handshake headers (the project's "dom" lib does not know that form).
  const DenoSocket = WebSocket as unknown as new (
    url: string,
    options: { protocols: string[]; headers: HeadersInit },
  ) => WebSocket;
  const socket = new DenoSocket(`${base.replace(/^http/, "ws")}/api/agent-invocation/${uuid}`, {
    protocols,
    headers: { Origin: options.origin ?? base },
  });
  const messages: Record<string, unknown>[] = [];
  const waiters: {
    test: (message: Record<string, unknown>) => boolean;
    resolve: (m: Record<string, unknown>) => void;
  }[] = [];
  socket.onmessage = (event) => {
    const message = JSON.parse(String(event.data));
    messages.push(message);
    for (const waiter of [...waiters]) {
      if (waiter.test(message)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(message);
      }
    }
  };
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    socket.onclose = (event) => resolve({ code: event.code, reason: event.reason });
    socket.onerror = () => {};
  });
  return {
    messages,
    closed,
    next(test) {
      const found = messages.find(test);
      if (found) return Promise.resolve(found);
      return new Promise((resolve) => waiters.push({ test, resolve }));
    },
    send(feedback) {
      socket.send(JSON.stringify({ type: "awaitingFeedback", feedback }));
    },
    close() {
      socket.close();
    },
  };
}
