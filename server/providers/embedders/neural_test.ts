import assert from "node:assert/strict";
import { join } from "node:path";
import { NATIVE_NEURAL_MODEL } from "../../../shared/providers/embedder_catalog.ts";
import { downloadModel, ModelDownloads } from "./model_download.ts";
import { missingModelFiles, neuralEmbedder } from "./neural.ts";
import { embedderFromSettings } from "./registry.ts";
import { startFakeEmbedders } from "./testing/fake_embedders.ts";
import { writeTinyModel } from "./testing/tiny_model.ts";

const cosine = (a: number[], b: number[]) => a.reduce((sum, value, index) => sum + value * b[index], 0);
// onnxruntime keeps native threads and handles for the life of the process.
const options = { sanitizeResources: false, sanitizeOps: false };

Deno.test({
  name: "the neural embedder loads a model from STORAGE_DIR/models and runs it offline",
  ...options,
  async fn() {
    const modelsDir = await Deno.makeTempDir({ prefix: "lectern-models-" });
    try {
      const model = await writeTinyModel(modelsDir, NATIVE_NEURAL_MODEL);
      const embedder = embedderFromSettings({
        value: (key) =>
          ({ EmbeddingEngine: "native", EmbeddingModelPref: NATIVE_NEURAL_MODEL } as Record<string, string>)[
            key
          ],
      }, { modelsDir });
      assert.equal(embedder.fingerprint, `native:${NATIVE_NEURAL_MODEL}:384`);
      assert.equal(embedder.maxChunkLength, 1000);
      const [document, related, unrelated] = await embedder.embed([
        "The capital of Freedonia is Fredville, on the blue river.",
        "What is the capital of Freedonia?",
        "How to bake sourdough bread",
      ]);
      assert.equal(document.length, model.dimensions);
      assert.ok(Math.abs(cosine(document, document) - 1) < 1e-5, "unit length");
      assert.ok(cosine(document, related) > cosine(document, unrelated) + 0.3);
      const query = await embedder.embedQuery("capital of Freedonia");
      assert.ok(cosine(query, related) > cosine(query, unrelated));
      assert.deepEqual(await embedder.embed([]), []);
    } finally {
      await Deno.remove(modelsDir, { recursive: true });
    }
  },
});

Deno.test({
  name: "a model whose files are missing fails with a message naming them and how to get them",
  ...options,
  async fn() {
    const modelsDir = await Deno.makeTempDir({ prefix: "lectern-models-" });
    try {
      const embedder = neuralEmbedder({
        modelsDir,
        modelId: NATIVE_NEURAL_MODEL,
        dimensions: 384,
        maxChunkLength: 1000,
      });
      await assert.rejects(
        () => embedder.embed(["hello"]),
        /all-MiniLM-L6-v2 is not installed: .* lacks config\.json, tokenizer\.json, tokenizer_config\.json, onnx\/model_quantized\.onnx\. Download it in Settings → Embedder/,
      );
      await writeTinyModel(modelsDir, NATIVE_NEURAL_MODEL);
      await Deno.remove(join(modelsDir, NATIVE_NEURAL_MODEL, "onnx", "model_quantized.onnx"));
      assert.deepEqual(await missingModelFiles(modelsDir, NATIVE_NEURAL_MODEL), [
        "onnx/model_quantized.onnx",
      ]);
      await assert.rejects(() => embedder.embed(["hello"]), /lacks onnx\/model_quantized\.onnx/);
    } finally {
      await Deno.remove(modelsDir, { recursive: true });
    }
  },
});

Deno.test({
  name: "a model is fetched once from the hub into place; a failed download leaves nothing behind",
  ...options,
  async fn() {
    const hubDir = await Deno.makeTempDir({ prefix: "lectern-hub-" });
    const modelsDir = await Deno.makeTempDir({ prefix: "lectern-models-" });
    try {
      await writeTinyModel(hubDir, NATIVE_NEURAL_MODEL);
      await using hub = startFakeEmbedders({ hubDir });

      await assert.rejects(
        () => downloadModel("Xenova/not-there", modelsDir, { hubUrl: hub.url }),
        /resolve\/main\/config\.json answered 404/,
      );
      assert.deepEqual([...Deno.readDirSync(modelsDir)], [], "no partial folder");

      const downloads = new ModelDownloads(modelsDir, { hubUrl: hub.url });
      const running = downloads.start(NATIVE_NEURAL_MODEL);
      assert.equal(downloads.status(NATIVE_NEURAL_MODEL).state, "downloading");
      await running;
      const status = downloads.status(NATIVE_NEURAL_MODEL);
      assert.equal(status.state, "ready", status.error ?? "");
      assert.ok(status.receivedBytes > 0);
      assert.deepEqual(await missingModelFiles(modelsDir, NATIVE_NEURAL_MODEL), []);
      const embedder = neuralEmbedder({
        modelsDir,
        modelId: NATIVE_NEURAL_MODEL,
        dimensions: 384,
        maxChunkLength: 1000,
      });
      assert.equal((await embedder.embed(["capital"]))[0].length, 16);
    } finally {
      await Deno.remove(hubDir, { recursive: true });
      await Deno.remove(modelsDir, { recursive: true });
    }
  },
});
