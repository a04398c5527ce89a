import { type Context, Hono } from "hono";
import { embedLexical } from "../providers/embedders/native.ts";

export interface ChatCompletionRequest {
  model: string;
  messages: {
    role: string;
    content: string;
    tool_calls?: { id: string; type: "function"; function: { name: string; arguments: string } }[];
    tool_call_id?: string;
  }[];
  /** The tools offered (agents), in the OpenAI format. */
  tools?: { type: "function"; function: { name: string; description?: string; parameters?: unknown } }[];
  stream?: boolean;
  temperature?: number;
  max_tokens?: number;
}

/** How the fake answers one chat completion. */
export interface ScriptedReply {
  /** Text deltas, streamed in order. */
  chunks?: string[];
  /** Reasoning deltas sent before the text (as `reasoning_content`, or as `reasoningField` names it). */
  reasoning?: string[];
  reasoningField?: "reasoning_content" | "reasoning";
  /** Milliseconds between deltas. */
  delayMs?: number;
  /** Fail before streaming with this status and message. */
  status?: number;
  message?: string;
  /** Fail after this many chunks with an error event carrying `message`. */
  failAfter?: number;
  usage?: { prompt_tokens: number; completion_tokens: number };
  /** Waits this long before answering at all (no headers yet); ends early when the client gives up. */
  waitMs?: number;
  /** Answers with exactly this instead of a completion (a proxy's error page, garbage, a wrong type). */
  raw?: { status?: number; contentType: string; body: string };
  /** After this many chunks the stream goes quiet and stays open until the client gives up. */
  hangAfter?: number;
  /** After this many chunks the stream ends, without a finish reason or `[DONE]`. */
  closeAfter?: number;
  /**
   * Tool calls streamed after the text as OpenAI sends them: per call a first delta with its id, type and name,
   * then its arguments in fragments; the finish reason is then `tool_calls`.
   */
  toolCalls?: { id?: string; name: string; arguments: string | Record<string, unknown> }[];
}

