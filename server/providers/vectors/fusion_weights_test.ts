import assert from "node:assert/strict";
import { nativeEmbedder } from "../embedders/native.ts";
import { neuralEmbedder } from "../embedders/neural.ts";
import { openLanceStore } from "./lancedb.ts";
import { TEXT_WEIGHT } from "./fusion.ts";
import { embedderKind, FUSION_WEIGHTS, fusionWeightsFor } from "./fusion_weights.ts";

Deno.test("fusionWeightsFor: the built-in lexical embedder keeps fusion.ts's defaults; every other embedder is dense", () => {
  assert.equal(embedderKind(nativeEmbedder()), "lexical");
  assert.deepEqual(fusionWeightsFor(nativeEmbedder()), {});
  const neural = neuralEmbedder({
    modelsDir: "/nowhere",
    modelId: "Xenova/all-MiniLM-L6-v2",
    dimensions: 384,
    maxChunkLength: 1000,
  });
  const remote = {
    ...nativeEmbedder(),
    fingerprint: "openai:text-embedding-3-small:1536",
    modelId: "text-embedding-3-small",
  };
  for (const embedder of [neural, remote]) {
    assert.equal(embedderKind(embedder), "dense");
    assert.equal(fusionWeightsFor(embedder), FUSION_WEIGHTS.dense);
  }
  // A dense model's vectors rank by meaning: their side counts more than with the lexical vectors.
  assert.ok(FUSION_WEIGHTS.dense.textWeight! < TEXT_WEIGHT);
});

Deno.test("LanceDB's hybrid search fuses with the weights it is given: BM25 leads with the lexical ones, the vectors with the dense ones", async () => {
  const directory = await Deno.makeTempDir({ prefix: "lectern-fusion-weights-" });
  const store = await openLanceStore(directory, { maintenanceDelayMs: 3_600_000 });
  try {
    const record = (id: string, text: string, vector: number[]) => ({
      id,
      docId: id,
      text,
      vector,
      metadata: {},
    });
    // Same length; "words" says cheese three times (the better BM25 score), "meaning" once but has the query's
    // vector. The two others make "cheese" rare enough to score.
    await store.upsert("ws1_weights", [
      record("words", "cheese cheese cheese aged in caves for years", [0, 1, 0, 0]),
      record("meaning", "cheese and wine made in valleys for years", [1, 0, 0, 0]),
      record("other-1", "violins are made from maple and spruce wood", [0, 0, 1, 0]),
      record("other-2", "the river floods the valley every spring now", [0, 0, 0, 1]),
    ]);
    await store.idle();
    assert.equal((await store.indexState("ws1_weights"))?.fullText, true);
    const order = async (fusion?: ReturnType<typeof fusionWeightsFor>) =>
      (await store.search("ws1_weights", [1, 0, 0, 0], { topK: 2, text: "cheese", fusion })).map((hit) =>
        hit.id
      );
    assert.deepEqual(await order(), ["words", "meaning"]);
    assert.deepEqual(await order(fusionWeightsFor(nativeEmbedder())), ["words", "meaning"]);
    assert.deepEqual(await order(FUSION_WEIGHTS.dense), ["meaning", "words"]);
  } finally {
    await store.close();
    await Deno.remove(directory, { recursive: true });
  }
});
