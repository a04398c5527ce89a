import assert from "node:assert/strict";
import { MASKED_SECRET } from "../../../shared/settings.ts";
import {
  choiceSettings,
  fieldSettings,
  initialChoice,
  initialValue,
  initialValues,
  matchingOptions,
  needsEmbedder,
  type ProviderChoice,
  switchesDatabase,
} from "./provider_form.ts";
import type { SetupResults } from "./setup.ts";

const SETUP: SetupResults = { MultiUserMode: false, RequiresAuth: false, LLMProvider: null, VectorDB: null };

const CLOUD: ProviderChoice = {
  id: "cloud",
  name: "Cloud",
  kind: "cloud",
  fields: [
    { key: "CloudKey", type: "password", required: true },
    { key: "CloudModel", type: "model", required: true },
    { key: "CloudTokens", type: "number", required: false },
    {
      key: "CloudTier",
      type: "select",
      required: true,
      options: [{ value: "a", label: "A" }, { value: "b", label: "B" }],
    },
    {
      key: "CloudRegion",
      type: "select",
      required: true,
      defaultValue: "eu",
      options: [{ value: "us", label: "US" }],
    },
  ],
};
const LOCAL: ProviderChoice = {
  id: "local",
  name: "Local",
  kind: "local",
  fields: [{ key: "LocalUrl", type: "url", required: false }],
};

Deno.test("initialValue() masks a saved secret and shows no secret when none is saved", () => {
  const key = CLOUD.fields[0];
  assert.equal(initialValue(key, { ...SETUP, CloudKey: true }), MASKED_SECRET);
  assert.equal(initialValue(key, { ...SETUP, CloudKey: false }), "");
  assert.equal(initialValue(key, SETUP), "");
  assert.equal(initialValue(key, { ...SETUP, CloudKey: "typed" }), "typed");
});

Deno.test("initialValue() shows a saved value as text, else a fixed choice's default or first option", () => {
  assert.equal(initialValue(CLOUD.fields[1], { ...SETUP, CloudModel: "gpt" }), "gpt");
  assert.equal(initialValue(CLOUD.fields[2], { ...SETUP, CloudTokens: 4096 }), "4096");
  assert.equal(initialValue(CLOUD.fields[2], SETUP), "");
  assert.equal(initialValue(CLOUD.fields[3], SETUP), "a", "first option");
  assert.equal(initialValue(CLOUD.fields[4], SETUP), "eu", "the default wins over the first option");
  assert.equal(initialValue(CLOUD.fields[4], { ...SETUP, CloudRegion: "us" }), "us");
});

Deno.test("initialValues() holds every field of every choice", () => {
  assert.deepEqual(initialValues([CLOUD, LOCAL], { ...SETUP, LocalUrl: "http://127.0.0.1:1234" }), {
    CloudKey: "",
    CloudModel: "",
    CloudTokens: "",
    CloudTier: "a",
    CloudRegion: "eu",
    LocalUrl: "http://127.0.0.1:1234",
  });
});

Deno.test("initialChoice() starts at the saved provider, else the first choice", () => {
  assert.equal(initialChoice([CLOUD, LOCAL], "local"), "local");
  assert.equal(initialChoice([CLOUD, LOCAL], "gone"), "cloud");
  assert.equal(initialChoice([CLOUD, LOCAL], null), "cloud");
  assert.equal(initialChoice([], "local"), "");
});

Deno.test("fieldSettings() sends the chosen provider's fields trimmed, secrets as typed", () => {
  const values = {
    CloudKey: " sk-1 ",
    CloudModel: " gpt ",
    CloudTokens: "4096",
    CloudTier: "b",
    CloudRegion: "us",
    LocalUrl: "x",
  };
  assert.deepEqual(fieldSettings(CLOUD, values, [], SETUP), {
    CloudKey: " sk-1 ",
    CloudModel: "gpt",
    CloudTokens: "4096",
    CloudTier: "b",
    CloudRegion: "us",
  });
  assert.deepEqual(fieldSettings(null, values, [], SETUP), {}, "nothing chosen");
});

Deno.test("fieldSettings() leaves out locked keys and a secret still showing the mask", () => {
  const values = {
    CloudKey: MASKED_SECRET,
    CloudModel: "gpt",
    CloudTokens: "",
    CloudTier: "a",
    CloudRegion: "eu",
  };
  assert.deepEqual(fieldSettings(CLOUD, values, ["CloudTier"], SETUP), {
    CloudModel: "gpt",
    CloudRegion: "eu",
  });
  assert.equal("CloudKey" in fieldSettings(CLOUD, { ...values, CloudKey: "******" }, [], SETUP), false);
  assert.equal(
    fieldSettings(CLOUD, { ...values, CloudKey: "*****" }, [], SETUP).CloudKey,
    "*****",
    "5 stars is a key",
  );
});

Deno.test("fieldSettings() sends an emptied optional field only to clear a saved value", () => {
  const values = { LocalUrl: "  " };
  assert.deepEqual(fieldSettings(LOCAL, values, [], SETUP), {});
  assert.deepEqual(fieldSettings(LOCAL, values, [], { ...SETUP, LocalUrl: false }), {});
  assert.deepEqual(fieldSettings(LOCAL, values, [], { ...SETUP, LocalUrl: "http://old" }), { LocalUrl: "" });
  assert.deepEqual(
    fieldSettings(CLOUD, { CloudModel: "" }, [], SETUP).CloudModel,
    "",
    "a required field is sent",
  );
});

Deno.test("choiceSettings() names the choice unless locked and adds the unlocked extra settings", () => {
  assert.deepEqual(choiceSettings("LLMProvider", "ollama", []), { LLMProvider: "ollama" });
  assert.deepEqual(choiceSettings("LLMProvider", "ollama", ["LLMProvider"]), {});
  assert.deepEqual(
    choiceSettings("LLMProvider", "ollama", ["VectorDB"], { EmbeddingEngine: "native", VectorDB: "lancedb" }),
    { LLMProvider: "ollama", EmbeddingEngine: "native" },
  );
});

Deno.test("needsEmbedder() is true for LM Studio and LocalAI only", () => {
  assert.deepEqual(["lmstudio", "localai", "ollama", "openai"].map(needsEmbedder), [
    true,
    true,
    false,
    false,
  ]);
});

Deno.test("switchesDatabase() warns only when another database than the saved one is chosen", () => {
  assert.equal(switchesDatabase("lancedb", "chroma"), true);
  assert.equal(switchesDatabase("lancedb", "lancedb"), false);
  assert.equal(switchesDatabase(null, "chroma"), false, "nothing saved yet");
  assert.equal(switchesDatabase("lancedb", null), false);
});

Deno.test("matchingOptions() filters by name and description, ignoring case and surrounding spaces", () => {
  const options = [
    { id: "a", name: "OpenAI", description: "Hosted GPT models" },
    { id: "b", name: "Ollama", description: "Run models locally" },
  ];
  assert.equal(matchingOptions(options, ""), options);
  assert.equal(matchingOptions(options, "   "), options);
  assert.deepEqual(matchingOptions(options, " OLLA ").map((option) => option.id), ["b"]);
  assert.deepEqual(matchingOptions(options, "gpt").map((option) => option.id), ["a"]);
  assert.deepEqual(matchingOptions(options, "models").map((option) => option.id), ["a", "b"]);
  assert.deepEqual(matchingOptions(options, "ollama hosted"), [], "no row has both");
  assert.deepEqual(matchingOptions(options, "openai hosted").map((option) => option.id), ["a"]);
});
