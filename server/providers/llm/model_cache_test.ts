import assert from "node:assert/strict";
import { configuredTestApp, readFrames } from "../../testing/test_app.ts";
import { startFakeOpenAi } from "../../testing/fake_openai.ts";

Deno.test("the chat model is built once per settings version and override, and again after a settings change", async () => {
  await using first = startFakeOpenAi({ models: ["fake-model"] });
  await using second = startFakeOpenAi({ models: ["fake-model"] });
  await using app = await configuredTestApp({ llm: first.baseURL });
  const chatModel = app.deps.providers.chatModel;

  const model = chatModel();
  assert.equal(chatModel(), model, "the same settings give the same model");
  assert.equal(chatModel({ provider: null, model: null }), model);
  const other = chatModel({ provider: null, model: "other-model" });
  assert.notEqual(other, model, "a workspace's own model is a model of its own");
  assert.equal(other.modelId, "other-model");
  assert.equal(chatModel({ provider: null, model: "other-model" }), other);

  // A settings change (the base path) is seen by the next chat: its answer comes from the new server.
  const saved = await app.json("/api/system/update-env", { json: { GenericOpenAiBasePath: second.baseURL } });
  assert.equal(saved.status, 200);
  const rebuilt = chatModel();
  assert.notEqual(rebuilt, model);
  assert.equal(chatModel(), rebuilt);
  await app.json("/api/workspace/new", { json: { name: "Cache" } });
  const response = await app.request("/api/workspace/cache/stream-chat", {
    method: "POST",
    body: JSON.stringify({ message: "which server?" }),
  });
  const frames = await readFrames(response);
  assert.equal(frames.at(-1)?.type, "finalizeResponseStream");
  assert.equal(first.chatRequests.length, 0);
  assert.equal(second.chatRequests.length, 1);

  // Any change of the stored settings moves the version.
  const before = app.deps.settings.version;
  await app.deps.settings.setLabels({ custom_app_name: "Renamed" });
  assert.ok(app.deps.settings.version > before);
  assert.notEqual(chatModel(), rebuilt);
});
