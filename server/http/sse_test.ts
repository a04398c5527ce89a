import assert from "node:assert/strict";
import { silentLogger } from "../log.ts";
import { sseResponse } from "./sse.ts";
import { StreamRegistry } from "./streams.ts";

function deps() {
  return { streams: new StreamRegistry(), log: silentLogger };
}

async function* failing(): AsyncGenerator<unknown> {
  yield { n: 1 };
  throw new Error("the producer broke");
}

const request = () => new Request("http://127.0.0.1/api/stream");

Deno.test("sseResponse() writes each frame as `data: <json>` and ends with the caller's failure frame", async () => {
  const streams = deps();
  const response = sseResponse(streams, request(), failing, { failureFrame: () => ({ type: "abort" }) });
  assert.equal(response.headers.get("Content-Type"), "text/event-stream");
  assert.equal(await response.text(), 'data: {"n":1}\n\ndata: {"type":"abort"}\n\n');
  assert.equal(streams.streams.size, 0);
});

Deno.test("sseResponse() without a failure frame just ends the stream when the producer throws", async () => {
  const streams = deps();
  const response = sseResponse(streams, request(), failing);
  assert.equal(await response.text(), 'data: {"n":1}\n\n');
  assert.equal(streams.streams.size, 0);
});

Deno.test("sseResponse() writes no failure frame when the server stops the stream", async () => {
  const streams = deps();
  async function* waiting(signal: AbortSignal): AsyncGenerator<unknown> {
    yield { n: 1 };
    signal.throwIfAborted();
    await new Promise((_, reject) => signal.addEventListener("abort", () => reject(signal.reason)));
  }
  const response = sseResponse(streams, request(), waiting, { failureFrame: () => ({ type: "abort" }) });
  const reader = response.body!.getReader();
  assert.equal(new TextDecoder().decode((await reader.read()).value), 'data: {"n":1}\n\n');
  streams.streams.abortAll();
  assert.deepEqual(await reader.read(), { done: true, value: undefined });
  assert.equal(streams.streams.size, 0);
});

Deno.test("eventBytes() gives each text bytes of its own, untouched by the texts encoded after it", async () => {
  const { eventBytes } = await import("./sse.ts");
  const texts = Array.from(
    { length: 3000 },
    (_, index) => `data: {"n":${index},"text":"${"é🦩x".repeat(index % 7)}"}\n\n`,
  );
  texts.push("long ".repeat(20_000), "", "a");
  const bytes = texts.map(eventBytes);
  const decoder = new TextDecoder();
  assert.deepEqual(bytes.map((view) => decoder.decode(view)), texts);
});

Deno.test("frames served by Deno.serve to many clients at once arrive whole and in order", async () => {
  const registry = deps();
  const FRAMES = 200;
  await using server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    (request) =>
      sseResponse(registry, request, async function* () {
        const client = new URL(request.url).searchParams.get("client");
        for (let index = 0; index < FRAMES; index++) {
          if (index % 10 === 0) await new Promise((resolve) => setTimeout(resolve, 0));
          yield { client, index, text: "ünï ".repeat(index % 5) };
        }
      }),
  );
  const texts = await Promise.all(Array.from({ length: 20 }, async (_, client) => {
    const response = await fetch(`http://127.0.0.1:${server.addr.port}/?client=${client}`);
    return [client, await response.text()] as const;
  }));
  for (const [client, text] of texts) {
    assert.equal(
      text,
      Array.from(
        { length: FRAMES },
        (_, index) =>
          `data: ${JSON.stringify({ client: String(client), index, text: "ünï ".repeat(index % 5) })}\n\n`,
      ).join(""),
    );
  }
});

Deno.test("sseResponse() stops producing while its reader does not read, and goes on when it does", async () => {
  // The stream's queue holds one frame (ReadableStream's default high-water mark) for a reader that reads none.
  const FRAMES_QUEUED = 1;
  const streams = deps();
  let produced = 0;
  async function* endless(): AsyncGenerator<unknown> {
    for (;;) {
      // A producer that takes its time (a timer per frame), as a model does: unbounded, it would go on here.
      await new Promise((resolve) => setTimeout(resolve, 0));
      produced++;
      yield { n: produced };
    }
  }
  const response = sseResponse(streams, request(), endless);
  const ticks = async () => {
    for (let index = 0; index < 50; index++) await new Promise((resolve) => setTimeout(resolve, 0));
  };
  await ticks();
  // The frames queued for the reader, and the one the producer is on: no more however long it waits.
  assert.ok(produced <= FRAMES_QUEUED + 1, `${produced} frames produced for a reader that reads none`);
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  for (let n = 1; n <= 20; n++) {
    assert.equal(decoder.decode((await reader.read()).value), `data: {"n":${n}}\n\n`);
  }
  await ticks();
  assert.ok(produced <= 20 + FRAMES_QUEUED + 1, `${produced} frames produced after 20 were read`);
  await reader.cancel();
  assert.equal(streams.streams.size, 0);
});

Deno.test("sseResponse() ends its producer (its finally runs) when the client leaves while it waits to push", async () => {
  const streams = deps();
  let ended = false;
  async function* endless(): AsyncGenerator<unknown> {
    try {
      for (let n = 0;; n++) yield { n };
    } finally {
      ended = true;
    }
  }
  const response = sseResponse(streams, request(), endless);
  await new Promise((resolve) => setTimeout(resolve, 0));
  await response.body!.cancel();
  assert.ok(ended);
  assert.equal(streams.streams.size, 0);
});
