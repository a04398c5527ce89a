import assert from "node:assert/strict";
import { llmProvider } from "../../../shared/providers/llm_catalog.ts";
import { MASKED_SECRET } from "../../../shared/settings.ts";
import { json, stubFetch, stubStorage } from "../../testing/stubs.ts";
import {
  fetchCustomModels,
  groupModels,
  type LookupPlan,
  modelListState,
  planLookup,
  selectedModel,
} from "./model_lookup.ts";

const plan = (id: string, values: Record<string, string>) => {
  const entry = llmProvider(id)!;
  return planLookup(entry.lookup!, entry.fields, values);
};

Deno.test("model lookup: OpenAI waits for its API key; the saved mask is sent as true", () => {
  assert.deepEqual(plan("openai", { OpenAiKey: "" }), { kind: "waiting", for: "key" });
  assert.deepEqual(plan("openai", { OpenAiKey: "sk-typed" }), {
    kind: "ready",
    request: { provider: "openai", apiKey: "sk-typed" },
  });
  assert.deepEqual(plan("openai", { OpenAiKey: MASKED_SECRET }), {
    kind: "ready",
    request: { provider: "openai", apiKey: true },
  });
  assert.deepEqual(plan("anthropic", { AnthropicApiKey: MASKED_SECRET }), {
    kind: "ready",
    request: { provider: "anthropic", apiKey: true },
  });
});

Deno.test("model lookup: LM Studio runs once a base path exists; Ollama's optional token is not waited for", () => {
  assert.deepEqual(plan("lmstudio", { LMStudioBasePath: "" }), { kind: "waiting", for: "url" });
  assert.deepEqual(plan("lmstudio", { LMStudioBasePath: "http://localhost:1234/v1/" }), {
    kind: "ready",
    request: { provider: "lmstudio", basePath: "http://localhost:1234/v1" },
  });
  assert.deepEqual(plan("lmstudio", { LMStudioBasePath: "localhost:1234" }), { kind: "waiting", for: "url" });
  assert.deepEqual(plan("ollama", { OllamaLLMBasePath: "http://127.0.0.1:11434", OllamaLLMAuthToken: "" }), {
    kind: "ready",
    request: { provider: "ollama", basePath: "http://127.0.0.1:11434" },
  });
});

Deno.test("model lookup: LocalAI runs only when the base path contains /v1", () => {
  assert.deepEqual(plan("localai", { LocalAiBasePath: "http://localhost:8080" }), {
    kind: "waiting",
    for: "url",
  });
  assert.deepEqual(plan("localai", { LocalAiBasePath: "http://localhost:8080/v1", LocalAiApiKey: "k" }), {
    kind: "ready",
    request: { provider: "localai", apiKey: "k", basePath: "http://localhost:8080/v1" },
  });
});

Deno.test("model lookup: Gemini and Cohere wait for their keys; Bedrock sends its key id, token and region as options", () => {
  assert.deepEqual(plan("gemini", { GeminiLLMApiKey: "" }), { kind: "waiting", for: "key" });
  assert.deepEqual(plan("cohere", { CohereApiKey: "co-typed" }), {
    kind: "ready",
    request: { provider: "cohere", apiKey: "co-typed" },
  });
  assert.deepEqual(plan("bedrock", { AwsBedrockLLMAccessKeyId: "AKID", AwsBedrockLLMAccessKey: "" }), {
    kind: "waiting",
    for: "key",
  });
  assert.deepEqual(
    plan("bedrock", {
      AwsBedrockLLMConnectionMethod: "sessionToken",
      AwsBedrockLLMAccessKeyId: MASKED_SECRET,
      AwsBedrockLLMAccessKey: "typed-secret",
      AwsBedrockLLMSessionToken: "",
      AwsBedrockLLMRegion: "eu-central-1",
    }),
    {
      kind: "ready",
      request: {
        provider: "bedrock",
        apiKey: "typed-secret",
        options: { connectionMethod: "sessionToken", accessKeyId: true, region: "eu-central-1" },
      },
    },
  );
});

