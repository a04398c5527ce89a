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
