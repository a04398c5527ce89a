import assert from "node:assert/strict";
import { ProviderError } from "../../errors.ts";
import { cohereChatModel, cohereModels, type CohereOptions } from "./cohere.ts";
import { startFakeCohere } from "./testing/fake_cohere.ts";
import type { ChatRequest } from "./types.ts";
import { collectParts } from "./testing/parts.ts";

const KEY = "co-test-key";
const model = (baseURL: string, extra: Partial<CohereOptions> = {}) =>
  cohereChatModel({
    apiKey: KEY,
    modelId: "command-r",
    contextWindow: 128_000,
    maxTokens: 256,
    baseURL,
    ...extra,
  });

const hello: ChatRequest = {
  messages: [
    { role: "system", content: "You are terse." },
    { role: "user", content: "Hi" },
    { role: "assistant", content: "Hello." },
    {
      role: "user",
      content: "What is this?",
      images: [{ name: "a.png", mime: "image/png", dataUrl: "data:image/png;base64,iVBORw0KGgo=" }],
    },
  ],
  temperature: 0.2,
};

Deno.test("Cohere: streams content deltas with the usage of message-end; roles, images and the key reach /v2/chat", async () => {
  await using fake = startFakeCohere({ apiKey: KEY });
  const { text, usage, all } = await collectParts(
    model(fake.baseURL).stream(hello, new AbortController().signal),
  );
  assert.equal(text, "Hello from Cohere.");
  assert.deepEqual(usage, { type: "usage", inputTokens: 17, outputTokens: 4 });
  assert.equal(all.at(-1)?.type, "usage");
  const [request] = fake.requests;
  assert.equal(request.authorization, `Bearer ${KEY}`);
  assert.equal(request.body.model, "command-r");
  assert.equal(request.body.stream, true);
  assert.equal(request.body.temperature, 0.2);
  assert.equal(request.body.max_tokens, 256);
  assert.deepEqual(request.body.messages, [
    { role: "system", content: "You are terse." },
    { role: "user", content: "Hi" },
    { role: "assistant", content: "Hello." },
    {
      role: "user",
      content: [
        { type: "text", text: "What is this?" },
        { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
      ],
    },
  ]);
});

Deno.test("Cohere: a reasoning model's thinking is wrapped in <think>", async () => {
  await using fake = startFakeCohere();
  fake.setReply(() => ({
    thinking: ["Hmm, ", "short."],
    chunks: ["Yes."],
    usage: { input_tokens: 3, output_tokens: 5 },
  }));
  const { text } = await collectParts(model(fake.baseURL).stream(hello, new AbortController().signal));
  assert.equal(text, "<think>Hmm, short.</think>Yes.");
});

Deno.test("Cohere: the API's own error text, an ERROR end, garbage and a cut stream become ProviderErrors", async () => {
  await using fake = startFakeCohere({ apiKey: KEY });
  const signal = new AbortController().signal;
  await assert.rejects(
    collectParts(model(fake.baseURL, { apiKey: "wrong" }).stream(hello, signal)),
    (error: Error) => {
      assert.ok(error instanceof ProviderError);
      assert.equal(error.message, "Cohere answered 401: invalid api token.");
      assert.equal(error.status, 401);
      return true;
    },
  );
  fake.setReply(() => ({
    status: 404,
    message:
      "model 'command-x' not found, make sure the correct model ID was used and that you have access to the model.",
  }));
  await assert.rejects(collectParts(model(fake.baseURL).stream(hello, signal)), {
    message:
      "Cohere answered 404: model 'command-x' not found, make sure the correct model ID was used and that you have access to the model.",
  });
  fake.setReply(() => ({ chunks: ["Par"], endError: "internal server error, please try again" }));
  await assert.rejects(collectParts(model(fake.baseURL).stream(hello, signal)), {
    message: "Cohere could not finish the answer: internal server error, please try again.",
  });
  fake.setReply(() => ({ raw: { contentType: "application/json", body: '{"text":"not streamed"}' } }));
  await assert.rejects(
    collectParts(model(fake.baseURL).stream(hello, signal)),
    /Cohere answered with application\/json instead of a stream of tokens/,
  );
  fake.setReply(() => ({ chunks: ["a", "b"], closeAfter: 3 }));
  await assert.rejects(collectParts(model(fake.baseURL).stream(hello, signal)), {
    message: "The answer from Cohere ended before it was complete.",
  });
});

Deno.test("Cohere: an abort stops the stream and closes the connection", async () => {
  await using fake = startFakeCohere();
  fake.setReply(() => ({ chunks: ["one ", "two"], hangAfter: 3 }));
  const controller = new AbortController();
  const seen: string[] = [];
  await assert.rejects(
    (async () => {
      for await (const part of model(fake.baseURL).stream(hello, controller.signal)) {
        if (part.type === "text-delta") seen.push(part.text);
        controller.abort();
      }
    })(),
    (error: Error) => error.name === "AbortError",
  );
  assert.deepEqual(seen, ["one "]);
  await fake.clientGone;
});

Deno.test("Cohere: the lookup lists the chat models with their context lengths", async () => {
  await using fake = startFakeCohere({
    apiKey: KEY,
    models: [
      { name: "command-r", endpoints: ["generate", "chat", "summarize"], context_length: 128_000 },
      { name: "embed-english-v3.0", endpoints: ["embed"], context_length: 512 },
      { name: "command-r-plus", endpoints: ["chat"] },
    ],
  });
  assert.deepEqual(await cohereModels({ apiKey: KEY, baseURL: fake.baseURL }), [
    { id: "command-r", name: "command-r", contextWindow: 128_000 },
    { id: "command-r-plus", name: "command-r-plus" },
  ]);
  assert.deepEqual(fake.modelQueries, ["?page_size=1000&endpoint=chat"]);
  assert.deepEqual(await cohereModels({ baseURL: fake.baseURL }), [], "no key, no lookup");
  await assert.rejects(cohereModels({ apiKey: "wrong", baseURL: fake.baseURL }), {
    message: "Cohere answered 401: invalid api token.",
  });
});
