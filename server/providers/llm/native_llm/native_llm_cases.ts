// The native provider's cases, run by native_llm_test.ts in a child `deno test` process (testing/child_tests.ts):
// they load node-llama-cpp, and a crash as `deno test` tears their isolate down must not end the whole run. The
// file's name does not end in _test.ts, so a plain `deno test` does not load it into its own process.
import assert from "node:assert/strict";
import { join } from "node:path";
import { ProviderError } from "../../../errors.ts";
import { createTestApp, readFrames } from "../../../testing/test_app.ts";
import type { ChatPart } from "../types.ts";
import { nativeChatModel, type NativeChatModelOptions } from "./chat_model.ts";
import { listNativeModels, nativeModelsDirectory } from "./models.ts";
import {
  configureNativeRuntime,
  loadedNativeModel,
  shutdownNativeRuntime,
  unloadNativeModel,
  whenNativeModelUnloaded,
} from "./runtime.ts";
import { CHATML_TEMPLATE, TINY_WORDS, writeTinyLlamaGguf } from "./testing/gguf_writer.ts";

// llama.cpp's worker threads and the addon's handles outlive a single test by design (the model stays loaded).
const native = { sanitizeOps: false, sanitizeResources: false };

// One thread: the test machines run many test files at once, and llama.cpp's threads spin while they wait.
configureNativeRuntime({ threads: 1 });
const modelsDir = nativeModelsDirectory(await Deno.makeTempDir({ prefix: "lectern-native-llm-" }));
await Deno.mkdir(modelsDir, { recursive: true });
await writeTinyLlamaGguf(join(modelsDir, "tiny.gguf"));

function model(overrides: Partial<NativeChatModelOptions> = {}) {
  return nativeChatModel({ modelsDir, modelId: "tiny.gguf", contextWindow: 256, ...overrides });
}

const messages = [
  { role: "system" as const, content: "You answer in one word." },
  { role: "user" as const, content: "Say something." },
];

async function collect(parts: AsyncIterable<ChatPart>): Promise<{ text: string[]; usage?: ChatPart }> {
  const text: string[] = [];
  let usage: ChatPart | undefined;
  for await (const part of parts) {
    if (part.type === "text-delta") text.push(part.text);
    else usage = part;
  }
  return { text, usage };
}

Deno.test("the lookup lists the .gguf files of the folder by name", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(join(dir, "b-model.GGUF"), "x");
  await Deno.writeTextFile(join(dir, "a-model.gguf"), "x");
  await Deno.writeTextFile(join(dir, "notes.txt"), "x");
  await Deno.writeTextFile(join(dir, ".partial.gguf"), "x");
  await Deno.mkdir(join(dir, "folder.gguf"));
  await Deno.symlink(join(modelsDir, "tiny.gguf"), join(dir, "linked.gguf"));
  await Deno.symlink(join(dir, "gone"), join(dir, "broken.gguf"));
  assert.deepEqual(await listNativeModels(dir), [
    { id: "a-model.gguf", name: "a-model.gguf" },
    { id: "b-model.GGUF", name: "b-model.GGUF" },
    { id: "linked.gguf", name: "linked.gguf" },
  ]);
  assert.deepEqual(await listNativeModels(join(dir, "missing")), []);
  assert.deepEqual(await listNativeModels(modelsDir), [{ id: "tiny.gguf", name: "tiny.gguf" }]);
  await Deno.remove(dir, { recursive: true });
});

Deno.test({
  name: "the tiny model is loaded on first use and streams words, then reports usage",
  ...native,
  fn: async () => {
    await unloadNativeModel();
    assert.equal(loadedNativeModel(), null);
    const chat = model();
    assert.equal(chat.providerId, "native");
    assert.equal(chat.contextWindow, 256);
    assert.equal(chat.maxTokens, 128);
    const { text, usage } = await collect(
      chat.stream({ messages, maxTokens: 6, temperature: 0 }, new AbortController().signal),
    );
    assert.deepEqual(loadedNativeModel(), { path: join(modelsDir, "tiny.gguf"), contextSize: 256 });
    const words = text.join("").trim().split(/\s+/);
    assert.equal(words.length, 6, `six words, got ${JSON.stringify(text)}`);
    for (const word of words) assert.ok((TINY_WORDS as readonly string[]).includes(word), word);
    assert.ok(usage?.type === "usage");
    assert.equal(usage.outputTokens, 6);
    // The prompt's system and user texts are spelled out byte by byte in this vocabulary.
    assert.ok(usage.inputTokens > "You answer in one word.Say something.".length, String(usage.inputTokens));

    // Greedy decoding of the same prompt says the same again.
    const again = await collect(
      chat.stream({ messages, maxTokens: 6, temperature: 0 }, new AbortController().signal),
    );
    assert.equal(again.text.join(""), text.join(""));
  },
});

