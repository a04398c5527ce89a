// The OpenAI-compatible stream read in batches (sse_reader.ts): the events of one read of the body become one
// text part with their deltas as its pieces, in order, and the answer's frames are still one per delta.
import assert from "node:assert/strict";
import { openAiCompatibleChatModel } from "./openai_compatible.ts";
import type { ChatPart } from "./types.ts";

const event = (delta: Record<string, unknown>, finish: string | null = null, extra: object = {}) =>
  `data: ${
    JSON.stringify({
      id: "c",
      object: "chat.completion.chunk",
      created: 0,
      model: "m",
      choices: [{ index: 0, delta, finish_reason: finish }],
      ...extra,
    })
  }\n\n`;

/**
 * A model whose answer's body arrives as `reads`, each read of the body given whole at once: the next read is
 * given only once the one before was taken (the body is pulled).
 */
function modelAnswering(reads: string[]) {
  const encoder = new TextEncoder();
  const fetchBody = () => {
    let at = 0;
    return new ReadableStream<Uint8Array>({
      pull(controller) {
        if (at < reads.length) controller.enqueue(encoder.encode(reads[at++]));
        else controller.close();
      },
    });
  };
  return openAiCompatibleChatModel({
    providerId: "generic-openai",
    baseURL: "http://127.0.0.1:9/v1",
    modelId: "m",
    contextWindow: 4096,
    maxTokens: 256,
    fetch: () =>
      Promise.resolve(
        new Response(fetchBody(), { status: 200, headers: { "Content-Type": "text/event-stream" } }),
      ),
  });
}

async function partsOf(reads: string[]): Promise<{ parts: ChatPart[]; error: unknown }> {
  const parts: ChatPart[] = [];
  try {
    for await (const part of modelAnswering(reads).stream({ messages: [] }, new AbortController().signal)) {
      parts.push(part);
    }
  } catch (error) {
    return { parts, error };
  }
  return { parts, error: null };
}

Deno.test("the deltas of one read are one part, each kept as a piece in order; a lone delta is a plain part", async () => {
  const { parts, error } = await partsOf([
    event({ role: "assistant", content: "" }) + event({ reasoning_content: "Hm, " }) +
    event({ reasoning_content: "yes." }) + event({ content: "One " }),
    event({ content: "two " }),
    event({ content: "three" }) + event({}, "stop") +
    event({}, null, { choices: [], usage: { prompt_tokens: 3, completion_tokens: 4 } }) + "data: [DONE]\n\n",
  ]);
  assert.equal(error, null);
  assert.deepEqual(parts, [
    {
      type: "text-delta",
      text: "<think>Hm, yes.</think>One ",
      pieces: ["<think>Hm, ", "yes.", "</think>", "One "],
    },
    { type: "text-delta", text: "two " },
    { type: "text-delta", text: "three" },
    { type: "usage", inputTokens: 3, outputTokens: 4 },
  ]);
});

Deno.test("in a read, the deltas before the counts come before them, and those after a failure are not given", async () => {
  const counted = await partsOf([
    event({ content: "a" }) + event({ content: "b" }) +
    event({}, "stop", { usage: { prompt_tokens: 1, completion_tokens: 2 } }) + event({ content: "c" }) +
    event({ content: "d" }),
  ]);
  assert.equal(counted.error, null);
  assert.deepEqual(counted.parts, [
    { type: "text-delta", text: "ab", pieces: ["a", "b"] },
    { type: "usage", inputTokens: 1, outputTokens: 2 },
    { type: "text-delta", text: "cd", pieces: ["c", "d"] },
  ]);

  const broken = await partsOf([
    event({ content: "a" }) + event({ content: "b" }) + "data: {not json\n\n" +
    event({ content: "c" }, "stop"),
  ]);
  assert.deepEqual(broken.parts, [{ type: "text-delta", text: "ab", pieces: ["a", "b"] }]);
  assert.match(String(broken.error), /malformed server-sent event JSON/);

  const failed = await partsOf([
    event({ content: "a" }) + `data: ${JSON.stringify({ error: { message: "Overloaded" } })}\n\n` +
    event({ content: "b" }, "stop"),
  ]);
  assert.deepEqual(failed.parts, [{ type: "text-delta", text: "a" }]);
  assert.match(String(failed.error), /Overloaded/);
});

Deno.test("events after [DONE] in the same read are not read, and a stream without a finish reason is cut off", async () => {
  const done = await partsOf([
    event({ content: "a" }, "stop") + "data: [DONE]\n\n" + event({ content: "z" }),
  ]);
  assert.equal(done.error, null);
  assert.deepEqual(done.parts, [{ type: "text-delta", text: "a" }]);
  const cut = await partsOf([event({ content: "a" }) + event({ content: "b" })]);
  assert.deepEqual(cut.parts, [{ type: "text-delta", text: "ab", pieces: ["a", "b"] }]);
  assert.match(String(cut.error), /ended before it was complete/);
});

Deno.test("a chat whose model sends its deltas at once still streams a chunk frame per delta; the chat keeps them joined", async () => {
  const { startFakeOpenAi } = await import("../../testing/fake_openai.ts");
  const { createTestApp, genericOpenAiSettings, readFrames } = await import("../../testing/test_app.ts");
  await using llm = startFakeOpenAi();
  await using app = await createTestApp();
  await app.json("/api/system/update-env", { json: genericOpenAiSettings(llm.baseURL) });
  await app.json("/api/workspace/new", { json: { name: "Batch" } });
  const deltas = ["One ", "two, ", 'a "quote" ', "and\nthree."];
  // The whole answer in one body (one write): the server reads its events together.
  llm.setReply(() => ({
    raw: {
      contentType: "text/event-stream",
      body: event({ role: "assistant", content: "" }) + deltas.map((content) => event({ content })).join("") +
        event({}, "stop") + "data: [DONE]\n\n",
    },
  }));
  const response = await app.request("/api/workspace/batch/stream-chat", {
    method: "POST",
    body: JSON.stringify({ message: "count" }),
  });
  const frames = await readFrames(response);
  const chunks = frames.filter((frame) => frame.type === "textResponseChunk" && frame.close === false);
  assert.deepEqual(chunks.map((frame) => frame.textResponse), deltas);
  assert.equal(frames.at(-1)?.type, "finalizeResponseStream");
  const history = await app.json<{ history: { role: string; content: string }[] }>(
    "/api/workspace/batch/chats",
  );
  assert.equal(history.body.history.at(-1)?.content, deltas.join(""));
});
