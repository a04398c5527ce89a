import assert from "node:assert/strict";
import { json, stubFetch, stubStorage } from "../../testing/stubs.ts";
import { fetchSetup, updateEnv } from "./setup.ts";

Deno.test("fetchSetup() returns the results of setup-complete, other keys passing through", async () => {
  using _storage = stubStorage();
  const results = {
    MultiUserMode: true,
    RequiresAuth: true,
    LLMProvider: "ollama",
    VectorDB: "lancedb",
    OllamaLLMBasePath: "http://127.0.0.1:11434",
  };
  using fetch = stubFetch(() => json({ results }));
  assert.deepEqual(await fetchSetup(), results);
  assert.equal(fetch.requests[0].url, "/api/setup-complete");
});

Deno.test("fetchSetup() refuses an answer without the instance keys", async () => {
  using _storage = stubStorage();
  using _fetch = stubFetch(() => json({ results: { MultiUserMode: "yes" } }));
  await assert.rejects(fetchSetup(), { name: "ZodError" });
});

Deno.test("updateEnv() posts the settings and returns the values the server stored", async () => {
  using _storage = stubStorage();
  using fetch = stubFetch(() =>
    json({ newValues: { LLMProvider: "ollama", OpenAiKey: "*****" }, error: null })
  );
  assert.deepEqual(await updateEnv({ LLMProvider: "ollama" }), { LLMProvider: "ollama", OpenAiKey: "*****" });
  assert.equal(fetch.requests[0].url, "/api/system/update-env");
  assert.deepEqual(JSON.parse(fetch.requests[0].body!), { LLMProvider: "ollama" });
  using _empty = stubFetch(() => json({ error: false }));
  assert.deepEqual(await updateEnv({}), {});
});

Deno.test("updateEnv() throws every problem the server reported, as it wrote them", async () => {
  using _storage = stubStorage();
  using _fetch = stubFetch(() =>
    json({ newValues: {}, error: "OllamaLLMBasePath: not a URL\nLLMProvider: unknown" })
  );
  await assert.rejects(updateEnv({ LLMProvider: "x" }), {
    name: "ApiError",
    message: "OllamaLLMBasePath: not a URL\nLLMProvider: unknown",
  });
});
