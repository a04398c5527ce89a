import assert from "node:assert/strict";
import { createTestApp, readFrames, type TestApp } from "../../testing/test_app.ts";
import { startFakeOpenAi } from "../../testing/fake_openai.ts";
import { startFakeOllama } from "../../testing/fake_ollama.ts";
import { startFakeAnthropic } from "../../testing/fake_anthropic.ts";

async function ask(app: TestApp, settings: Record<string, string>) {
  const saved = await app.json("/api/system/update-env", { json: { ...settings, VectorDB: "lancedb" } });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
  await app.json("/api/workspace/new", { json: { name: "P" } });
  const frames = await readFrames(
    await app.request("/api/workspace/p/stream-chat", { method: "POST", body: '{"message":"hello"}' }),
  );
  const text = frames.filter((frame) => frame.type === "textResponseChunk").map((frame) => frame.textResponse)
    .join("");
  return { frames, text };
}

Deno.test("OpenAI: the key and model reach the API, and the model list keeps chat models only", async () => {
  await using fake = startFakeOpenAi({
    apiKey: "sk-test",
    models: ["gpt-4o-mini", "o3-mini", "text-embedding-3-small", "whisper-1", "dall-e-3", "ft:gpt-4o:me:x"],
  });
  await using app = await createTestApp({ providerDeps: { endpoints: { openai: fake.baseURL } } });
  const bad = await app.json("/api/system/update-env", { json: { OpenAiKey: "abc" } });
  assert.equal(bad.body.error, "OpenAiKey: OpenAI Key must start with sk-");
  const { text, frames } = await ask(app, {
    LLMProvider: "openai",
    OpenAiKey: "sk-test",
    OpenAiModelPref: "gpt-4o-mini",
  });
  assert.match(text, /You asked: hello/);
  assert.equal(frames.at(-1)?.type, "finalizeResponseStream");
  assert.equal(fake.chatRequests[0].model, "gpt-4o-mini");
  const models = await app.json<{ models: { id: string; organization: string }[] }>(
    "/api/system/custom-models",
    {
      json: { provider: "openai", apiKey: true },
    },
  );
  assert.deepEqual(models.body.models.map((model) => model.id), ["ft:gpt-4o:me:x", "gpt-4o-mini", "o3-mini"]);
  assert.equal(models.body.models[0].organization, "Your Fine-Tunes");
  const wrong = await app.json("/api/system/custom-models", {
    json: { provider: "openai", apiKey: "sk-wrong" },
  });
  assert.equal(wrong.status, 502);
  assert.match(String(wrong.body.error), /Incorrect API key provided/);
  assert.equal(app.deps.settings.value("OpenAiKey"), "sk-test", "a key given to a lookup is never stored");
});

Deno.test("Azure OpenAI: the deployment is named in the path and the key sent as api-key", async () => {
  await using fake = startFakeOpenAi({ apiKey: "azure-key" });
  await using app = await createTestApp();
  const { text } = await ask(app, {
    LLMProvider: "azure",
    AzureOpenAiEndpoint: fake.baseURL.replace(/\/v1$/, ""),
    AzureOpenAiKey: "azure-key",
    AzureOpenAiModelPref: "my-deployment",
    AzureOpenAiTokenLimit: "8192",
  });
  assert.match(text, /You asked: hello/);
  assert.equal(fake.chatRequests[0].model, "my-deployment");
  const detail = await app.json<{ workspace: { contextWindow: number } }>("/api/workspace/p");
  assert.equal(detail.body.workspace.contextWindow, 8192);
});

Deno.test("LM Studio and LocalAI: OpenAI-compatible servers with /v1 base paths and model lookups", async () => {
  await using fake = startFakeOpenAi({ models: ["qwen-7b", "llama-3"] });
  await using app = await createTestApp();
  const noV1 = await app.json("/api/system/update-env", {
    json: { LMStudioBasePath: fake.baseURL.replace(/\/v1$/, "") },
  });
  assert.equal(noV1.body.error, "LMStudioBasePath: URL must contain /v1.");
  const lm = await app.json<{ models: { id: string }[] }>("/api/system/custom-models", {
    json: { provider: "lmstudio", basePath: fake.baseURL },
  });
  assert.deepEqual(lm.body.models.map((model) => model.id), ["qwen-7b", "llama-3"]);
  const localNoV1 = await app.json<{ models: unknown[] }>("/api/system/custom-models", {
    json: { provider: "localai", basePath: "http://127.0.0.1:1" },
  });
  assert.deepEqual(localNoV1.body.models, [], "LocalAI lookups wait for a /v1 base path");
  const { text } = await ask(app, {
    LLMProvider: "lmstudio",
    LMStudioBasePath: fake.baseURL,
    LMStudioModelPref: "qwen-7b",
    LMStudioTokenLimit: "4096",
  });
  assert.match(text, /You asked: hello/);
  assert.equal(fake.chatRequests[0].model, "qwen-7b");
});

