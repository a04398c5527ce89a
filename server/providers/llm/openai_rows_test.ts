import assert from "node:assert/strict";
import {
  LLM_PROVIDERS,
  type LlmProviderEntry,
  type SettingField,
} from "../../../shared/providers/llm_catalog.ts";
import { createTestApp, readFrames, type TestApp } from "../../testing/test_app.ts";
import { type FakeOpenAi, startFakeOpenAi } from "../../testing/fake_openai.ts";

/**
 * Every row of the provider table that speaks the OpenAI protocol, run against the loopback fake: its settings
 * are accepted, its model lookup reads and groups the list as the row says, a chat streams text, reasoning
 * and usage, and an upstream error reaches the abort frame naming the provider.
 */
const OPENAI_ROWS = LLM_PROVIDERS.filter((row) => row.openai);

/** The model list as vendors send it: every field any row reads, a chat model and a model that is not one. */
const MODEL_ROWS = [
  {
    id: "meta-llama/llama-3-8b",
    object: "model",
    created: 0,
    owned_by: "meta",
    name: "Llama 3 8B",
    title: "Llama 3 8B",
    display_name: "Llama 3 8B",
    organization: "Meta",
    type: "chat",
    provider: "meta",
    model: "llama-3-8b",
    subtype: "chat",
  },
  {
    id: "gpt-4o-mini",
    object: "model",
    created: 0,
    owned_by: "openai",
    name: "GPT-4o mini",
    title: "GPT-4o mini",
    display_name: "GPT-4o mini",
    organization: "OpenAI",
    type: "chat",
    provider: "openai",
    model: "gpt-4o-mini",
    subtype: "chatx",
  },
  {
    id: "acme/text-embedding-1",
    object: "model",
    created: 0,
    owned_by: "acme",
    name: "Embedder",
    title: "Embedder",
    type: "embedding",
    provider: "acme",
    model: "text-embedding-1",
    subtype: "embedding",
  },
];

/** A value each field accepts, pointing the row at the fake. */
function valueFor(row: LlmProviderEntry, field: SettingField, fake: FakeOpenAi): string | undefined {
  const origin = fake.baseURL.replace(/\/v1$/, "");
  if (field.key === row.openai?.baseUrlField) {
    // Azure's endpoint and a TGI endpoint are origins; the others are the /v1 base.
    return row.openai.azure || row.openai.baseUrlSuffix ? origin : fake.baseURL;
  }
  if (field.type === "password") {
    return typeof field.check === "object" ? `${field.check.startsWith}test-${row.id}` : `key-${row.id}`;
  }
  if (field.key === row.modelKey) return field.type === "select" ? field.options?.[0].value : "fake-model";
  if (field.type === "number") return String(Math.max(field.min ?? 1, 4096));
  if (field.type === "select") return field.defaultValue ?? field.options?.[0].value;
  return field.required ? "value" : undefined;
}

async function configure(row: LlmProviderEntry) {
  const fake = startFakeOpenAi();
  const app = await createTestApp({ providerDeps: { endpoints: { [row.id]: fake.baseURL } } });
  const settings: Record<string, string> = { LLMProvider: row.id, VectorDB: "lancedb" };
  for (const field of row.fields) {
    const value = valueFor(row, field, fake);
    if (value !== undefined) settings[field.key] = value;
  }
  const saved = await app.json("/api/system/update-env", { json: settings });
  assert.equal(saved.status, 200, `${row.id}: ${JSON.stringify(saved.body)}`);
  return { fake, app, settings };
}

async function chat(app: TestApp, message: string) {
  const frames = await readFrames(
    await app.request("/api/workspace/p/stream-chat", { method: "POST", body: JSON.stringify({ message }) }),
  );
  const text = frames.filter((frame) => frame.type === "textResponseChunk").map((frame) => frame.textResponse)
    .join("");
  return { frames, text };
}

Deno.test("the table has every OpenAI-protocol vendor of the issue", () => {
  assert.deepEqual(
    OPENAI_ROWS.map((row) => row.id).sort(),
    [
      "apipie",
      "azure",
      "deepseek",
      "fireworksai",
      "generic-openai",
      "groq",
      "huggingface",
      "koboldcpp",
      "litellm",
      "lmstudio",
      "localai",
      "mistral",
      "novita",
      "openai",
      "openrouter",
      "perplexity",
      "textgenwebui",
      "togetherai",
      "xai",
    ],
  );
});

