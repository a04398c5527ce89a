import assert from "node:assert/strict";
import { ProviderError } from "../../errors.ts";
import { embedLexical } from "./native.ts";
import { type EmbedderDeps, embedderFromSettings } from "./registry.ts";
import { prefixesFor } from "./prefixes.ts";
import { startFakeEmbedders } from "./testing/fake_embedders.ts";
import type { SettingsView } from "./types.ts";

const view = (values: Record<string, string>): SettingsView => ({ value: (key) => values[key] });
const quick: EmbedderDeps["retry"] = { baseDelayMs: 1, maxDelayMs: 5 };
const cosine = (a: number[], b: number[]) => a.reduce((sum, value, index) => sum + value * b[index], 0);

Deno.test("every hosted and local engine embeds through its own protocol, in order, with its key", async (t) => {
  await using fake = startFakeEmbedders({ dimensions: 32 });
  const deps: EmbedderDeps = {
    retry: quick,
    endpoints: { openai: `${fake.url}/v1`, cohere: fake.url, voyageai: `${fake.url}/v1` },
  };
  const texts = ["The capital of Freedonia is Fredville.", "Sourdough needs a starter.", "Blue river"];
  const cases: {
    engine: string;
    settings: Record<string, string>;
    path: string;
    auth?: string;
    apiKey?: string;
    maxChunk: number;
    batch: number;
    check?: (body: Record<string, unknown>, query: Record<string, string>) => void;
  }[] = [
    {
      engine: "openai",
      settings: { OpenAiKey: "sk-test", EmbeddingModelPref: "text-embedding-3-small" },
      path: "/v1/embeddings",
      auth: "Bearer sk-test",
      maxChunk: 8191,
      batch: 500,
    },
    {
      engine: "azure",
      settings: {
        AzureOpenAiEndpoint: fake.url,
        AzureOpenAiKey: "azure-key",
        AzureOpenAiEmbeddingModelPref: "my-embeddings",
      },
      path: "/openai/deployments/my-embeddings/embeddings",
      apiKey: "azure-key",
      maxChunk: 2048,
      batch: 16,
      check: (_body, query) => assert.ok(query["api-version"], "Azure needs an api-version"),
    },
    {
      engine: "localai",
      settings: { EmbeddingBasePath: `${fake.url}/v1`, EmbeddingModelPref: "bert", LocalAiApiKey: "local" },
      path: "/v1/embeddings",
      auth: "Bearer local",
      maxChunk: 1000,
      batch: 50,
    },
    {
      engine: "ollama",
      settings: {
        EmbeddingBasePath: fake.url,
        EmbeddingModelPref: "all-minilm",
        EmbeddingModelMaxChunkLength: "512",
      },
      path: "/api/embed",
      maxChunk: 512,
      batch: 32,
    },
    {
      engine: "lmstudio",
      settings: { EmbeddingBasePath: `${fake.url}/v1`, EmbeddingModelPref: "text-embedding-nomic" },
      path: "/v1/embeddings",
      maxChunk: 1000,
      batch: 32,
    },
    {
      engine: "cohere",
      settings: { CohereApiKey: "co-key", EmbeddingModelPref: "embed-english-v3.0" },
      path: "/v2/embed",
      auth: "Bearer co-key",
      maxChunk: 1945,
      batch: 96,
      check: (body) => {
        assert.equal(body.input_type, "search_document");
        assert.deepEqual(body.embedding_types, ["float"]);
      },
    },
    {
      engine: "voyageai",
      settings: { VoyageAiApiKey: "pa-key", EmbeddingModelPref: "voyage-3.5-lite" },
      path: "/v1/embeddings",
      auth: "Bearer pa-key",
      maxChunk: 32000,
      batch: 128,
      check: (body) => assert.equal(body.input_type, "document"),
    },
    {
      engine: "litellm",
      settings: { LiteLLMBasePath: `${fake.url}/v1`, EmbeddingModelPref: "proxy-embed", LiteLLMAPIKey: "ll" },
      path: "/v1/embeddings",
      auth: "Bearer ll",
      maxChunk: 1000,
      batch: 500,
    },
    {
      engine: "generic-openai",
      settings: {
        EmbeddingBasePath: `${fake.url}/v1`,
        EmbeddingModelPref: "any",
        GenericOpenAiEmbeddingApiKey: "g",
        GenericOpenAiEmbeddingMaxConcurrentChunks: "7",
        EmbeddingModelMaxChunkLength: "2000",
      },
      path: "/v1/embeddings",
      auth: "Bearer g",
      maxChunk: 2000,
      batch: 7,
    },
  ];
  for (const entry of cases) {
    await t.step(entry.engine, async () => {
      fake.requests.length = 0;
      const embedder = embedderFromSettings(view({ EmbeddingEngine: entry.engine, ...entry.settings }), deps);
      assert.equal(embedder.maxChunkLength, entry.maxChunk);
      assert.equal(embedder.maxInputsPerCall, entry.batch);
      assert.ok(embedder.fingerprint.startsWith(`${entry.engine}:`), embedder.fingerprint);
      const vectors = await embedder.embed(texts);
      // The fake answers in reverse order; the embedder must put each vector back with its text.
      assert.deepEqual(vectors, texts.map((text) => embedLexical(text).slice(0, 32)));
      const request = fake.requests[0];
      assert.equal(request.path, entry.path);
      if (entry.auth) assert.equal(request.authorization, entry.auth);
      if (entry.apiKey) assert.equal(request.apiKey, entry.apiKey);
      entry.check?.(request.body, request.query);
      const query = await embedder.embedQuery("capital of Freedonia");
      assert.equal(query.length, 32);
    });
  }
});

