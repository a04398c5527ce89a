import assert from "node:assert/strict";
import { loadHistory, refusalText, resetHistory, streamChat } from "./api.ts";
import type { WidgetFrame } from "./frames.ts";
import { parseOptions, type WidgetOptions } from "./options.ts";

const SESSION = "11111111-2222-4333-8444-555555555555";

Deno.test("api: a refusal shows the server's sentence (errorMsg first), else the status", () => {
  assert.equal(
    refusalText(429, { error: "Rate limit exceeded", errorMsg: "The quota for this chat has been reached." }),
    "The quota for this chat has been reached.",
  );
  assert.equal(refusalText(403, { type: "abort", error: "Invalid request." }), "Invalid request.");
  assert.equal(refusalText(502, "<html>"), "An error occurred while streaming response. Code 502.");
  assert.equal(refusalText(500, { error: "" }), "An error occurred while streaming response. Code 500.");
});

/** A loopback server answering the widget's calls as scripted; the requests it saw are kept. */
function server(answer: (request: Request) => Response | Promise<Response>) {
  const seen: { method: string; path: string; body: string; origin: string | null }[] = [];
  const http = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    seen.push({
      method: request.method,
      path: new URL(request.url).pathname,
      body: await request.text(),
      origin: request.headers.get("origin"),
    });
    return await answer(request);
  });
  const options = parseOptions({
    embedId: "6f1c2c1e-8a4b-4c1d-9e2f-0a1b2c3d4e5f",
    baseApiUrl: `http://127.0.0.1:${http.addr.port}/api/embed`,
    username: "visitor",
    temperature: "0.5",
  });
  if (!options.ok) throw new Error(options.error);
  return { seen, options: options.options as WidgetOptions, [Symbol.asyncDispose]: () => http.shutdown() };
}

async function collect(options: WidgetOptions, signal = new AbortController().signal) {
  const frames: WidgetFrame[] = [];
  await streamChat(options, SESSION, "Hello?", (frame) => frames.push(frame), signal);
  return frames;
}

Deno.test("api: a streamed answer arrives frame by frame, with the reference's request body", async () => {
  const body = [
    { uuid: "a", type: "textResponseChunk", textResponse: "Hi", sources: [], close: false, error: false },
    {
      uuid: "a",
      type: "textResponseChunk",
      textResponse: "",
      sources: [{ title: "t", text: "x" }],
      close: true,
    },
    { uuid: "a", type: "finalizeResponseStream", close: true, error: false },
  ].map((frame) => `data: ${JSON.stringify(frame)}\n\n`).join("");
  await using api = server(() => new Response(body, { headers: { "Content-Type": "text/event-stream" } }));
  const frames = await collect(api.options);
  assert.deepEqual(frames.map((frame) => frame.type), [
    "textResponseChunk",
    "textResponseChunk",
    "finalizeResponseStream",
  ]);
  assert.equal(frames[1].sources[0].title, "t");
  assert.equal(api.seen[0].method, "POST");
  assert.equal(api.seen[0].path, "/api/embed/6f1c2c1e-8a4b-4c1d-9e2f-0a1b2c3d4e5f/stream-chat");
  assert.deepEqual(JSON.parse(api.seen[0].body), {
    message: "Hello?",
    sessionId: SESSION,
    username: "visitor",
    prompt: null,
    model: null,
    temperature: 0.5,
  });
});

Deno.test("api: refusals, wrong answers and unreadable frames end in an abort with a sentence", async () => {
  let reply = () =>
    Response.json({ type: "abort", error: "Rate limit exceeded", errorMsg: "The quota is reached." }, {
      status: 429,
    });
  await using api = server(() => reply());
  assert.deepEqual((await collect(api.options)).map((f) => [f.type, f.error]), [[
    "abort",
    "The quota is reached.",
  ]]);
  reply = () => new Response("<html>", { status: 200, headers: { "Content-Type": "text/html" } });
  assert.deepEqual((await collect(api.options)).map((f) => f.error), [
    "An error occurred while streaming response. Unknown Error.",
  ]);
  reply = () => new Response("data: {oops\n\n", { headers: { "Content-Type": "text/event-stream" } });
  assert.deepEqual((await collect(api.options)).map((f) => f.error), [
    "The server sent a part of the answer that could not be read.",
    "An error occurred while streaming response. Unknown Error.",
  ]);
});

Deno.test("api: an unreachable server is a sentence; history and reset call the session's address", async () => {
  const gone = parseOptions({
    embedId: "6f1c2c1e-8a4b-4c1d-9e2f-0a1b2c3d4e5f",
    baseApiUrl: "http://127.0.0.1:9/x",
  });
  assert.ok(gone.ok);
  assert.deepEqual((await collect(gone.options)).map((f) => f.error), [
    "The chat could not be reached: the connection failed, or this web site may not use it.",
  ]);
  assert.deepEqual(await loadHistory(gone.options, SESSION), {
    ok: false,
    error: "The chat could not be reached: the connection failed, or this web site may not use it.",
  });

  let status = 200;
  await using api = server((request) =>
    request.method === "GET"
      ? Response.json({ history: [{ role: "user", content: "Hi" }] }, { status })
      : new Response(null, { status })
  );
  assert.deepEqual(await loadHistory(api.options, SESSION), {
    ok: true,
    entries: [{ role: "user", content: "Hi" }],
  });
  assert.equal(await resetHistory(api.options, SESSION), null);
  assert.deepEqual(api.seen.map((r) => `${r.method} ${r.path}`), [
    `GET /api/embed/6f1c2c1e-8a4b-4c1d-9e2f-0a1b2c3d4e5f/${SESSION}`,
    `DELETE /api/embed/6f1c2c1e-8a4b-4c1d-9e2f-0a1b2c3d4e5f/${SESSION}`,
  ]);
  status = 404;
  assert.deepEqual(await loadHistory(api.options, SESSION), {
    ok: false,
    error: "An error occurred while streaming response. Code 404.",
  });
  assert.equal(
    await resetHistory(api.options, SESSION),
    "An error occurred while streaming response. Code 404.",
  );
});