Deno.test({
  name: "an abort mid-stream stops the generation and frees the model for the next answer",
  ...native,
  fn: async () => {
    const chat = model();
    const controller = new AbortController();
    const seen: string[] = [];
    await assert.rejects(
      async () => {
        for await (
          const part of chat.stream({ messages, maxTokens: 120, temperature: 0 }, controller.signal)
        ) {
          if (part.type === "text-delta") seen.push(part.text);
          if (seen.length === 2) controller.abort(new DOMException("The reader left.", "AbortError"));
        }
      },
      (error: Error) => error.name === "AbortError" && error.message === "The reader left.",
    );
    assert.equal(seen.length, 2);

    // A reader that stops reading (break) also ends the generation; the next answer is not kept waiting.
    for await (const part of chat.stream({ messages, maxTokens: 120 }, new AbortController().signal)) {
      if (part.type === "text-delta") break;
    }
    const { usage } = await collect(
      chat.stream({ messages, maxTokens: 3, temperature: 0 }, AbortSignal.timeout(60_000)),
    );
    assert.ok(usage?.type === "usage");
    assert.equal(usage.outputTokens, 3);
  },
});

Deno.test({
  name: "an aborted signal before the start ends the answer without generating",
  ...native,
  fn: async () => {
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(() => collect(model().stream({ messages }, controller.signal)), {
      name: "AbortError",
    });
  },
});

Deno.test({
  name: "answers asked at once are generated one after another, each complete",
  ...native,
  fn: async () => {
    const chat = model();
    const runs = await Promise.all(
      [1, 2, 3].map(() =>
        collect(chat.stream({ messages, maxTokens: 4, temperature: 0 }, new AbortController().signal))
      ),
    );
    for (const run of runs) {
      assert.ok(run.usage?.type === "usage");
      assert.equal(run.usage.outputTokens, 4);
      assert.equal(run.text.join(""), runs[0].text.join(""));
    }
  },
});

Deno.test({
  name: "the model is unloaded after its idle time, and loaded again on the next answer",
  ...native,
  fn: async () => {
    const chat = model({ idleSeconds: 0 });
    await collect(chat.stream({ messages, maxTokens: 2 }, new AbortController().signal));
    await whenNativeModelUnloaded();
    assert.equal(loadedNativeModel(), null);
    const { usage } = await collect(chat.stream({ messages, maxTokens: 2 }, new AbortController().signal));
    assert.ok(usage?.type === "usage");
    assert.equal(usage.outputTokens, 2);
    await whenNativeModelUnloaded();
    assert.equal(loadedNativeModel(), null);
  },
});

Deno.test({
  name: "another model, or another context size, replaces the one in memory",
  ...native,
  fn: async () => {
    await writeTinyLlamaGguf(join(modelsDir, "other.gguf"), { seed: 7 });
    await collect(model().stream({ messages, maxTokens: 1 }, new AbortController().signal));
    await collect(
      model({ modelId: "other.gguf" }).stream({ messages, maxTokens: 1 }, new AbortController().signal),
    );
    assert.deepEqual(loadedNativeModel(), { path: join(modelsDir, "other.gguf"), contextSize: 256 });
    await collect(
      model({ modelId: "other.gguf", contextWindow: 128 }).stream(
        { messages, maxTokens: 1 },
        new AbortController().signal,
      ),
    );
    assert.deepEqual(loadedNativeModel(), { path: join(modelsDir, "other.gguf"), contextSize: 128 });
    await Deno.remove(join(modelsDir, "other.gguf"));
  },
});

