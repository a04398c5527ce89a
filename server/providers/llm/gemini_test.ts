import assert from "node:assert/strict";
import { ProviderError } from "../../errors.ts";
import { geminiChatModel, geminiModels, type GeminiOptions } from "./gemini.ts";
import { startFakeGemini } from "./testing/fake_gemini.ts";
import type { ChatRequest } from "./types.ts";
import { collectParts } from "./testing/parts.ts";

const KEY = "AIza-test-key";
const model = (baseURL: string, extra: Partial<GeminiOptions> = {}) =>
  geminiChatModel({
    apiKey: KEY,
    modelId: "gemini-2.0-flash",
    contextWindow: 1_000_000,
    maxTokens: 512,
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
  temperature: 0.3,
};

Deno.test("Gemini: streams the answer with usage; system, roles, images, safety and the key reach the API", async () => {
  await using fake = startFakeGemini({ apiKey: KEY });
  const { text, usage, all } = await collectParts(
    model(fake.baseURL, { safetySetting: "BLOCK_ONLY_HIGH" }).stream(hello, new AbortController().signal),
  );
  assert.equal(text, "Hello from Gemini.");
  assert.deepEqual(usage, { type: "usage", inputTokens: 11, outputTokens: 3 });
  assert.equal(all.at(-1)?.type, "usage");
  const [request] = fake.requests;
  assert.equal(request.model, "gemini-2.0-flash");
  assert.equal(request.apiKey, KEY);
  assert.equal(request.query, "?alt=sse", "the key is sent as a header, never in the address");
  assert.deepEqual(request.body.systemInstruction, { parts: [{ text: "You are terse." }] });
  assert.deepEqual(request.body.contents, [
    { role: "user", parts: [{ text: "Hi" }] },
    { role: "model", parts: [{ text: "Hello." }] },
    {
      role: "user",
      parts: [{ inline_data: { mime_type: "image/png", data: "iVBORw0KGgo=" } }, { text: "What is this?" }],
    },
  ]);
  const safety = request.body.safetySettings as { category: string; threshold: string }[];
  assert.deepEqual(safety.map((setting) => setting.category).sort(), [
    "HARM_CATEGORY_DANGEROUS_CONTENT",
    "HARM_CATEGORY_HARASSMENT",
    "HARM_CATEGORY_HATE_SPEECH",
    "HARM_CATEGORY_SEXUALLY_EXPLICIT",
  ]);
  assert.ok(safety.every((setting) => setting.threshold === "BLOCK_ONLY_HIGH"));
  assert.deepEqual(request.body.generationConfig, { maxOutputTokens: 512, temperature: 0.3 });
});

Deno.test("Gemini: the default safety setting blocks some; a model without system instructions gets a first turn", async () => {
  await using fake = startFakeGemini();
  await collectParts(
    model(fake.baseURL, { modelId: "models/gemma-3-4b-it" }).stream(hello, new AbortController().signal),
  );
  const [request] = fake.requests;
  assert.equal(request.model, "gemma-3-4b-it", "a leading models/ is dropped");
  assert.equal(request.body.systemInstruction, undefined);
  const contents = request.body.contents as { role: string; parts: { text?: string }[] }[];
  assert.deepEqual(contents.slice(0, 2), [
    { role: "user", parts: [{ text: "You are terse." }] },
    { role: "model", parts: [{ text: "Okay." }] },
  ]);
  const safety = request.body.safetySettings as { threshold: string }[];
  assert.ok(safety.every((setting) => setting.threshold === "BLOCK_MEDIUM_AND_ABOVE"));
});

Deno.test("Gemini: a thinking model's thoughts come first, in <think>, and count as output", async () => {
  await using fake = startFakeGemini();
  fake.setReply(() => ({
    thoughts: ["Let me ", "think."],
    chunks: ["Done."],
    usage: { promptTokenCount: 5, candidatesTokenCount: 1, thoughtsTokenCount: 4 },
  }));
  const { text, usage } = await collectParts(
    model(fake.baseURL, { modelId: "gemini-2.5-flash" }).stream(hello, new AbortController().signal),
  );
  assert.equal(text, "<think>Let me think.</think>Done.");
  assert.deepEqual(usage, { type: "usage", inputTokens: 5, outputTokens: 5 });
  const config = fake.requests[0].body.generationConfig as Record<string, unknown>;
  assert.deepEqual(config.thinkingConfig, { includeThoughts: true });
});

Deno.test("Gemini: the API's own error text, blocks, garbage and a cut stream become ProviderErrors", async () => {
  await using fake = startFakeGemini({ apiKey: KEY });
  const signal = new AbortController().signal;
  await assert.rejects(
    collectParts(
      geminiChatModel({
        apiKey: "wrong",
        modelId: "gemini-2.0-flash",
        contextWindow: 1,
        maxTokens: 1,
        baseURL: fake.baseURL,
      }).stream(hello, signal),
    ),
    (error: Error) => {
      assert.ok(error instanceof ProviderError);
      assert.equal(error.message, "Gemini answered 400: API key not valid. Please pass a valid API key.");
      assert.equal(error.status, 400);
      return true;
    },
  );
  fake.setReply(() => ({ status: 429, message: "Resource has been exhausted (e.g. check quota)." }));
  await assert.rejects(
    collectParts(model(fake.baseURL).stream(hello, signal)),
    {
      name: "ProviderError",
      message: "Gemini answered 429: Resource has been exhausted (e.g. check quota).",
    },
  );
  fake.setReply(() => ({ blockReason: "SAFETY" }));
  await assert.rejects(
    collectParts(model(fake.baseURL).stream(hello, signal)),
    /Gemini refused the prompt \(SAFETY\)/,
  );
  fake.setReply(() => ({ chunks: ["Part of it"], finishReason: "SAFETY" }));
  await assert.rejects(
    collectParts(model(fake.baseURL).stream(hello, signal)),
    /Gemini stopped the answer \(SAFETY\)/,
  );
  fake.setReply(() => ({ raw: { contentType: "text/html", body: "<html>proxy</html>" } }));
  await assert.rejects(
    collectParts(model(fake.baseURL).stream(hello, signal)),
    /^ProviderError: Gemini answered with text\/html instead of a stream of tokens/,
  );
  fake.setReply(() => ({ raw: { contentType: "text/event-stream", body: "data: {not json\n\n" } }));
  await assert.rejects(
    collectParts(model(fake.baseURL).stream(hello, signal)),
    /Gemini sent an event that is not JSON/,
  );
  fake.setReply(() => ({ raw: { status: 502, contentType: "text/html", body: "Bad gateway" } }));
  await assert.rejects(collectParts(model(fake.baseURL).stream(hello, signal)), {
    message: "Gemini answered 502: Bad gateway.",
  });
  fake.setReply(() => ({ chunks: ["a", "b", "c"], closeAfter: 2 }));
  await assert.rejects(
    collectParts(model(fake.baseURL).stream(hello, signal)),
    { message: "The answer from Gemini ended before it was complete." },
  );
  await assert.rejects(
    collectParts(model("http://127.0.0.1:1").stream(hello, signal)),
    /^ProviderError: Could not connect to Gemini: /,
  );
});

Deno.test("Gemini: an abort stops the stream and closes the connection; the deadline names the provider", async () => {
  await using fake = startFakeGemini();
  fake.setReply(() => ({ chunks: ["one ", "two"], hangAfter: 1 }));
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
  await assert.rejects(
    collectParts(model(fake.baseURL, { timeoutMs: 300 }).stream(hello, new AbortController().signal)),
    { name: "ProviderError", message: "Gemini did not finish answering within 1 second." },
  );
});

Deno.test("Gemini: the lookup lists chat models, stable (v1) before experimental (v1beta only), every page", async () => {
  const generate = ["generateContent", "countTokens"];
  await using fake = startFakeGemini({
    apiKey: KEY,
    pageSize: 2,
    stableModels: [
      {
        name: "models/gemini-2.5-flash",
        displayName: "Gemini 2.5 Flash",
        inputTokenLimit: 1_048_576,
        supportedGenerationMethods: generate,
      },
      {
        name: "models/text-embedding-004",
        displayName: "Text Embedding 004",
        supportedGenerationMethods: ["embedContent"],
      },
      {
        name: "models/gemini-1.0-pro",
        displayName: "Gemini 1.0 Pro",
        description: "Deprecated: use 2.5.",
        supportedGenerationMethods: generate,
      },
    ],
    betaModels: [
      {
        name: "models/gemini-3-pro-preview",
        displayName: "Gemini 3 Pro Preview",
        inputTokenLimit: 2_000_000,
        supportedGenerationMethods: generate,
      },
      {
        name: "models/gemini-1.5-flash-001-tuning",
        displayName: "Gemini 1.5 Flash Tuning",
        supportedGenerationMethods: generate,
      },
      {
        name: "models/gemini-flash-latest",
        displayName: "Gemini Flash Latest",
        supportedGenerationMethods: generate,
      },
    ],
  });
  const models = await geminiModels({ apiKey: KEY, baseURL: fake.baseURL });
  assert.deepEqual(models, [
    {
      id: "gemini-2.5-flash",
      name: "Gemini 2.5 Flash",
      organization: "Stable",
      contextWindow: 1_048_576,
      experimental: false,
    },
    {
      id: "gemini-3-pro-preview",
      name: "Gemini 3 Pro Preview",
      organization: "Experimental",
      contextWindow: 2_000_000,
      experimental: true,
    },
    {
      id: "gemini-flash-latest",
      name: "Gemini Flash Latest",
      organization: "Experimental",
      contextWindow: undefined,
      experimental: true,
    },
  ]);
  assert.ok(
    fake.listCalls.some((call) => call.version === "v1beta" && call.pageToken === "4"),
    "the last page was read",
  );
  assert.deepEqual(await geminiModels({ baseURL: fake.baseURL }), [], "no key, no lookup");
  await assert.rejects(
    geminiModels({ apiKey: "wrong", baseURL: fake.baseURL }),
    { message: "Gemini answered 400: API key not valid. Please pass a valid API key." },
  );
});

Deno.test("Gemini: without the v1 list, the lookup judges stability by name", async () => {
  const generate = ["generateContent"];
  await using fake = startFakeGemini({
    v1Down: true,
    stableModels: [{
      name: "models/gemini-2.5-pro",
      displayName: "Gemini 2.5 Pro",
      supportedGenerationMethods: generate,
    }],
    betaModels: [{
      name: "models/gemini-2.0-flash-exp",
      displayName: "Gemini 2.0 Flash Exp",
      supportedGenerationMethods: generate,
    }],
  });
  const models = await geminiModels({ apiKey: KEY, baseURL: fake.baseURL });
  assert.deepEqual(models.map((entry) => [entry.id, entry.organization]), [
    ["gemini-2.5-pro", "Stable"],
    ["gemini-2.0-flash-exp", "Experimental"],
  ]);
});