Deno.test("Ollama: native chat with keep-alive and the base-mode context, tags as models, errors relayed", async () => {
  await using ollama = startFakeOllama({ models: ["llama3.2:latest", "qwen2.5:7b"] });
  await using app = await createTestApp();
  const models = await app.json<{ models: { id: string }[] }>("/api/system/custom-models", {
    json: { provider: "ollama", basePath: ollama.baseURL },
  });
  assert.deepEqual(models.body.models.map((model) => model.id), ["llama3.2:latest", "qwen2.5:7b"]);
  const { text, frames } = await ask(app, {
    LLMProvider: "ollama",
    OllamaLLMBasePath: ollama.baseURL,
    OllamaLLMModelPref: "qwen2.5:7b",
    OllamaLLMTokenLimit: "8192",
    OllamaLLMKeepAliveSeconds: "3600",
  });
  assert.equal(text, "Hello from Ollama.");
  const request = ollama.chatRequests[0];
  assert.equal(request.model, "qwen2.5:7b");
  assert.equal(request.keep_alive, 3600);
  assert.equal(
    (request.options as { num_ctx: number }).num_ctx,
    2048,
    "base mode limits the context to 2048",
  );
  const metrics = frames.at(-1)?.metrics as { prompt_tokens: number };
  assert.equal(metrics.prompt_tokens, 42, "Ollama's own counts are used");

  await app.json("/api/system/update-env", { json: { OllamaLLMPerformanceMode: "maximum" } });
  await readFrames(
    await app.request("/api/workspace/p/stream-chat", { method: "POST", body: '{"message":"again"}' }),
  );
  assert.equal((ollama.chatRequests[1].options as { num_ctx: number }).num_ctx, 8192);
  const badMode = await app.json("/api/system/update-env", { json: { OllamaLLMPerformanceMode: "turbo" } });
  assert.equal(badMode.body.error, "OllamaLLMPerformanceMode: Value must be one of base, maximum");
});

Deno.test("Ollama: a missing model is an abort frame with Ollama's message", async () => {
  await using ollama = startFakeOllama({ error: 'model "nope" not found, try pulling it first' });
  await using app = await createTestApp();
  const { frames } = await ask(app, {
    LLMProvider: "ollama",
    OllamaLLMBasePath: ollama.baseURL,
    OllamaLLMModelPref: "nope",
  });
  assert.equal(frames[0].type, "abort");
  assert.match(String(frames[0].error), /model "nope" not found/);
});

Deno.test("Anthropic: streamed through the SDK, system prompt apart, models listed", async () => {
  await using claude = startFakeAnthropic({ apiKey: "sk-ant-test" });
  await using app = await createTestApp({ providerDeps: { endpoints: { anthropic: claude.baseURL } } });
  const badKey = await app.json("/api/system/update-env", { json: { AnthropicApiKey: "sk-test" } });
  assert.equal(badKey.body.error, "AnthropicApiKey: Anthropic Key must start with sk-ant-");
  const { text, frames } = await ask(app, {
    LLMProvider: "anthropic",
    AnthropicApiKey: "sk-ant-test",
    AnthropicModelPref: "claude-test-1",
  });
  assert.equal(text, "Hi from Claude.", JSON.stringify(frames));
  const sent = claude.requests[0].body;
  assert.equal(sent.model, "claude-test-1");
  assert.match(String(sent.system), /^Given the following conversation/);
  assert.deepEqual((sent.messages as { role: string }[]).map((message) => message.role), ["user"]);
  const metrics = frames.at(-1)?.metrics as { prompt_tokens: number; completion_tokens: number };
  assert.deepEqual([metrics.prompt_tokens, metrics.completion_tokens], [25, 3]);
  const models = await app.json<{ models: { id: string; name: string }[] }>("/api/system/custom-models", {
    json: { provider: "anthropic", apiKey: "********************" },
  });
  assert.deepEqual(models.body.models, [{ id: "claude-test-1", name: "Claude Test" }]);
});

Deno.test("custom-models refuses unknown providers and link-local base paths", async () => {
  await using app = await createTestApp();
  const unknown = await app.json("/api/system/custom-models", { json: { provider: "skynet" } });
  assert.equal(unknown.status, 400);
  assert.deepEqual(unknown.body, { models: [], error: "Invalid provider for custom models" });
  const metadata = await app.json("/api/system/custom-models", {
    json: { provider: "ollama", basePath: "http://169.254.169.254" },
  });
  assert.equal(metadata.status, 502);
  assert.match(String(metadata.body.error), /link-local address/);
  const unreachable = await app.json("/api/system/custom-models", {
    json: { provider: "ollama", basePath: "http://127.0.0.1:9" },
  });
  assert.equal(unreachable.status, 502);
  assert.match(String(unreachable.body.error), /^Ollama @ http:\/\/127\.0\.0\.1:9 did not answer/);
});

