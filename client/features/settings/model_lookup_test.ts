import assert from "node:assert/strict";
import { llmProvider } from "../../../shared/providers/llm_catalog.ts";
import { MASKED_SECRET } from "../../../shared/settings.ts";
import { groupModels, planLookup } from "./model_lookup.ts";

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