Deno.test("model lookup: models are grouped by organization when they name one", () => {
  assert.deepEqual(groupModels([]), []);
  const plain = [{ id: "b", name: "b" }, { id: "a", name: "a" }];
  assert.deepEqual(groupModels(plain), [{ organization: null, models: plain }], "server order kept");
  assert.deepEqual(
    groupModels([
      { id: "gpt-4o", name: "gpt-4o", organization: "OpenAi" },
      { id: "ft:x", name: "ft:x", organization: "Your Fine-Tunes" },
      { id: "gpt-3.5", name: "gpt-3.5", organization: "OpenAi" },
      { id: "solo", name: "solo" },
    ]).map((group) => [group.organization, group.models.map((model) => model.id)]),
    [["OpenAi", ["gpt-3.5", "gpt-4o"]], ["Your Fine-Tunes", ["ft:x"]], ["Other", ["solo"]]],
  );
});

const READY: LookupPlan = {
  kind: "ready",
  request: { provider: "ollama", basePath: "http://127.0.0.1:11434" },
};
const KEY = JSON.stringify(READY);
const MODELS = [{ id: "llama3", name: "Llama 3" }];

Deno.test("modelListState() lists nothing without a lookup and says what a waiting plan waits for", () => {
  assert.deepEqual(modelListState(null, "null", null, true), { status: "ready", models: [] });
  assert.deepEqual(modelListState({ kind: "waiting", for: "url" }, KEY, null, true), {
    status: "waiting",
    for: "url",
  });
  assert.deepEqual(modelListState({ kind: "waiting", for: "key" }, KEY, null, false), {
    status: "waiting",
    for: "key",
  });
});

Deno.test("modelListState() loads until the settled plan's own lookup answered, and while inactive", () => {
  const fetched = { plan: KEY, models: MODELS, error: null };
  assert.deepEqual(modelListState(READY, KEY, fetched, true), { status: "ready", models: MODELS });
  assert.deepEqual(modelListState(READY, "older", fetched, true), { status: "loading" }, "still settling");
  assert.deepEqual(
    modelListState(READY, KEY, { ...fetched, plan: "older" }, true),
    { status: "loading" },
    "older answer",
  );
  assert.deepEqual(modelListState(READY, KEY, null, true), { status: "loading" });
  assert.deepEqual(modelListState(READY, KEY, fetched, false), { status: "loading" }, "inactive");
});

Deno.test("modelListState() reports a failed lookup with the server's error", () => {
  assert.deepEqual(modelListState(READY, KEY, { plan: KEY, models: [], error: "connection refused" }, true), {
    status: "failed",
    error: "connection refused",
  });
});

Deno.test("selectedModel() keeps the saved model while listed, else takes the first", () => {
  const groups = groupModels([
    { id: "b", name: "B", organization: "Org" },
    { id: "a", name: "A", organization: "Org" },
  ]);
  assert.equal(selectedModel(groups, "b"), "b");
  assert.equal(selectedModel(groups, "gone"), "a", "the first after sorting");
  assert.equal(selectedModel(groups, ""), "a");
  assert.equal(selectedModel([], "b"), undefined);
});

Deno.test("fetchCustomModels() posts the request and throws the error the answer carries", async () => {
  using _storage = stubStorage();
  {
    using fetch = stubFetch(() => json({ models: MODELS, error: null }));
    assert.deepEqual(await fetchCustomModels({ provider: "openai", apiKey: true }), MODELS);
    assert.equal(fetch.requests[0].url, "/api/system/custom-models");
    assert.deepEqual(JSON.parse(fetch.requests[0].body!), { provider: "openai", apiKey: true });
  }
  using _fetch = stubFetch(() => json({ models: [], error: "Invalid API key." }));
  await assert.rejects(fetchCustomModels({ provider: "openai", apiKey: "x" }), {
    message: "Invalid API key.",
  });
});