export interface FakeOpenAi {
  /** `http://127.0.0.1:<port>/v1` */
  baseURL: string;
  chatRequests: ChatCompletionRequest[];
  embeddingRequests: { model: string; input: string[] }[];
  /** Authorization headers seen, in order. */
  authorizations: (string | null)[];
  /** Every request's headers, in order. */
  headers: Headers[];
  /**
   * What `GET /v1/models` lists from now on: model objects as a vendor sends them (any fields), in `{data}` or,
   * with `bare`, as a bare array (Together AI).
   */
  setModels(models: Record<string, unknown>[], options?: { bare?: boolean }): void;
  setReply(reply: (request: ChatCompletionRequest) => ScriptedReply): void;
  /**
   * Milliseconds each embeddings call waits before answering (a slow embedder), or a function of the call (its
   * model) giving them; 0 by default. A waiting call ends early when its client goes away.
   */
  setEmbeddingDelay(ms: number | ((call: { model: string }) => number)): void;
  [Symbol.asyncDispose](): Promise<void>;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves after `ms`, or at once when `signal` aborts. */
function sleepUnless(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}

/** The default answer: repeats the question and says how many context blocks the system prompt held. */
export function echoReply(request: ChatCompletionRequest): ScriptedReply {
  const question = request.messages.at(-1)?.content ?? "";
  // A follow-up's search-query rewrite (server/chat/rewrite.ts) is answered as a model following its
  // instructions would: with the last message, standing alone.
  const rewrite = /\nLast message: ([\s\S]*)\n\nStandalone search query:$/.exec(question);
  if (rewrite) return { chunks: [rewrite[1].replace(/\s+/g, " ").trim()] };
  const contexts = (request.messages[0]?.content.match(/\[CONTEXT \d+\]/g) ?? []).length;
  return { chunks: ["You ", "asked: ", question, `. I saw ${contexts} context blocks.`] };
}

/**
 * An OpenAI-compatible server on loopback that speaks the real wire protocol: `/v1/models`, streaming
 * `/v1/chat/completions` (SSE `data:` frames ending with `[DONE]`) and `/v1/embeddings`.
 */
export function startFakeOpenAi(
  options: { apiKey?: string; embeddingDimensions?: number; models?: string[] } = {},
): FakeOpenAi {
  let reply: (request: ChatCompletionRequest) => ScriptedReply = echoReply;
  let embeddingDelay: number | ((call: { model: string }) => number) = 0;
  const chatRequests: ChatCompletionRequest[] = [];
  const embeddingRequests: { model: string; input: string[] }[] = [];
  const authorizations: (string | null)[] = [];
  const headers: Headers[] = [];
  let modelRows: Record<string, unknown>[] | null = null;
  let bareModels = false;
  const app = new Hono();
  const closing = new AbortController();

  app.use("*", async (c, next) => {
    // Azure sends its key as api-key; every other client as a Bearer token.
    const azureKey = c.req.header("api-key");
    const authorization = azureKey ? `Bearer ${azureKey}` : c.req.header("authorization") ?? null;
    authorizations.push(authorization);
    headers.push(c.req.raw.headers);
    if (options.apiKey && authorization !== `Bearer ${options.apiKey}`) {
      return c.json({ error: { message: "Incorrect API key provided", type: "invalid_request_error" } }, 401);
    }
    await next();
  });
  app.get("/v1/models", (c) => {
    const data = modelRows ?? (options.models ?? ["fake-model"]).map((id) => ({
      id,
      object: "model",
      created: 0,
      owned_by: "lectern-tests",
    }));
    return c.json(bareModels ? data : { object: "list", data });
  });
  app.post("/v1/embeddings", async (c) => {
    const body = await c.req.json() as { model: string; input: string | string[] };
    const input = Array.isArray(body.input) ? body.input : [body.input];
    embeddingRequests.push({ model: body.model, input });
    const delayMs = typeof embeddingDelay === "function"
      ? embeddingDelay({ model: body.model })
      : embeddingDelay;
    if (delayMs) await sleepUnless(delayMs, AbortSignal.any([c.req.raw.signal, closing.signal]));
    const dimensions = options.embeddingDimensions ?? 64;
    return c.json({
      object: "list",
      model: body.model,
      data: input.map((text, index) => ({
        object: "embedding",
        index,
        embedding: embedLexical(text).slice(0, dimensions),
      })),
      usage: { prompt_tokens: 0, total_tokens: 0 },
    });
  });
  const chatCompletions = async (c: Context) => {
    const request = await c.req.json() as ChatCompletionRequest;
    // Azure names the deployment in the path instead of the body.
    request.model ??= c.req.param("deployment") ?? "";
    chatRequests.push(request);
    const script = reply(request);
    if (script.waitMs) await sleepUnless(script.waitMs, AbortSignal.any([c.req.raw.signal, closing.signal]));
    if (script.raw) {
      return new Response(script.raw.body, {
        status: script.raw.status ?? 200,
        headers: { "Content-Type": script.raw.contentType },
      });
    }
    if (script.status) {
      return c.json(
        { error: { message: script.message ?? "Upstream failure", type: "api_error" } },
        script.status as 400,
      );
    }
    const id = `chatcmpl-${crypto.randomUUID()}`;
    const frame = (delta: Record<string, unknown>, finish: string | null = null) =>
      `data: ${
        JSON.stringify({
          id,
          object: "chat.completion.chunk",
          created: Math.floor(Date.now() / 1000),
          model: request.model,
          choices: [{ index: 0, delta, finish_reason: finish }],
        })
      }\n\n`;
    const encoder = new TextEncoder();
    const gone = new AbortController();
    const body = new ReadableStream<Uint8Array>({
      cancel() {
        gone.abort();
      },
      async start(controller) {
        try {
          controller.enqueue(encoder.encode(frame({ role: "assistant", content: "" })));
          for (const thought of script.reasoning ?? []) {
            if (script.delayMs) await sleep(script.delayMs);
            controller.enqueue(
              encoder.encode(frame({ [script.reasoningField ?? "reasoning_content"]: thought })),
            );
          }
          for (const [index, chunk] of (script.chunks ?? []).entries()) {
            if (script.failAfter !== undefined && index >= script.failAfter) {
              controller.enqueue(
                encoder.encode(
                  `data: ${JSON.stringify({ error: { message: script.message ?? "Stream failed" } })}\n\n`,
                ),
              );
              return controller.close();
            }
            if (index === script.hangAfter) {
              await sleepUnless(
                2 ** 31 - 1,
                AbortSignal.any([gone.signal, c.req.raw.signal, closing.signal]),
              );
              return controller.close();
            }
            if (index === script.closeAfter) return controller.close();
            if (script.delayMs) await sleep(script.delayMs);
            controller.enqueue(encoder.encode(frame({ content: chunk })));
          }
          for (const [index, call] of (script.toolCalls ?? []).entries()) {
            const args = typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments);
            controller.enqueue(encoder.encode(frame({
              tool_calls: [{
                index,
                id: call.id ?? `call_${crypto.randomUUID().slice(0, 8)}`,
                type: "function",
                function: { name: call.name, arguments: "" },
              }],
            })));
            for (let at = 0; at < args.length; at += 16) {
              controller.enqueue(encoder.encode(frame({
                tool_calls: [{ index, function: { arguments: args.slice(at, at + 16) } }],
              })));
            }
          }
          controller.enqueue(encoder.encode(frame({}, script.toolCalls?.length ? "tool_calls" : "stop")));
          if (script.usage) {
            controller.enqueue(
              encoder.encode(
                `data: ${
                  JSON.stringify({
                    id,
                    object: "chat.completion.chunk",
                    created: 0,
                    model: request.model,
                    choices: [],
                    usage: {
                      ...script.usage,
                      total_tokens: script.usage.prompt_tokens + script.usage.completion_tokens,
                    },
                  })
                }\n\n`,
              ),
            );
          }
          controller.enqueue(encoder.encode("data: [DONE]\n\n"));
          controller.close();
        } catch {
          // The client went away mid-stream.
        }
      },
    });
    return new Response(body, {
      headers: { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" },
    });
  };
  app.post("/v1/chat/completions", chatCompletions);
  app.post("/openai/deployments/:deployment/chat/completions", chatCompletions);

  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, app.fetch);
  const close = async () => {
    // Answers still waiting or hanging end now, so the server can stop.
    closing.abort();
    await server.shutdown();
  };
  return {
    baseURL: `http://127.0.0.1:${server.addr.port}/v1`,
    chatRequests,
    embeddingRequests,
    authorizations,
    headers,
    setModels(models, modelOptions = {}) {
      modelRows = models;
      bareModels = modelOptions.bare ?? false;
    },
    setReply(next) {
      reply = next;
    },
    setEmbeddingDelay(ms) {
      embeddingDelay = ms;
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}