for (const row of OPENAI_ROWS) {
  Deno.test(`${row.name} (${row.id}): settings, model lookup, streamed chat with reasoning and usage, upstream error`, async () => {
    const { fake, app, settings } = await configure(row);
    await using _fake = fake;
    await using _app = app;

    // The model lookup, read and grouped as the row says.
    if (row.lookup && row.listing) {
      fake.setModels(MODEL_ROWS, { bare: row.id === "togetherai" });
      const lookup = row.lookup;
      const answer = await app.json<{ models: { id: string; name: string; organization?: string }[] }>(
        "/api/system/custom-models",
        {
          json: {
            provider: lookup.provider,
            ...(lookup.apiKeyField ? { apiKey: true } : {}),
            ...(lookup.basePathField ? { basePath: settings[lookup.basePathField] } : {}),
          },
        },
      );
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      const models = answer.body.models;
      assert.ok(models.length > 0, `${row.id} lists models`);
      const listing = row.listing;
      if (listing.source === "static") {
        assert.deepEqual(models.map((model) => model.id), listing.models.map((model) => model.id));
      } else if (listing.source === "openai") {
        const ids = models.map((model) => model.id);
        if (listing.only) {
          assert.ok(!ids.some((id) => id.includes("embedding")), `${row.id} keeps chat models`);
        }
        if (listing.id) assert.ok(ids.includes("meta/llama-3-8b"), `${row.id} builds ids: ${ids}`);
        if (row.id === "openai") assert.deepEqual(ids, ["gpt-4o-mini"]);
        if (listing.organization === "idPrefix") {
          assert.equal(
            models.find((model) => model.id === "meta-llama/llama-3-8b")?.organization,
            "Meta-llama",
          );
        }
        if (row.id === "togetherai") {
          assert.deepEqual(models.map((model) => [model.name, model.organization]), [
            ["Llama 3 8B", "Meta"],
            ["GPT-4o mini", "OpenAI"],
          ]);
        }
        if (row.id === "apipie") assert.equal(models[0].organization, "meta");
        // A key goes along unless the vendor lists openly.
        const key = lookup.apiKeyField ? settings[lookup.apiKeyField] : undefined;
        assert.equal(fake.authorizations.at(-1), key && !listing.anonymous ? `Bearer ${key}` : null);
      }
      // The spec groups these five by organization: every model names one.
      if (["togetherai", "fireworksai", "openrouter", "apipie", "novita"].includes(row.id)) {
        assert.ok(models.every((model) => model.organization), `${row.id} groups by organization`);
      }
    }

    // A streamed chat: reasoning wrapped in <think>, then the text, with the provider's token counts.
    fake.setReply(() => ({
      reasoning: ["Let me ", "think."],
      reasoningField: row.id.length % 2 === 0 ? "reasoning" : "reasoning_content",
      chunks: ["Hello ", "from ", row.id, "."],
      usage: { prompt_tokens: 31, completion_tokens: 7 },
    }));
    await app.json("/api/workspace/new", { json: { name: "P" } });
    const { frames, text } = await chat(app, "hello");
    assert.equal(text, `<think>Let me think.</think>Hello from ${row.id}.`, JSON.stringify(frames));
    const last = frames.at(-1)!;
    assert.equal(last.type, "finalizeResponseStream");
    const metrics = last.metrics as { prompt_tokens: number; completion_tokens: number };
    assert.deepEqual([metrics.prompt_tokens, metrics.completion_tokens], [31, 7]);
    const sent = fake.chatRequests.at(-1)!;
    const expectedModel = row.modelKey ? settings[row.modelKey] : row.openai?.fixedModel;
    assert.equal(sent.model, expectedModel);
    const keyField = row.openai?.apiKeyField;
    if (keyField && settings[keyField]) {
      assert.equal(fake.authorizations.at(-1), `Bearer ${settings[keyField]}`);
    }
    for (const [name, value] of Object.entries(row.openai?.headers ?? {})) {
      assert.equal(fake.headers.at(-1)?.get(name), value, `${row.id} sends ${name}`);
    }

    // The vendor's own error, in a sentence naming the provider.
    fake.setReply(() => ({ status: 429, message: "Rate limit reached for requests" }));
    const failed = await chat(app, "again");
    assert.equal(failed.frames[0].type, "abort");
    assert.equal(
      failed.frames[0].error,
      `${row.name} answered with an error: 429 Rate limit reached for requests.`,
    );
  });
}

Deno.test("a stream that never sends a finish reason ends as complete after the row's quiet time (OpenRouter, Novita)", async () => {
  for (const row of OPENAI_ROWS.filter((row) => row.openai?.streamTimeoutField)) {
    const { fake, app } = await configure(row);
    await using _fake = fake;
    await using _app = app;
    assert.equal(app.deps.settings.value(row.openai!.streamTimeoutField!), "4096");
    const low = await app.json("/api/system/update-env", {
      json: { [row.openai!.streamTimeoutField!]: "499" },
    });
    assert.equal(low.body.error, `${row.openai!.streamTimeoutField}: Value must be at least 500.`);
    await app.json("/api/system/update-env", { json: { [row.openai!.streamTimeoutField!]: "500" } });
    fake.setReply(() => ({ chunks: ["All ", "there", "never"], hangAfter: 2 }));
    await app.json("/api/workspace/new", { json: { name: "P" } });
    const { frames, text } = await chat(app, "hello");
    assert.equal(text, "All there");
    assert.deepEqual(frames.map((frame) => frame.type).filter((type) => type === "abort"), []);
    assert.equal(frames.at(-1)?.type, "finalizeResponseStream", row.id);
  }
});

Deno.test("hosted vendors refuse an empty key and a lookup waits for one; keys are masked in every answer", async () => {
  await using fake = startFakeOpenAi();
  await using app = await createTestApp({ providerDeps: { endpoints: { groq: fake.baseURL } } });
  const empty = await app.json("/api/system/update-env", { json: { GroqApiKey: "" } });
  assert.equal(empty.body.error, "GroqApiKey: Value cannot be empty");
  const none = await app.json<{ models: unknown[] }>("/api/system/custom-models", {
    json: { provider: "groq" },
  });
  assert.deepEqual(none.body.models, []);
  assert.equal(fake.authorizations.length, 0, "no lookup without a key");
  const saved = await app.json<{ newValues: Record<string, string> }>("/api/system/update-env", {
    json: { GroqApiKey: "gsk-secret" },
  });
  assert.equal(saved.body.newValues.GroqApiKey, "*".repeat(20));
  const setup = await app.json<{ results: Record<string, unknown> }>("/api/setup-complete");
  assert.equal(setup.body.results.GroqApiKey, true);
  assert.ok(!JSON.stringify(setup.body).includes("gsk-secret"));
});
