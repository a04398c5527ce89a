import assert from "node:assert/strict";
import { DEFAULT_REFUSAL, DEFAULT_SYSTEM_PROMPT, type Workspace } from "../../../shared/api/workspaces.ts";
import {
  agentChanges,
  agentValuesOf,
  chatChanges,
  chatValuesOf,
  configuredProviders,
  historyTooLong,
  INSTANCE_LLM,
  ownText,
  providerOptions,
  thresholdOption,
  vectorChanges,
  vectorValuesOf,
} from "./tab_values.ts";

const WORKSPACE: Workspace = {
  id: 1,
  name: "Notes",
  slug: "notes",
  vectorTag: null,
  createdAt: "2026-01-01",
  openAiTemp: null,
  openAiHistory: 20,
  lastUpdatedAt: "2026-01-01",
  openAiPrompt: null,
  similarityThreshold: 0.25,
  chatProvider: null,
  chatModel: null,
  topN: 4,
  chatMode: "chat",
  pfpFilename: null,
  agentProvider: null,
  agentModel: null,
  queryRefusalResponse: null,
  vectorSearchMode: "default",
  hybridSearch: true,
  queryRewrite: true,
};

Deno.test("thresholdOption() puts a stored threshold under the strictest option it reaches", () => {
  assert.equal(thresholdOption(0.75), "0.75");
  assert.equal(thresholdOption(0.9), "0.75");
  assert.equal(thresholdOption(0.5), "0.5");
  assert.equal(thresholdOption(0.3), "0.25");
  assert.equal(thresholdOption(0.1), "0");
  assert.equal(thresholdOption(-1), "0");
});

Deno.test("providerOptions() lists the instance's LLM first, then the providers with settings", () => {
  const options = providerOptions(null, "Use the instance's LLM");
  assert.deepEqual(options[0], { value: INSTANCE_LLM, label: "Use the instance's LLM" });
  assert.ok(options.some((option) => option.value === "ollama" && option.label === "Ollama"));
  assert.equal(new Set(options.map((option) => option.value)).size, options.length, "no duplicates");
});

Deno.test("providerOptions() keeps a saved provider listed, even one the catalog does not know", () => {
  const options = providerOptions("retired-llm", "Instance");
  assert.deepEqual(options.at(-1), { value: "retired-llm", label: "retired-llm" });
  assert.equal(providerOptions("ollama", "Instance").filter((option) => option.value === "ollama").length, 1);
});

Deno.test("ownText() treats no text and a default's text as no text of its own", () => {
  assert.equal(ownText(null, ["d"]), "");
  assert.equal(ownText("  default prompt \n", ["default prompt"]), "");
  assert.equal(ownText("instance prompt", [null, "instance prompt"]), "");
  assert.equal(ownText("mine", ["default", null]), "mine");
  assert.equal(ownText(" mine ", []), " mine ", "kept as stored");
});

Deno.test("chatValuesOf() fills the chat tab from the workspace", () => {
  assert.deepEqual(chatValuesOf(WORKSPACE, null), {
    mode: "chat",
    history: "20",
    prompt: "",
    refusal: "",
    temperature: "",
    provider: INSTANCE_LLM,
    model: "",
  });
  const own = chatValuesOf({
    ...WORKSPACE,
    chatMode: "query",
    openAiTemp: 0.2,
    openAiPrompt: "Be brief.",
    queryRefusalResponse: "No idea.",
    chatProvider: "ollama",
    chatModel: "llama3",
  }, null);
  assert.deepEqual(own, {
    mode: "query",
    history: "20",
    prompt: "Be brief.",
    refusal: "No idea.",
    temperature: "0.2",
    provider: "ollama",
    model: "llama3",
  });
  assert.equal(
    chatValuesOf({ ...WORKSPACE, chatMode: "agent" }, null).mode,
    "chat",
    "unknown modes read as chat",
  );
});

Deno.test("chatValuesOf() shows a stored default prompt or refusal as empty", () => {
  const stored = { ...WORKSPACE, openAiPrompt: DEFAULT_SYSTEM_PROMPT, queryRefusalResponse: DEFAULT_REFUSAL };
  assert.equal(chatValuesOf(stored, null).prompt, "");
  assert.equal(chatValuesOf(stored, null).refusal, "");
  assert.equal(chatValuesOf({ ...WORKSPACE, openAiPrompt: "Site default" }, "Site default").prompt, "");
  assert.equal(chatValuesOf({ ...WORKSPACE, openAiPrompt: "Site default" }, null).prompt, "Site default");
});

