// Faults of the language model, through POST /api/workspace/:slug/stream-chat of an in-process app: each one ends
// the answer with an abort frame carrying a sentence, stores nothing half-made, and the next chat works.
import assert from "node:assert/strict";
import { configuredTestApp, readFrames, type TestApp } from "../../server/testing/test_app.ts";
import { echoReply, type ScriptedReply, startFakeOpenAi } from "../../server/testing/fake_openai.ts";
import { closedPort } from "./helpers.ts";

/**
 * A short time-out for the cases about it, so "slow past the time-out" takes two seconds; the other cases keep a
 * long one, so the SDK's own retry of a refused or failed call never races it on a busy machine.
 */
const SHORT = { LLM_TIMEOUT_SECONDS: "2" };
const LONG = { LLM_TIMEOUT_SECONDS: "60" };

async function chat(app: TestApp, message: string) {
  const response = await app.request("/api/workspace/faults/stream-chat", {
    method: "POST",
    body: JSON.stringify({ message }),
  });
  assert.equal(response.status, 200);
  assert.match(response.headers.get("content-type") ?? "", /^text\/event-stream/);
  return await readFrames(response);
}

async function history(app: TestApp) {
  const answer = await app.json<{ history: { role: string; content: string; chatId: number }[] }>(
    "/api/workspace/faults/chats",
  );
  assert.equal(answer.status, 200);
  return answer.body.history;
}

/** The server goes on: a ping, then a whole answer from a model that works, saved after what came before. */
async function stillAnswers(app: TestApp, llm: ReturnType<typeof startFakeOpenAi>, chatsBefore: number) {
  assert.equal((await app.request("/api/ping")).status, 200);
  llm.setReply(echoReply);
  const frames = await chat(app, "are you back");
  assert.deepEqual(frames.at(-1)?.type, "finalizeResponseStream", JSON.stringify(frames));
  const after = await history(app);
  assert.equal(after.length, chatsBefore + 2);
  assert.equal(after.at(-1)?.content, "You asked: are you back. I saw 0 context blocks.");
}

/** Runs one fault: `script` is the model's answer; `expect` checks the frames and what was stored. */
async function fault(
  script: ScriptedReply,
  expected: RegExp,
  partial: string | null,
  env: Record<string, string> = LONG,
) {
  await using llm = startFakeOpenAi();
  await using app = await configuredTestApp({ llm: llm.baseURL, env });
  await app.json("/api/workspace/new", { json: { name: "Faults" } });
  llm.setReply(() => script);
  const frames = await chat(app, "tell me");
  const types = frames.map((frame) => frame.type);
  const stored = await history(app);
  if (partial === null) {
    assert.deepEqual(types, ["abort"], JSON.stringify(frames));
    assert.match(String(frames[0].error), expected);
    assert.equal(stored.length, 0, "nothing is stored for an answer that never started");
  } else {
    // After the first words: what came, the abort with the reason, then finalize naming the saved chat.
    assert.deepEqual(types.slice(-2), ["abort", "finalizeResponseStream"], JSON.stringify(frames));
    assert.match(String(frames.at(-2)?.error), expected);
    const text = frames.filter((frame) => frame.type === "textResponseChunk").map((frame) =>
      frame.textResponse
    )
      .join("");
    assert.equal(text, partial);
    assert.equal(stored.length, 2, "the question and the words that came are saved together");
    assert.equal(stored[1].content, partial);
    assert.equal(frames.at(-1)?.chatId, stored[1].chatId);
  }
  await stillAnswers(app, llm, stored.length);
}

Deno.test("LLM down (connection refused on a closed loopback port): abort frame naming the address, nothing stored", async () => {
  const port = closedPort();
  await using llm = startFakeOpenAi();
  await using app = await configuredTestApp({ llm: `http://127.0.0.1:${port}/v1`, env: LONG });
  await app.json("/api/workspace/new", { json: { name: "Faults" } });
  const frames = await chat(app, "anyone there");
  assert.deepEqual(frames.map((frame) => frame.type), ["abort"]);
  assert.match(
    String(frames[0].error),
    new RegExp(`^Could not connect to http://127\\.0\\.0\\.1:${port}/v1`),
  );
  assert.equal((await history(app)).length, 0);
  const saved = await app.json("/api/system/update-env", {
    json: { GenericOpenAiBasePath: llm.baseURL },
  });
  assert.equal(saved.status, 200);
  await stillAnswers(app, llm, 0);
});

Deno.test("LLM slow past the time-out before answering: abort frame saying it did not answer within the time-out", async () => {
  await fault(
    { waitMs: 60_000, chunks: ["never"] },
    /^The language model did not answer within 2 seconds; try again, or ask the administrator to check it\.$/,
    null,
    SHORT,
  );
});

Deno.test("LLM goes quiet mid-answer past the time-out: abort then finalize, the words so far saved", async () => {
  await fault(
    { chunks: ["Half ", "way ", "never"], hangAfter: 2 },
    /^The language model stopped answering: nothing came for 2 seconds, so the answer was stopped\.$/,
    "Half way ",
    SHORT,
  );
});

Deno.test("LLM answers garbage (not an event stream) with status 200: abort frame naming what came", async () => {
  await fault(
    { raw: { contentType: "application/json", body: "this is {{ not a completion" } },
    /answered with application\/json instead of a stream of tokens: is it an OpenAI-compatible API, and is the base path right\?$/,
    null,
  );
});

Deno.test("LLM answers Content-Type text/html (a proxy's page) with status 200: abort frame naming the type", async () => {
  await fault(
    { raw: { contentType: "text/html; charset=utf-8", body: "<html><body>Welcome to nginx!</body></html>" } },
    /^http:\/\/127\.0\.0\.1:\d+\/v1 answered with text\/html instead of a stream of tokens/,
    null,
  );
});

Deno.test("LLM answers HTTP 500 with a JSON error: abort frame with the provider's own message", async () => {
  await fault(
    { status: 500, message: "The model is overloaded" },
    /^Generic OpenAI answered with an error: 500 The model is overloaded\.$/,
    null,
  );
});

Deno.test("LLM stream stops mid-way (no finish reason, no [DONE]): abort then finalize, the words so far saved", async () => {
  await fault(
    { chunks: ["Cut ", "short ", "never"], closeAfter: 2 },
    /^The answer from http:\/\/127\.0\.0\.1:\d+\/v1 ended before it was complete\.$/,
    "Cut short ",
  );
});
