import assert from "node:assert/strict";
import { createTestApp } from "../../testing/test_app.ts";
import { startFakeBedrock } from "./testing/fake_bedrock.ts";
import { startFakeCohere } from "./testing/fake_cohere.ts";
import { startFakeGemini } from "./testing/fake_gemini.ts";

/**
 * `POST /api/system/custom-models` for the providers with a protocol of their own (Gemini, Cohere, Bedrock),
 * each against its loopback fake: the reference's answer shape, the key given used once and never stored,
 * `apiKey: true` meaning the stored key, and a failure answered `{models: [], error}` naming the provider.
 */

type Lookup = { models: Record<string, unknown>[]; error: string | null };

Deno.test("custom-models lists Gemini's models, Stable first, with the key given (never stored) or the stored one", async () => {
  const generate = ["generateContent"];
  await using fake = startFakeGemini({
    apiKey: "AIza-lookup",
    stableModels: [{
      name: "models/gemini-2.5-flash",
      displayName: "Gemini 2.5 Flash",
      inputTokenLimit: 1_048_576,
      supportedGenerationMethods: generate,
    }],
    betaModels: [
      {
        name: "models/gemini-3-pro-preview",
        displayName: "Gemini 3 Pro Preview",
        supportedGenerationMethods: generate,
      },
      {
        name: "models/embedding-001",
        displayName: "Embedding 001",
        supportedGenerationMethods: ["embedContent"],
      },
    ],
  });
  await using app = await createTestApp({ providerDeps: { endpoints: { gemini: fake.baseURL } } });
  const given = await app.json<Lookup>("/api/system/custom-models", {
    json: { provider: "gemini", apiKey: "AIza-lookup" },
  });
  assert.equal(given.status, 200, JSON.stringify(given.body));
  assert.equal(given.body.error, null);
  assert.deepEqual(given.body.models.map((model) => [model.id, model.name, model.organization]), [
    ["gemini-2.5-flash", "Gemini 2.5 Flash", "Stable"],
    ["gemini-3-pro-preview", "Gemini 3 Pro Preview", "Experimental"],
  ]);
  assert.equal(given.body.models[0].contextWindow, 1_048_576);
  assert.equal(given.body.models[1].experimental, true);
  assert.equal(
    app.deps.settings.value("GeminiLLMApiKey"),
    undefined,
    "a key given to a lookup is never stored",
  );

  const wrong = await app.json<Lookup>("/api/system/custom-models", {
    json: { provider: "gemini", apiKey: "AIza-wrong" },
  });
  assert.equal(wrong.status, 502);
  assert.deepEqual(wrong.body.models, []);
  assert.equal(wrong.body.error, "Gemini answered 400: API key not valid. Please pass a valid API key.");

  // No key at all: nothing is asked. The stored key is used for `true` and for the mask.
  const none = await app.json<Lookup>("/api/system/custom-models", { json: { provider: "gemini" } });
  assert.deepEqual(none.body, { models: [], error: null });
  const calls = fake.listCalls.length;
  await app.json("/api/system/update-env", { json: { GeminiLLMApiKey: "AIza-lookup" } });
  for (const apiKey of [true, "*".repeat(20)]) {
    const stored = await app.json<Lookup>("/api/system/custom-models", {
      json: { provider: "gemini", apiKey },
    });
    assert.equal(stored.body.models.length, 2, JSON.stringify(stored.body));
  }
  assert.ok(fake.listCalls.length > calls);
});

Deno.test("custom-models lists Cohere's chat models; a refused key is a sentence naming Cohere", async () => {
  await using fake = startFakeCohere({
    apiKey: "co-lookup",
    models: [
      { name: "command-r", endpoints: ["chat"], context_length: 128_000 },
      { name: "embed-english-v3.0", endpoints: ["embed"] },
      { name: "command-a-03-2025", endpoints: ["chat", "generate"] },
    ],
  });
  await using app = await createTestApp({ providerDeps: { endpoints: { cohere: fake.baseURL } } });
  const given = await app.json<Lookup>("/api/system/custom-models", {
    json: { provider: "cohere", apiKey: "co-lookup" },
  });
  assert.equal(given.status, 200, JSON.stringify(given.body));
  assert.deepEqual(given.body.models.map((model) => [model.id, model.name]), [
    ["command-r", "command-r"],
    ["command-a-03-2025", "command-a-03-2025"],
  ]);
  assert.deepEqual(fake.modelQueries, ["?page_size=1000&endpoint=chat"]);
  assert.equal(app.deps.settings.value("CohereApiKey"), undefined, "a key given to a lookup is never stored");

  const wrong = await app.json<Lookup>("/api/system/custom-models", {
    json: { provider: "cohere", apiKey: "co-wrong" },
  });
  assert.equal(wrong.status, 502);
  assert.deepEqual(wrong.body, { models: [], error: "Cohere answered 401: invalid api token." });
});

