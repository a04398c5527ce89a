import assert from "node:assert/strict";
import { privacyKey, privacyRows } from "./privacy.ts";
import type { SetupResults } from "./setup.ts";

const SETUP: SetupResults = { MultiUserMode: false, RequiresAuth: false, LLMProvider: null, VectorDB: null };

Deno.test("privacyRows() names each chosen service by its catalog name", () => {
  assert.deepEqual(
    privacyRows({ ...SETUP, LLMProvider: "ollama", EmbeddingEngine: "native", VectorDB: "chroma" }),
    [
      { area: "llm", id: "ollama", name: "Ollama" },
      { area: "embedder", id: "native", name: "Lectern Embedder" },
      { area: "vectorDb", id: "chroma", name: "Chroma" },
    ],
  );
});

Deno.test("privacyRows() takes openai and lancedb when unset, and shows an unknown id as it is", () => {
  assert.deepEqual(privacyRows(SETUP), [
    { area: "llm", id: null, name: null },
    { area: "embedder", id: "openai", name: "OpenAI" },
    { area: "vectorDb", id: "lancedb", name: "LanceDB" },
  ]);
  assert.deepEqual(privacyRows({ ...SETUP, LLMProvider: "someday", VectorDB: "mystery" })[0], {
    area: "llm",
    id: "someday",
    name: "someday",
  });
});

Deno.test("privacyKey() takes the service's own bullets when the locale has them, else the area's default", () => {
  const known = new Set(["settings.privacy.llm.unset", "settings.privacy.embedder.native"]);
  const exists = (key: string) => known.has(key);
  assert.equal(privacyKey({ area: "llm", id: null, name: null }, exists), "settings.privacy.llm.unset");
  assert.equal(
    privacyKey({ area: "embedder", id: "native", name: "x" }, exists),
    "settings.privacy.embedder.native",
  );
  assert.equal(
    privacyKey({ area: "vectorDb", id: "chroma", name: "x" }, exists),
    "settings.privacy.vectorDb.default",
  );
});