Deno.test("queries are marked as queries: Cohere and Voyage input types, nomic and e5 prefixes", async () => {
  await using fake = startFakeEmbedders({ dimensions: 8 });
  const deps: EmbedderDeps = { endpoints: { cohere: fake.url, voyageai: `${fake.url}/v1` } };
  await embedderFromSettings(view({ EmbeddingEngine: "cohere", CohereApiKey: "k" }), deps).embedQuery("q");
  assert.equal(fake.requests.at(-1)?.body.input_type, "search_query");
  assert.equal(fake.requests.at(-1)?.body.model, "embed-english-v3.0", "the form's default model");
  await embedderFromSettings(view({ EmbeddingEngine: "voyageai", VoyageAiApiKey: "k" }), deps).embedQuery(
    "q",
  );
  assert.equal(fake.requests.at(-1)?.body.input_type, "query");

  const nomic = embedderFromSettings(
    view({
      EmbeddingEngine: "ollama",
      EmbeddingBasePath: fake.url,
      EmbeddingModelPref: "nomic-embed-text:latest",
    }),
    deps,
  );
  await nomic.embed(["chunk"]);
  assert.deepEqual(fake.requests.at(-1)?.body.input, ["search_document: chunk"]);
  await nomic.embedQuery("question");
  assert.deepEqual(fake.requests.at(-1)?.body.input, ["search_query: question"]);
  assert.deepEqual(prefixesFor("intfloat/multilingual-e5-small"), { passage: "passage: ", query: "query: " });
  assert.equal(prefixesFor("mxbai-embed-large").passage, "");
  assert.deepEqual(prefixesFor("text-embedding-3-small"), { passage: "", query: "" });
});

Deno.test("a missing setting names itself; an unknown engine is refused", () => {
  assert.throws(
    () => embedderFromSettings(view({ EmbeddingEngine: "openai" })),
    (error: Error) => error instanceof ProviderError && /OpenAiKey is not set/.test(error.message),
  );
  assert.throws(
    () =>
      embedderFromSettings(
        view({ EmbeddingEngine: "azure", AzureOpenAiEndpoint: "https://x", AzureOpenAiKey: "k" }),
      ),
    /AzureOpenAiEmbeddingModelPref is not set/,
  );
  assert.throws(() => embedderFromSettings(view({ EmbeddingEngine: "gemini" })), /not available/);
  const native = embedderFromSettings(view({}));
  assert.equal(
    native.fingerprint,
    "native:lectern-lexical-v1:384",
    "the built-in default keeps its namespaces",
  );
  const unknownModel = embedderFromSettings(view({ EmbeddingEngine: "native", EmbeddingModelPref: "gpt-5" }));
  assert.equal(unknownModel.modelId, "lectern-lexical-v1");
});

Deno.test("retries: 503 twice then success; 429 honoured; a 400 is final at once", async () => {
  await using fake = startFakeEmbedders({ dimensions: 8 });
  const embedder = embedderFromSettings(
    view({ EmbeddingEngine: "generic-openai", EmbeddingBasePath: `${fake.url}/v1`, EmbeddingModelPref: "m" }),
    { retry: quick },
  );
  fake.failNext(503, 503);
  const [vector] = await embedder.embed(["hello"]);
  assert.equal(vector.length, 8);
  assert.equal(fake.requests.length, 3, "two failures and the success");

  fake.requests.length = 0;
  fake.failNext(429);
  await embedder.embedQuery("hello");
  assert.equal(fake.requests.length, 2);

  fake.requests.length = 0;
  fake.rejectModel("m");
  await assert.rejects(
    () => embedder.embed(["hello"]),
    (error: Error) =>
      error instanceof ProviderError && error.status === 400 && /does not exist/.test(error.message),
  );
  assert.equal(fake.requests.length, 1, "a client error is not retried");

  fake.requests.length = 0;
  const persistent = embedderFromSettings(
    view({ EmbeddingEngine: "generic-openai", EmbeddingBasePath: `${fake.url}/v1`, EmbeddingModelPref: "x" }),
    { retry: { ...quick, attempts: 3 } },
  );
  fake.failNext(500, 502, 503, 504);
  await assert.rejects(() => persistent.embed(["a"]), /answered 503: Scripted failure 503/);
  assert.equal(fake.requests.length, 3, "gives up after the policy's attempts");
});

Deno.test("a refused connection is retried, then reported with the address", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  const embedder = embedderFromSettings(
    view({
      EmbeddingEngine: "lmstudio",
      EmbeddingBasePath: `http://127.0.0.1:${port}/v1`,
      EmbeddingModelPref: "m",
    }),
    { retry: { ...quick, attempts: 2 } },
  );
  await assert.rejects(
    () => embedder.embed(["a"]),
    new RegExp(`Could not connect to the lmstudio embedder at http://127.0.0.1:${port}`),
  );
});

Deno.test("the fake's lexical vectors rank related text first through a real protocol round trip", async () => {
  await using fake = startFakeEmbedders();
  const embedder = embedderFromSettings(
    view({ EmbeddingEngine: "ollama", EmbeddingBasePath: fake.url, EmbeddingModelPref: "all-minilm" }),
  );
  const [related, unrelated] = await embedder.embed(["capital of Freedonia", "sourdough bread"]);
  const query = await embedder.embedQuery("What is the capital of Freedonia?");
  assert.ok(cosine(query, related) > cosine(query, unrelated));
});