Deno.test({
  name: "a missing, misnamed or damaged model file fails with a sentence naming it",
  ...native,
  fn: async () => {
    const signal = new AbortController().signal;
    const failure = async (modelId: string) => {
      try {
        await collect(model({ modelId }).stream({ messages }, signal));
      } catch (error) {
        assert.ok(error instanceof ProviderError, String(error));
        assert.match(error.message, /\.$/);
        return error.message;
      }
      assert.fail(`${modelId} gave an answer`);
    };
    assert.equal(
      await failure("absent.gguf"),
      `The local model absent.gguf was not found in ${modelsDir}: copy the .gguf file there, or choose another ` +
        "model in Settings → LLM.",
    );
    assert.equal(
      await failure("../tiny.gguf"),
      `The local model "../tiny.gguf" is not the name of a .gguf file in ${modelsDir}.`,
    );
    assert.equal(await failure(""), "No local model is chosen: pick a .gguf file in Settings → LLM.");

    await Deno.writeTextFile(join(modelsDir, "notes.gguf"), "These are not weights.\n".repeat(100));
    assert.match(
      await failure("notes.gguf"),
      /^Cannot load the local model notes\.gguf: .+ The file may be damaged/,
    );
    // A real model cut short.
    const whole = await Deno.readFile(join(modelsDir, "tiny.gguf"));
    await Deno.writeFile(join(modelsDir, "cut.gguf"), whole.subarray(0, whole.length / 2));
    assert.match(
      await failure("cut.gguf"),
      /^Cannot load the local model cut\.gguf: .+ llama\.cpp says: .*not within the file bounds.* The file may be damaged/,
    );
    await Deno.remove(join(modelsDir, "notes.gguf"));
    await Deno.remove(join(modelsDir, "cut.gguf"));

    // The failures left nothing half-loaded in the way of a good model.
    const { usage } = await collect(model().stream({ messages, maxTokens: 1 }, signal));
    assert.ok(usage?.type === "usage");
  },
});

Deno.test({
  name: "a model that carries its chat template (ChatML) is prompted through it",
  ...native,
  fn: async () => {
    await writeTinyLlamaGguf(join(modelsDir, "chatml.gguf"), { chatTemplate: CHATML_TEMPLATE });
    const short = [{ role: "system" as const, content: "Be brief." }, {
      role: "user" as const,
      content: "hi",
    }];
    const { text, usage } = await collect(
      model({ modelId: "chatml.gguf" }).stream(
        { messages: short, maxTokens: 4, temperature: 0 },
        new AbortController().signal,
      ),
    );
    assert.equal(text.join("").trim().split(/\s+/).length, 4);
    // <s>, five <|im_…|> control tokens, and the 35 characters of "system\nBe brief.\n user\nhi\n assistant\n" (one
    // token each in this vocabulary) plus a word-start mark per segment: 46. Spelled out, the 5 markers alone would be 60.
    assert.ok(usage?.type === "usage");
    assert.equal(usage.inputTokens, 46);
    await Deno.remove(join(modelsDir, "chatml.gguf"));
  },
});

Deno.test({
  name:
    "the built-in model: the lookup lists the .gguf files of the models folder and a workspace chat runs one",
  ...native,
  async fn() {
    await using app = await createTestApp();
    try {
      const folder = nativeModelsDirectory(app.deps.paths.models);
      await Deno.mkdir(folder, { recursive: true });
      await writeTinyLlamaGguf(join(folder, "tiny.gguf"), { contextLength: 4096 });
      const lookup = await app.json<{ models: { id: string }[] }>("/api/system/custom-models", {
        json: { provider: "native-llm" },
      });
      assert.equal(lookup.status, 200, JSON.stringify(lookup.body));
      assert.deepEqual(lookup.body.models.map((model) => model.id), ["tiny.gguf"]);
      // Chosen in the settings as a person does (update-env), then used by a workspace chat.
      const saved = await app.json("/api/system/update-env", {
        json: {
          VectorDB: "lancedb",
          LLMProvider: "native",
          NativeLLMModelPref: "tiny.gguf",
          NativeLLMTokenLimit: "4096",
        },
      });
      assert.equal(saved.status, 200, JSON.stringify(saved.body));
      await app.json("/api/workspace/new", { json: { name: "P" } });
      const frames = await readFrames(
        await app.request("/api/workspace/p/stream-chat", {
          method: "POST",
          body: JSON.stringify({ message: "Hello?" }),
        }),
      );
      assert.equal(frames.find((frame) => frame.type === "abort"), undefined, JSON.stringify(frames.at(-1)));
      assert.ok(frames.some((frame) => frame.type === "finalizeResponseStream"), "the answer finished");
      assert.deepEqual(loadedNativeModel(), { path: join(folder, "tiny.gguf"), contextSize: 4096 });
    } finally {
      await unloadNativeModel();
    }
  },
});

Deno.test({ name: "the runtime shuts down", ...native, fn: () => shutdownNativeRuntime() });
