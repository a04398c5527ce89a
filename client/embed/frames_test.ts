import assert from "node:assert/strict";
import { abortFrame, SseParser, toFrame, toSources } from "./frames.ts";

Deno.test("SSE: events split across chunks, with \\n, \\r\\n and \\r line ends, multi-line data and comments", () => {
  const parser = new SseParser();
  assert.deepEqual(parser.feed('data: {"a":'), []);
  assert.deepEqual(parser.feed('1}\n\ndata: {"b":2}\r'), ['{"a":1}']);
  assert.deepEqual(parser.feed("\n\r\n"), ['{"b":2}'], "a \\r\\n split across chunks is one line end");
  assert.deepEqual(parser.feed(": keep-alive\n\nevent: x\nid: 3\ndata: one\ndata:two\n\n"), ["one\ntwo"]);
  assert.deepEqual(parser.feed("data: last"), []);
  assert.deepEqual(parser.end(), ["last"], "the stream's end dispatches an unfinished event");
  assert.deepEqual(parser.feed("\n\n"), [], "nothing is left over");
});

Deno.test("SSE: the reference's frames become checked widget frames", () => {
  assert.deepEqual(
    toFrame({
      uuid: "u1",
      type: "textResponseChunk",
      textResponse: "Hel",
      sources: [],
      close: false,
      error: false,
    }),
    { type: "textResponseChunk", uuid: "u1", textResponse: "Hel", sources: [], close: false, error: null },
  );
  const closing = toFrame({
    uuid: "u1",
    type: "textResponseChunk",
    textResponse: "",
    close: true,
    error: false,
    sources: [
      {
        title: "freedonia.txt",
        chunkSource: "",
        text:
          "<document_metadata>\nsourceDocument: freedonia.txt\n</document_metadata>\n\nFreedonia is small.",
        score: 0.8,
      },
      {
        docSource: "link://https://shop.example/faq",
        chunkSource: "link://https://shop.example/faq",
        text: "FAQ",
      },
      "junk",
    ],
  });
  assert.deepEqual(closing?.sources, [
    { title: "freedonia.txt", url: null, text: "Freedonia is small." },
    { title: "link://https://shop.example/faq", url: "https://shop.example/faq", text: "FAQ" },
  ]);
  assert.equal(closing?.close, true);
  assert.deepEqual(
    toFrame({ uuid: "u1", type: "finalizeResponseStream", close: true, error: false, chatId: 3 }),
    {
      type: "finalizeResponseStream",
      uuid: "u1",
      textResponse: "",
      sources: [],
      close: true,
      error: null,
    },
  );
});

Deno.test("SSE: an abort shows the reference's errorMsg first, else its error", () => {
  const quota = toFrame({
    id: "x",
    type: "abort",
    textResponse: null,
    sources: [],
    close: true,
    error: "Rate limit exceeded",
    errorMsg: "The quota for this chat has been reached. Try again later or contact the site owner.",
  });
  assert.equal(
    quota?.error,
    "The quota for this chat has been reached. Try again later or contact the site owner.",
  );
  assert.equal(quota?.uuid, "x", "id stands in for uuid");
  assert.equal(toFrame({ type: "abort", error: "Invalid request." })?.error, "Invalid request.");
  assert.deepEqual(abortFrame("Down."), {
    type: "abort",
    uuid: null,
    textResponse: "",
    sources: [],
    close: true,
    error: "Down.",
  });
});

Deno.test("SSE: what is not a chat frame is skipped", () => {
  for (const data of [null, 3, "text", [], {}, { type: "statusResponse" }, { action: "rename_thread" }]) {
    assert.equal(toFrame(data), null, JSON.stringify(data));
  }
  assert.deepEqual(toSources("nope"), []);
  assert.deepEqual(toSources([{ url: "javascript:alert(1)", text: 5 }]), [{
    title: "",
    url: null,
    text: "",
  }]);
});