Deno.test("onboarding state and survey", async () => {
  await using app = await createTestApp();
  assert.deepEqual((await app.json("/api/onboarding")).body, { onboardingComplete: false });
  const survey = await app.json("/api/onboarding/survey", {
    json: { email: "ada@example.com", useCase: "job", comment: "Hi" },
  });
  assert.deepEqual(survey.body, { success: true, error: null, sent: false });
  assert.match(String(app.deps.settings.label("onboarding_survey")), /ada@example.com/);
  assert.equal((await app.json("/api/onboarding/survey", { json: { email: "nope" } })).status, 400);
  assert.equal((await app.json("/api/onboarding", { method: "POST" })).status, 200);
  assert.deepEqual((await app.json("/api/onboarding")).body, { onboardingComplete: true });
  const setup = await app.json<{ results: { OnboardingComplete: boolean } }>("/api/setup-complete");
  assert.equal(setup.body.results.OnboardingComplete, true);
});

Deno.test("custom-models never sends the stored key to a base URL other than the one it was saved with", async () => {
  await using saved = startFakeOpenAi({ apiKey: "sk-stored", models: ["mine"] });
  await using other = startFakeOpenAi({ models: ["theirs"] });
  await using app = await createTestApp();
  const stored = await app.json("/api/system/update-env", {
    json: {
      LLMProvider: "generic-openai",
      GenericOpenAiBasePath: `${saved.baseURL}/`,
      GenericOpenAiKey: "sk-stored",
      GenericOpenAiModelPref: "mine",
      GenericOpenAiTokenLimit: "4096",
    },
  });
  assert.equal(stored.status, 200, JSON.stringify(stored.body));

  // Its own base URL (as saved, or as the form shows it with the key masked): the stored key goes along.
  for (const input of [{}, { basePath: saved.baseURL, apiKey: "*".repeat(20) }]) {
    const models = await app.json<{ models: { id: string }[] }>("/api/system/custom-models", {
      json: { provider: "generic-openai", ...input },
    });
    assert.deepEqual(models.body.models.map((model) => model.id), ["mine"], JSON.stringify(input));
  }
  assert.deepEqual(saved.authorizations, ["Bearer sk-stored", "Bearer sk-stored"]);

  // Another base URL without a key of its own: asked without any key.
  const elsewhere = await app.json<{ models: { id: string }[] }>("/api/system/custom-models", {
    json: { provider: "generic-openai", basePath: other.baseURL, apiKey: "*".repeat(20) },
  });
  assert.deepEqual(elsewhere.body.models.map((model) => model.id), ["theirs"]);
  const withKey = await app.json("/api/system/custom-models", {
    json: { provider: "generic-openai", basePath: other.baseURL, apiKey: "sk-theirs" },
  });
  assert.equal(withKey.status, 200);
  assert.deepEqual(other.authorizations, [null, "Bearer sk-theirs"], "the stored key never reached it");
});

Deno.test("a model lookup is fetched through the URL guard: special addresses refused, no key carried to another origin", async () => {
  const received: (string | null)[] = [];
  const elsewhere = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    received.push(request.headers.get("authorization"));
    return Response.json({ data: [{ id: "elsewhere-model" }] });
  });
  const redirecting = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    // The second hop is checked too: user info in an address is refused wherever it comes from.
    const userInfo = new URL(request.url).pathname.startsWith("/userinfo") ? "user:password@" : "";
    return Response.redirect(`http://${userInfo}127.0.0.1:${elsewhere.addr.port}/v1/models`, 302);
  });
  try {
    await using app = await createTestApp();
    const base = `http://127.0.0.1:${redirecting.addr.port}/v1`;
    const models = await app.json<{ models: { id: string }[] }>("/api/system/custom-models", {
      json: { provider: "generic-openai", basePath: base, apiKey: "sk-typed-in" },
    });
    assert.equal(models.status, 200);
    assert.deepEqual(models.body.models.map((model) => model.id), ["elsewhere-model"]);
    assert.deepEqual(received, [null], "the key stays with the origin it was given for");
    const userInfo = await app.json("/api/system/custom-models", {
      json: {
        provider: "generic-openai",
        basePath: `${base.replace("/v1", "/userinfo")}`,
        apiKey: "sk-typed-in",
      },
    });
    assert.equal(userInfo.status, 502);
    assert.match(
      String((userInfo.body as { error: string }).error),
      /user name or password in them are refused/,
    );
    assert.equal(received.length, 1, "the refused hop was not fetched");
    const translated = await app.json("/api/system/custom-models", {
      json: { provider: "generic-openai", basePath: "http://[64:ff9b::a9fe:a9fe]/v1", apiKey: "sk-typed-in" },
    });
    assert.equal(translated.status, 502);
    assert.match(
      String((translated.body as { error: string }).error),
      /points to a link-local address/,
    );
  } finally {
    await elsewhere.shutdown();
    await redirecting.shutdown();
  }
});
