import assert from "node:assert/strict";
import { MemoryStorage, stubFetch, stubStorage } from "../testing/stubs.ts";
import { streamChat, type StreamEvent } from "./chat_stream.ts";
import { toStreamEvent } from "./stream_frames.ts";
import { STORAGE_KEYS } from "./storage.ts";

const SSE = { "content-type": "text/event-stream" };
const PREFIX = "An error occurred while streaming response.";

const chunk = (uuid: string, text: string) => ({
  uuid,
  sources: [],
  type: "textResponseChunk",
  textResponse: text,
  close: false,
  error: false,
});
const finalize = (uuid: string) => ({ uuid, type: "finalizeResponseStream", close: true, error: false });
const frame = (data: unknown) => `data: ${JSON.stringify(data)}\n\n`;

/** An SSE answer that sends `parts` as separate chunks of bytes. */
function sse(parts: readonly string[], init: ResponseInit = {}): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const part of parts) controller.enqueue(encoder.encode(part));
      controller.close();
    },
  });
  return new Response(body, { headers: SSE, ...init });
}

/** Runs streamChat against `answer` and collects its events. */
async function collect(answer: (signal: AbortSignal) => Response | Promise<Response>, signal?: AbortSignal) {
  using _storage = stubStorage();
  using fetch = stubFetch((request) => answer(request.init.signal!));
  const events: StreamEvent[] = [];
  await streamChat(
    "/workspace/notes/stream-chat",
    { message: "hi" },
    (event) => events.push(event),
    signal ?? new AbortController().signal,
  );
  return { events, requests: fetch.requests };
}

/** The message of the single abort event among `events`. */
function abortMessage(events: readonly StreamEvent[]): string {
  assert.equal(events.length, 1, JSON.stringify(events));
  const [event] = events;
  assert.equal(event.type, "abort");
  const abort = event as Extract<StreamEvent, { type: "abort" }>;
  assert.equal(abort.close, true);
  assert.equal(abort.textResponse, null);
  assert.deepEqual(abort.sources, []);
  assert.equal(abort.id, abort.uuid);
  return abort.error;
}

Deno.test("streamChat() POSTs the message as JSON with the stored token to /api + path", async () => {
  const store = new MemoryStorage();
  store.setItem(STORAGE_KEYS.token, "tok");
  using _storage = stubStorage(store);
  using fetch = stubFetch(() => sse([frame(finalize("u"))]));
  const body = { message: "hello", attachments: [{ name: "a.png", mime: "image/png", contentString: "x" }] };
  await streamChat("/workspace/w/stream-chat", body, () => {}, new AbortController().signal);
  const [request] = fetch.requests;
  assert.equal(request.url, "/api/workspace/w/stream-chat");
  assert.equal(request.method, "POST");
  assert.equal(request.headers.get("authorization"), "Bearer tok");
  assert.deepEqual(JSON.parse(request.body!), body);
});

Deno.test("streamChat() reports each frame of a chunk in order", async () => {
  const { events } = await collect(() =>
    sse([frame(chunk("u", "Hel")) + frame(chunk("u", "lo")) + frame(finalize("u"))])
  );
  assert.deepEqual(events, [chunk("u", "Hel"), chunk("u", "lo"), finalize("u")]);
});

Deno.test("streamChat() joins a frame split across chunks, even inside the JSON and the field name", async () => {
  const whole = frame(chunk("u", "split ✓ text"));
  // Cut at every position: the field name, the JSON, the multi-byte character, the blank line.
  for (const at of [1, 3, 6, 20, whole.indexOf("✓") + 1, whole.length - 1]) {
    const { events } = await collect(() => sse([whole.slice(0, at), whole.slice(at)]));
    assert.deepEqual(events, [chunk("u", "split ✓ text")], `cut at ${at}`);
  }
  // A multi-byte character cut between two byte chunks.
  const bytes = new TextEncoder().encode(whole);
  const cut = bytes.indexOf(0xe2) + 1;
  const byteStream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes.slice(0, cut));
      controller.enqueue(bytes.slice(cut));
      controller.close();
    },
  });
  const { events } = await collect(() => new Response(byteStream, { headers: SSE }));
  assert.deepEqual(events, [chunk("u", "split ✓ text")]);
});

