// The content of an answer's plain events read without a whole parse (content_deltas.ts) is what the whole parse
// gives, for every string however escaped, and an event of any other shape is left to the whole parse.
import assert from "node:assert/strict";
import { ContentDeltas } from "./content_deltas.ts";
import { openAiCompatibleChatModel } from "./openai_compatible.ts";
import type { ChatPart } from "./types.ts";

const HEAD = '{"id":"chatcmpl-1","object":"chat.completion.chunk","created":7,"model":"m",' +
  '"choices":[{"index":0,"delta":{"content":';
const TAIL = '},"finish_reason":null}]}';
/** An event's data with `token` (a JSON string's source, or anything) where the content goes. */
const plainEvent = (token: string) => HEAD + token + TAIL;

/** What the stream's reader takes from an event parsed whole: thrown, or its fields that it acts on. */
function wholeParse(data: string) {
  let chunk;
  try {
    chunk = JSON.parse(data);
  } catch {
    return { thrown: true };
  }
  const choice = chunk?.choices?.[0];
  return {
    thrown: false,
    error: Boolean(chunk?.error),
    usage: Boolean(chunk?.usage),
    finished: Boolean(choice?.finish_reason),
    thought: Boolean(choice?.delta?.reasoning_content ?? choice?.delta?.reasoning),
    content: choice?.delta?.content,
  };
}

/** `deltas` read `data`: either not recognised, or what the whole parse gives (a plain event of that content). */
function assertAgrees(deltas: ContentDeltas, data: string) {
  const fast = deltas.content(data);
  if (fast === undefined) return false;
  assert.deepEqual(wholeParse(data), {
    thrown: false,
    error: false,
    usage: false,
    finished: false,
    thought: false,
    content: fast,
  }, `read as ${JSON.stringify(fast)}: ${data}`);
  return true;
}

function learned(data = plainEvent('"Hello"')): ContentDeltas {
  const deltas = new ContentDeltas();
  deltas.learn(data, JSON.parse(data));
  return deltas;
}

const HOSTILE = [
  "",
  "plain",
  'quote " inside',
  "back\\slash",
  "ends with a backslash\\",
  '\\"',
  '"},"finish_reason":"stop"}]}',
  '","content":"other',
  "\u0000 nul, \u001f unit separator, \u007f delete",
  "\b\f\n\r\t",
  "😀 astral, é, 中文, \u2028\u2029",
  "\ud800 lone high, lone low \udc00",
  "</script><!--",
  "\\u0041 not an escape once decoded",
];

Deno.test("every string, as JSON.stringify writes it, is read as the whole parse reads it", () => {
  const deltas = learned();
  for (const text of HOSTILE) {
    const data = plainEvent(JSON.stringify(text));
    assert.equal(deltas.content(data), text, data);
    assertAgrees(deltas, data);
  }
});

Deno.test("escapes as other servers write them, good or bad, agree with the whole parse or are left to it", () => {
  const deltas = learned();
  const tokens = [
    String.raw`"\u0048\u0069"`,
    String.raw`"\ud83d\ude00"`,
    String.raw`"\ud83d"`,
    String.raw`"\/slash"`,
    String.raw`"\x41"`,
    String.raw`"\u12"`,
    String.raw`"\'"`,
    String.raw`"tab	raw"`,
    '"new\nline raw"',
    '"nul \u0000 raw"',
    '"a","content":"b"',
    '"a" ,"x":"b"',
    '"unclosed',
    '"\\"',
    '"two\\\\"',
    "'single'",
    "null",
    "42",
    '""',
  ];
  const recognised = tokens.filter((token) => assertAgrees(deltas, plainEvent(token)));
  // The good escapes and the empty string are read here; the rest are left to the whole parse.
  assert.deepEqual(recognised, [
    String.raw`"\u0048\u0069"`,
    String.raw`"\ud83d\ude00"`,
    String.raw`"\ud83d"`,
    String.raw`"\/slash"`,
    '"two\\\\"',
    '""',
  ]);
});

Deno.test("random sources of strings from escape-prone characters agree with the whole parse", () => {
  const deltas = learned();
  const alphabet = [
    "\\",
    '"',
    "u",
    "0",
    "d",
    "8",
    "3",
    "D",
    "e",
    "n",
    "/",
    "\n",
    "\t",
    "x",
    "é",
    "😀",
    ",",
    "}",
  ];
  let seed = 21;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  let recognised = 0;
  for (let run = 0; run < 20_000; run++) {
    let body = "";
    for (let length = Math.floor(random() * 8); length > 0; length--) {
      body += alphabet[Math.floor(random() * alphabet.length)];
    }
    if (assertAgrees(deltas, plainEvent(`"${body}"`))) recognised++;
  }
  // Not every source is left to the whole parse: the quick read is in use.
  assert.ok(recognised > 1000, `${recognised} recognised`);
});