Deno.test("custom-models lists Bedrock's foundation models by maker, signed with the keys, token and region given or stored", async () => {
  const summary = (modelId: string, providerName: string, extra: Record<string, unknown> = {}) => ({
    modelId,
    modelName: modelId.split(".")[1],
    providerName,
    outputModalities: ["TEXT"],
    responseStreamingSupported: true,
    inferenceTypesSupported: ["ON_DEMAND"],
    modelLifecycle: { status: "ACTIVE" },
    ...extra,
  });
  await using fake = startFakeBedrock({
    credentials: { AKIDLOOKUP: { secretAccessKey: "lookup-secret", sessionToken: "lookup-session" } },
    region: "eu-central-1",
    foundationModels: [
      summary("meta.llama3-8b-instruct-v1:0", "Meta"),
      summary("anthropic.claude-3-haiku-20240307-v1:0", "Anthropic"),
      summary("amazon.titan-embed-text-v2:0", "Amazon", { outputModalities: ["EMBEDDING"] }),
    ],
  });
  await using app = await createTestApp({ providerDeps: { endpoints: { bedrock: fake.endpoint } } });
  const options = {
    connectionMethod: "sessionToken",
    accessKeyId: "AKIDLOOKUP",
    sessionToken: "lookup-session",
    region: "eu-central-1",
  };
  const given = await app.json<Lookup>("/api/system/custom-models", {
    json: { provider: "bedrock", apiKey: "lookup-secret", options },
  });
  assert.equal(given.status, 200, JSON.stringify({ body: given.body, refusals: fake.refusals }));
  assert.deepEqual(given.body.models, [
    {
      id: "anthropic.claude-3-haiku-20240307-v1:0",
      name: "claude-3-haiku-20240307-v1:0",
      organization: "Anthropic",
    },
    { id: "meta.llama3-8b-instruct-v1:0", name: "llama3-8b-instruct-v1:0", organization: "Meta" },
  ]);
  assert.equal(fake.refusals.length, 0);
  for (const key of ["AwsBedrockLLMAccessKey", "AwsBedrockLLMAccessKeyId", "AwsBedrockLLMSessionToken"]) {
    assert.equal(app.deps.settings.value(key), undefined, `${key} given to a lookup is never stored`);
  }

  // Signed for another region than the keys' own: AWS's refusal, named.
  const wrongRegion = await app.json<Lookup>("/api/system/custom-models", {
    json: { provider: "bedrock", apiKey: "lookup-secret", options: { ...options, region: "us-east-1" } },
  });
  assert.equal(wrongRegion.status, 502);
  assert.deepEqual(wrongRegion.body.models, []);
  assert.match(String(wrongRegion.body.error), /^AWS Bedrock answered 403 .*\.$/);

  // The stored keys, as the form sends them back masked.
  const saved = await app.json("/api/system/update-env", {
    json: {
      AwsBedrockLLMConnectionMethod: "sessionToken",
      AwsBedrockLLMAccessKeyId: "AKIDLOOKUP",
      AwsBedrockLLMAccessKey: "lookup-secret",
      AwsBedrockLLMSessionToken: "lookup-session",
      AwsBedrockLLMRegion: "eu-central-1",
    },
  });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
  const stored = await app.json<Lookup>("/api/system/custom-models", {
    json: {
      provider: "bedrock",
      apiKey: true,
      options: { ...options, accessKeyId: "*".repeat(20), sessionToken: true },
    },
  });
  assert.equal(stored.status, 200, JSON.stringify(stored.body));
  assert.equal(stored.body.models.length, 2);
  const bare = await app.json<Lookup>("/api/system/custom-models", { json: { provider: "bedrock" } });
  assert.equal(bare.body.models.length, 2, "without options the stored region and keys are used");
});