Deno.test("streamChat() joins the data lines of one frame with newlines", async () => {
  const { events } = await collect(() =>
    sse(['data: {"uuid":"u","type":"finalizeResponseStream",\ndata: "close":true,\ndata: "error":false}\n\n'])
  );
  assert.deepEqual(events, [finalize("u")]);
});

Deno.test("streamChat() reads CRLF line endings and skips comments, event names and ids", async () => {
  const { events } = await collect(() =>
    sse([
      ": keep-alive\r\n\r\n",
      `event: message\r\nid: 7\r\ndata: ${JSON.stringify(chunk("u", "a"))}\r\n\r\n`,
      "retry: 1000\n\n",
      frame(finalize("u")),
    ])
  );
  assert.deepEqual(events, [chunk("u", "a"), finalize("u")]);
});

Deno.test("streamChat() reports a frame whose data is not JSON as an abort with the parser's message", async () => {
  const { events } = await collect(() => sse(["data: {not json\n\n"]));
  const message = abortMessage(events);
  assert.ok(message.startsWith(`${PREFIX} `), message);
  assert.ok(message.length > PREFIX.length + 1, "the parser's message follows");
  // The stream goes on after a malformed frame.
  const next = await collect(() => sse(["data: oops\n\n", frame(finalize("u"))]));
  assert.equal(next.events.length, 2);
  assert.equal(next.events[0].type, "abort");
  assert.deepEqual(next.events[1], finalize("u"));
});

Deno.test("streamChat() passes on the server's abort frame with its error", async () => {
  const abort = {
    id: "a1",
    uuid: "a1",
    type: "abort",
    textResponse: null,
    sources: [],
    close: true,
    error: "No LLM configured",
  };
  const { events } = await collect(() => sse([frame(abort)]));
  assert.deepEqual(events, [abort]);
});

Deno.test("streamChat() reports a 4xx answer by its code, and 429, 5xx and non-SSE answers as unknown", async () => {
  const cases: [Response, string][] = [
    [new Response("no", { status: 403 }), `${PREFIX} Code 403`],
    [new Response("gone", { status: 404 }), `${PREFIX} Code 404`],
    [new Response("slow", { status: 429 }), `${PREFIX} Unknown Error.`],
    [new Response("boom", { status: 500 }), `${PREFIX} Unknown Error.`],
    [
      new Response("{}", { status: 200, headers: { "content-type": "application/json" } }),
      `${PREFIX} Unknown Error.`,
    ],
    [new Response(null, { status: 200, headers: SSE }), `${PREFIX} Unknown Error.`],
  ];
  for (const [response, expected] of cases) {
    const { events } = await collect(() => response);
    assert.equal(
      abortMessage(events),
      expected,
      `${response.status} ${response.headers.get("content-type")}`,
    );
  }
});

Deno.test("streamChat() reports a request that cannot be sent with the error's message", async () => {
  const { events } = await collect(() => Promise.reject(new TypeError("connection refused")));
  assert.equal(abortMessage(events), `${PREFIX} connection refused`);
});

Deno.test("streamChat() reports a stream that breaks off with the reader's message", async () => {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(frame(chunk("u", "partial"))));
    },
    pull(controller) {
      controller.error(new Error("network lost"));
    },
  });
  const { events } = await collect(() => new Response(body, { headers: SSE }));
  assert.equal(events.length, 2);
  assert.deepEqual(events[0], chunk("u", "partial"));
  assert.equal(abortMessage(events.slice(1)), `${PREFIX} network lost`);
});