Deno.test("an event of another shape than the learned one is left to the whole parse", () => {
  const deltas = learned();
  const others = [
    '{"id":"chatcmpl-1","object":"chat.completion.chunk","created":8,"model":"m","choices":[{"index":0,"delta":{"content":"x"},"finish_reason":null}]}',
    plainEvent('"x"').replace('"finish_reason":null', '"finish_reason":"stop"'),
    plainEvent('"x"').replace("}]}", '}],"usage":{"prompt_tokens":1,"completion_tokens":2}}'),
    plainEvent('"x"') + " ",
    " " + plainEvent('"x"'),
    plainEvent('"x"').replace('{"content":', '{"reasoning_content":"hm","content":'),
    '{"error":{"message":"boom"}}',
    "[DONE]",
    "",
  ];
  for (const data of others) assert.equal(deltas.content(data), undefined, data);
});

Deno.test("only a plain event is learned, and only where its content's place is certain", () => {
  const notLearned = [
    // Not plain: a finish reason, reasoning, usage, an error, an empty content, no content.
    plainEvent('"x"').replace('"finish_reason":null', '"finish_reason":"stop"'),
    plainEvent('"x"').replace('{"content":', '{"reasoning":"hm","content":'),
    plainEvent('"x"').replace("}]}", '}],"usage":{"prompt_tokens":1}}'),
    plainEvent('"x"').replace("}]}", '}],"error":"boom"}'),
    plainEvent('""'),
    '{"choices":[{"index":0,"delta":{"role":"assistant"},"finish_reason":null}]}',
    // The content's place is not where the pattern is: a duplicate key (the last wins), an escaped key, spaces.
    HEAD + '"x","content":"x"' + TAIL,
    '{"x\\"content":"x","choices":[{"index":0,"delta":{"content" : "x"},"finish_reason":null}]}',
    '{"choices":[{"index":0,"delta":{"content": "x"},"finish_reason":null}]}',
  ];
  for (const data of notLearned) {
    const deltas = new ContentDeltas();
    deltas.learn(data, JSON.parse(data));
    assert.equal(deltas.content(plainEvent('"y"')), undefined, data);
    assert.equal(deltas.content(data.replace('"x"', '"y"')), undefined, data);
  }
  // A plain event with other fields around its content (Ollama's role) is learned.
  const withRole =
    '{"id":"c","choices":[{"index":0,"delta":{"role":"assistant","content":"Hi"},"finish_reason":null}]}';
  assert.equal(learned(withRole).content(withRole.replace('"Hi"', '"there"')), "there");
});

/** The parts of an answer whose events are `datas`, all in one read, then [DONE]. */
async function partsOf(datas: string[]): Promise<ChatPart[]> {
  const body = datas.map((data) => `data: ${data}\n\n`).join("") + "data: [DONE]\n\n";
  const model = openAiCompatibleChatModel({
    providerId: "generic-openai",
    baseURL: "http://127.0.0.1:9/v1",
    modelId: "m",
    contextWindow: 4096,
    maxTokens: 256,
    fetch: () =>
      Promise.resolve(new Response(body, { status: 200, headers: { "Content-Type": "text/event-stream" } })),
  });
  const parts: ChatPart[] = [];
  for await (const part of model.stream({ messages: [] }, new AbortController().signal)) parts.push(part);
  return parts;
}

Deno.test("an answer's text is the same whether its events are read quickly or whole", async () => {
  const contents = [...HOSTILE.filter(Boolean), "next", "after the reasoning"];
  const datas = contents.map((text) => plainEvent(JSON.stringify(text)));
  // Reasoning between two plain events, an id that changes midway, then the finish reason.
  datas.splice(3, 0, plainEvent('"x"').replace('{"content":"x"', '{"reasoning_content":"hm"'));
  datas.splice(6, 0, plainEvent('"new id"').replace("chatcmpl-1", "chatcmpl-2"));
  datas.push(plainEvent('""').replace('"finish_reason":null', '"finish_reason":"stop"'));
  const parts = await partsOf(datas);
  const expected = [
    ...contents.slice(0, 3),
    "<think>hm",
    "</think>",
    ...contents.slice(3, 5),
    "new id",
    ...contents.slice(5),
  ];
  assert.deepEqual(parts, [{ type: "text-delta", text: expected.join(""), pieces: expected }]);
});

Deno.test("a plain event after the learned ones with its finish reason still ends the answer as complete", async () => {
  const parts = await partsOf([
    plainEvent('"a"'),
    plainEvent('"b"'),
    plainEvent('"c"').replace('"finish_reason":null', '"finish_reason":"stop"'),
  ]);
  assert.deepEqual(parts, [{ type: "text-delta", text: "abc", pieces: ["a", "b", "c"] }]);
});

Deno.test("a malformed event after the learned ones fails the answer as before", async () => {
  await assert.rejects(
    partsOf([plainEvent('"a"'), plainEvent('"b"'), plainEvent('"bad \\x escape"')]),
    /malformed server-sent event JSON/,
  );
});
