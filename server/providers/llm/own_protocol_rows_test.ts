import assert from "node:assert/strict";
import { createTestApp, readFrames, type TestApp } from "../../testing/test_app.ts";
import { startFakeBedrock } from "./testing/fake_bedrock.ts";
import { startFakeCohere } from "./testing/fake_cohere.ts";
import { startFakeGemini } from "./testing/fake_gemini.ts";

/**
 * The providers with a protocol of their own, chosen in the settings as a person does (update-env) and used by
 * a workspace chat: the registry builds each one's adapter from its row's settings.
 */
async function saveAndChat(app: TestApp, settings: Record<string, string>) {
  const saved = await app.json("/api/system/update-env", { json: { VectorDB: "lancedb", ...settings } });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
  await app.json("/api/workspace/new", { json: { name: "P" } });
  const frames = await readFrames(
    await app.request("/api/workspace/p/stream-chat", {
      method: "POST",
      body: JSON.stringify({ message: "Hello?" }),
    }),
  );
  const text = frames.filter((frame) => frame.type === "textResponseChunk").map((frame) => frame.textResponse)
    .join("");
  const abort = frames.find((frame) => frame.type === "abort");
  return { text, abort, frames };
}

Deno.test("Gemini chosen in the settings answers a workspace chat with its safety setting", async () => {
  await using fake = startFakeGemini({ apiKey: "AIza-wired" });
  await using app = await createTestApp({ providerDeps: { endpoints: { gemini: fake.baseURL } } });
  const { text, abort } = await saveAndChat(app, {
    LLMProvider: "gemini",
    GeminiLLMApiKey: "AIza-wired",
    GeminiLLMModelPref: "gemini-2.0-flash-001",
    GeminiSafetySetting: "BLOCK_NONE",
  });
  assert.equal(abort, undefined);
  assert.equal(text, "Hello from Gemini.");
  const [request] = fake.requests;
  assert.equal(request.model, "gemini-2.0-flash-001");
  const safety = request.body.safetySettings as { threshold: string }[];
  assert.ok(safety.length > 0 && safety.every((entry) => entry.threshold === "BLOCK_NONE"));
});

Deno.test("Cohere chosen in the settings answers a workspace chat; a wrong key's refusal reaches the abort frame", async () => {
  await using fake = startFakeCohere({ apiKey: "co-wired" });
  await using app = await createTestApp({ providerDeps: { endpoints: { cohere: fake.baseURL } } });
  const { text, abort } = await saveAndChat(app, {
    LLMProvider: "cohere",
    CohereApiKey: "co-wired",
    CohereModelPref: "command-r",
  });
  assert.equal(abort, undefined);
  assert.equal(text, "Hello from Cohere.");
  assert.equal(fake.requests[0].body.model, "command-r");

  await app.json("/api/system/update-env", { json: { CohereApiKey: "co-wrong" } });
  const refused = await readFrames(
    await app.request("/api/workspace/p/stream-chat", {
      method: "POST",
      body: JSON.stringify({ message: "Again?" }),
    }),
  );
  const error = refused.find((frame) => frame.type === "abort")?.error;
  assert.match(String(error), /Cohere/);
  assert.match(String(error), /invalid api token/);
});

Deno.test("AWS Bedrock chosen in the settings answers a workspace chat, signed with the session token method", async () => {
  await using fake = startFakeBedrock({
    credentials: { AKIDWIRED: { secretAccessKey: "wired-secret", sessionToken: "wired-session" } },
    region: "eu-central-1",
  });
  await using app = await createTestApp({ providerDeps: { endpoints: { bedrock: fake.endpoint } } });
  const { text, abort } = await saveAndChat(app, {
    LLMProvider: "bedrock",
    AwsBedrockLLMConnectionMethod: "sessionToken",
    AwsBedrockLLMAccessKeyId: "AKIDWIRED",
    AwsBedrockLLMAccessKey: "wired-secret",
    AwsBedrockLLMSessionToken: "wired-session",
    AwsBedrockLLMRegion: "eu-central-1",
    AwsBedrockLLMModel: "meta.llama3-1-8b-instruct-v1:0",
    AwsBedrockLLMTokenLimit: "8192",
  });
  assert.equal(abort, undefined, JSON.stringify(fake.refusals));
  assert.equal(text, "Hello from Bedrock.");
  assert.equal(fake.requests[0].modelId, "meta.llama3-1-8b-instruct-v1:0");
  assert.equal(fake.refusals.length, 0);
});

// The built-in model (native) chosen in the settings and used by a workspace chat is a case of
// native_llm/native_llm_cases.ts: it loads node-llama-cpp, which runs in a child process (native_llm_test.ts).
