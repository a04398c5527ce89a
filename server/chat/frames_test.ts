import assert from "node:assert/strict";
import { collectFrames } from "./collect.ts";
import { frames } from "./frames.ts";
import { SSE_DATA, sseResponse } from "../http/sse.ts";
import { StreamRegistry } from "../http/streams.ts";
import { silentLogger } from "../log.ts";

const TEXTS = [
  "",
  "plain words ",
  'quotes " and \\ backslashes',
  "new\nlines\r\tand \u0000 controls \u001f",
  "ünïcödé, 中文, emoji 🦩, a lone surrogate \ud800 and \u2028\u2029",
  "<think>",
];

Deno.test("a chunk frame writes the same JSON as JSON.stringify, field for field", () => {
  for (const uuid of [crypto.randomUUID(), 'odd "uuid" \\']) {
    for (const text of TEXTS) {
      const frame = frames.chunk(uuid, text);
      assert.equal(frame[SSE_DATA](), `data: ${JSON.stringify(frame)}\n\n`);
      assert.deepEqual(Object.keys(frame), ["uuid", "sources", "type", "textResponse", "close", "error"]);
      assert.deepEqual(JSON.parse(frame[SSE_DATA]().slice("data: ".length)), {
        uuid,
        sources: [],
        type: "textResponseChunk",
        textResponse: text,
        close: false,
        error: false,
      });
    }
  }
  // Changed after it was made (no caller does): still what JSON.stringify writes.
  const changed = frames.chunk("u", "t");
  changed.close = true;
  assert.equal(changed[SSE_DATA](), `data: ${JSON.stringify(changed)}\n\n`);
});

Deno.test("an event stream of chunk frames is byte for byte `data: <JSON.stringify>\\n\\n`", async () => {
  const uuid = crypto.randomUUID();
  const sent = [...TEXTS.map((text) => frames.chunk(uuid, text)), frames.closingChunk(uuid, [], "q")];
  const response = sseResponse(
    { streams: new StreamRegistry(), log: silentLogger },
    new Request("http://127.0.0.1/stream", { method: "POST" }),
    async function* () {
      yield* sent;
    },
  );
  const bytes = new Uint8Array(await response.arrayBuffer());
  const expected = new TextEncoder().encode(
    sent.map((frame) => `data: ${JSON.stringify(frame)}\n\n`).join(""),
  );
  assert.deepEqual(bytes, expected);
});

/** The bytes of an event stream of `sent`. */
async function streamed(sent: unknown[]): Promise<string> {
  const response = sseResponse(
    { streams: new StreamRegistry(), log: silentLogger },
    new Request("http://127.0.0.1/stream", { method: "POST" }),
    async function* () {
      yield* sent;
    },
  );
  return await response.text();
}

Deno.test("a chunk frame of pieces writes a frame per piece, byte for byte as if they had come one by one", async () => {
  const uuid = crypto.randomUUID();
  const pieces = TEXTS.slice(1);
  const joined = frames.chunk(uuid, pieces.join(""), pieces);
  const oneByOne = pieces.map((text) => frames.chunk(uuid, text));
  assert.equal(
    await streamed([joined, frames.closingChunk(uuid, [])]),
    await streamed([...oneByOne, frames.closingChunk(uuid, [])]),
  );
  assert.equal(joined[SSE_DATA]().split("\n\n").length - 1, pieces.length);
  // Read as an object it is one frame of the joined text: its JSON, a whole answer's text.
  assert.equal(JSON.stringify(joined), JSON.stringify(frames.chunk(uuid, pieces.join(""))));
  assert.deepEqual(Object.keys(joined), ["uuid", "sources", "type", "textResponse", "close", "error"]);
  async function* answer() {
    yield joined;
    yield frames.chunk(uuid, "!");
  }
  assert.equal((await collectFrames(answer())).textResponse, `${pieces.join("")}!`);
});