Deno.test("chatChanges() sends blanks as null and no model with the instance's LLM", () => {
  const values = { ...chatValuesOf(WORKSPACE, null), history: " 30 ", temperature: " ", prompt: "  " };
  assert.deepEqual(chatChanges(values), {
    chatMode: "chat",
    openAiHistory: "30",
    openAiPrompt: null,
    queryRefusalResponse: null,
    openAiTemp: null,
    chatProvider: INSTANCE_LLM,
  });
  assert.deepEqual(
    chatChanges({ ...values, provider: "ollama", model: " llama3 ", temperature: "0.5", prompt: " Hi " }),
    {
      chatMode: "chat",
      openAiHistory: "30",
      openAiPrompt: " Hi ",
      queryRefusalResponse: null,
      openAiTemp: "0.5",
      chatProvider: "ollama",
      chatModel: "llama3",
    },
  );
  assert.equal(chatChanges({ ...values, provider: "ollama", model: "" }).chatModel, null);
});

Deno.test("historyTooLong() warns above 45 messages and not for an empty field", () => {
  assert.equal(historyTooLong("45"), false);
  assert.equal(historyTooLong("46"), true);
  assert.equal(historyTooLong(" 100 "), true);
  assert.equal(historyTooLong(""), false);
  assert.equal(historyTooLong("  "), false);
  assert.equal(historyTooLong("abc"), false);
});

Deno.test("agentValuesOf() and agentChanges() store the instance's LLM as no provider and no model", () => {
  assert.deepEqual(agentValuesOf(WORKSPACE), { provider: INSTANCE_LLM, model: "" });
  assert.deepEqual(agentValuesOf({ ...WORKSPACE, agentProvider: "ollama", agentModel: "qwen" }), {
    provider: "ollama",
    model: "qwen",
  });
  assert.deepEqual(agentChanges({ provider: INSTANCE_LLM, model: "ignored" }), {
    agentProvider: INSTANCE_LLM,
    agentModel: null,
  });
  assert.deepEqual(agentChanges({ provider: "ollama", model: " qwen " }), {
    agentProvider: "ollama",
    agentModel: "qwen",
  });
  assert.deepEqual(agentChanges({ provider: "ollama", model: " " }), {
    agentProvider: "ollama",
    agentModel: null,
  });
});

Deno.test("vectorValuesOf() and vectorChanges() carry topN, the threshold option, hybrid search and follow-up rewriting", () => {
  const values = vectorValuesOf({ ...WORKSPACE, similarityThreshold: 0.3, hybridSearch: false });
  assert.deepEqual(values, {
    topN: "4",
    threshold: "0.25",
    hybrid: false,
    rewrite: true,
    searchMode: "default",
  });
  assert.deepEqual(vectorChanges({ ...values, topN: " 8 " }), {
    topN: "8",
    similarityThreshold: "0.25",
    hybridSearch: "false",
    queryRewrite: "true",
    vectorSearchMode: "default",
  });
  assert.equal(vectorValuesOf({ ...WORKSPACE, vectorSearchMode: "rerank" }).searchMode, "rerank");
  assert.equal(vectorChanges({ ...values, searchMode: "rerank" }).vectorSearchMode, "rerank");
  assert.equal(vectorChanges({ ...values, hybrid: true }).hybridSearch, "true");
  assert.equal(vectorValuesOf({ ...WORKSPACE, queryRewrite: false }).rewrite, false);
  assert.equal(vectorChanges({ ...values, rewrite: false }).queryRewrite, "false");
});

Deno.test("configuredProviders() lists the providers whose required keys are saved; providerOptions() offers only those", () => {
  const results = {
    LLMProvider: "ollama",
    OllamaLLMBasePath: "http://127.0.0.1:11434",
    GroqApiKey: true,
    TogetherAiApiKey: false,
    AwsBedrockLLMConnectionMethod: "sessionToken",
    AwsBedrockLLMAccessKeyId: true,
    AwsBedrockLLMAccessKey: true,
    AwsBedrockLLMRegion: "us-west-2",
  };
  const configured = configuredProviders(results);
  assert.ok(configured.includes("ollama"));
  assert.ok(configured.includes("groq"), "a saved secret reads true");
  assert.ok(!configured.includes("togetherai"), "no key, not configured");
  assert.ok(!configured.includes("bedrock"), "a session token is needed with sessionToken");
  assert.ok(configuredProviders({ ...results, AwsBedrockLLMConnectionMethod: "iam" }).includes("bedrock"));
  const options = providerOptions(null, "Instance", configured).map((option) => option.value);
  assert.deepEqual(options, ["default", ...configured]);
  assert.ok(
    providerOptions("togetherai", "Instance", configured).some((option) => option.value === "togetherai"),
  );
});