Deno.test("streamChat() ends quietly when aborted, before the answer or in the middle of the stream", async () => {
  const before = new AbortController();
  before.abort();
  assert.deepEqual((await collect(() => sse([frame(finalize("u"))]), before.signal)).events, []);

  const during = new AbortController();
  const encoder = new TextEncoder();
  let sent = false;
  const { events } = await collect((signal) => {
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (!sent) {
          sent = true;
          controller.enqueue(encoder.encode(frame(chunk("u", "first"))));
          // The stop button: the fetch's signal aborts, which errors the body as a browser does.
          queueMicrotask(() => during.abort());
          return;
        }
        return new Promise<void>((resolve) => {
          const fail = () => {
            controller.error(new DOMException("The operation was aborted.", "AbortError"));
            resolve();
          };
          if (signal.aborted) fail();
          else signal.addEventListener("abort", fail, { once: true });
        });
      },
    });
    return new Response(body, { headers: SSE });
  }, during.signal);
  assert.deepEqual(events, [chunk("u", "first")], "no abort event after the stop");
});

Deno.test("toStreamEvent() keeps the frames of the contract as they are", () => {
  const text = {
    id: "i",
    uuid: "i",
    type: "textResponse",
    textResponse: "hi",
    sources: [{ text: "s" }],
    close: true,
    error: null,
    action: "reset_chat",
  };
  assert.deepEqual(toStreamEvent(text), text);
  assert.deepEqual(toStreamEvent(chunk("u", "x")), chunk("u", "x"));
});

Deno.test("toStreamEvent() reads agent status, agent hand-off and thread renames", () => {
  assert.deepEqual(toStreamEvent({ type: "statusResponse", uuid: "s", textResponse: "Thinking" }), {
    type: "statusResponse",
    uuid: "s",
    textResponse: "Thinking",
    sources: [],
  });
  assert.deepEqual(toStreamEvent({ type: "agentInitWebsocketConnection", websocketUUID: "w" }), {
    type: "agentInitWebsocketConnection",
    websocketUUID: "w",
  });
  assert.deepEqual(toStreamEvent({ action: "rename_thread", thread: { slug: "t", name: "Trip" } }), {
    action: "rename_thread",
    thread: { slug: "t", name: "Trip" },
  });
});

Deno.test("toStreamEvent() completes a whole message that carries only id or only uuid", () => {
  assert.deepEqual(
    toStreamEvent({ type: "textResponse", uuid: "only-uuid", textResponse: null, chatId: 4 }),
    {
      id: "only-uuid",
      uuid: "only-uuid",
      type: "textResponse",
      textResponse: "",
      sources: [],
      close: true,
      error: null,
      chatId: 4,
      action: undefined,
    },
  );
  const loose = toStreamEvent({
    type: "textResponse",
    id: "only-id",
    textResponse: "t",
    action: "reset_chat",
  });
  assert.equal(loose.type, "textResponse");
  assert.deepEqual([(loose as { id: string }).id, (loose as { uuid: string }).uuid], ["only-id", "only-id"]);
  assert.equal((loose as { action?: string }).action, "reset_chat");

  const abort = toStreamEvent({ type: "abort", id: "x", error: "Quota exceeded" });
  assert.deepEqual({ ...abort }, {
    id: "x",
    uuid: "x",
    type: "abort",
    textResponse: null,
    sources: [],
    close: true,
    error: "Quota exceeded",
  });
  const silent = toStreamEvent({ type: "abort", uuid: "y", error: false });
  assert.equal((silent as { error: string }).error, `${PREFIX} Unknown Error.`);
  assert.equal((silent as { id: string }).id, "y");
});

Deno.test("toStreamEvent() passes anything else on as unknown", () => {
  for (const data of [null, 3, "text", { type: "mystery" }, { action: "rename_thread" }]) {
    assert.deepEqual(toStreamEvent(data), { type: "unknown", data }, JSON.stringify(data));
  }
});
