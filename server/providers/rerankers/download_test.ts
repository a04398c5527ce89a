import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { workspaces } from "../../../db/schema.ts";
import { NATIVE_RERANKER_MODEL } from "../../../shared/providers/reranker_catalog.ts";
import { retrieve } from "../../chat/retrieve.ts";
import { createLogger } from "../../log.ts";
import { createTestApp, type TestApp } from "../../testing/test_app.ts";
import { missingModelFiles } from "../embedders/neural.ts";
import { startFakeEmbedders } from "../embedders/testing/fake_embedders.ts";
import { writeTinyCrossEncoder } from "./testing/tiny_cross_encoder.ts";

// onnxruntime keeps native threads and handles for the life of the process.
const options = { sanitizeResources: false, sanitizeOps: false };

const DOCUMENTS = {
  "bread.txt": "how to bake sourdough bread",
  "capital.txt": "the capital is fredville",
  "cheese.txt": "small blue cheese",
};

async function atlas(app: TestApp) {
  await app.json("/api/workspace/new", { json: { name: "Atlas" } });
  for (const [name, text] of Object.entries(DOCUMENTS)) {
    const form = new FormData();
    form.append("file", new File([text], name, { type: "text/plain" }));
    const upload = await app.json<{ documents: { location: string }[] }>("/api/workspace/atlas/upload", {
      method: "POST",
      body: form,
    });
    const embedded = await app.json("/api/workspace/atlas/update-embeddings", {
      json: { adds: [upload.body.documents[0].location] },
    });
    assert.equal(embedded.status, 200, JSON.stringify(embedded.body));
  }
  const updated = await app.json("/api/workspace/atlas/update", {
    json: { topN: 1, similarityThreshold: 0, vectorSearchMode: "rerank" },
  });
  assert.equal(updated.status, 200, JSON.stringify(updated.body));
  const [row] = await app.deps.db.select().from(workspaces).where(eq(workspaces.slug, "atlas"));
  return row;
}

/** Waits (without a deadline of its own) until the model's download is no longer running. */
async function downloadEnded(app: TestApp) {
  while (app.deps.providers.embedding.models.status(NATIVE_RERANKER_MODEL).state === "downloading") {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return app.deps.providers.embedding.models.status(NATIVE_RERANKER_MODEL);
}

Deno.test({
  name:
    "accuracy-optimized search fetches the local reranker's model once from the hub; until then it keeps the search order",
  ...options,
  async fn() {
    const hubDir = await Deno.makeTempDir({ prefix: "lectern-hub-" });
    try {
      await using hub = startFakeEmbedders({ hubDir });
      const lines: string[] = [];
      await using app = await createTestApp({
        providerDeps: { endpoints: { huggingface: hub.url } },
        log: createLogger("warn", (line) => lines.push(line)),
      });
      const row = await atlas(app);
      const search = async () =>
        (await retrieve(
          app.deps,
          row,
          app.deps.providers.embedder(),
          "bake bread",
          [],
          new AbortController().signal,
        )).sources.map((source) => source.title);

      // The hub does not have the model yet: the search answers in its own order and the download fails.
      assert.deepEqual(await search(), ["bread.txt"]);
      assert.ok(
        lines.some((line) => /its download from the model hub has started/.test(line)),
        lines.join("\n"),
      );
      assert.equal((await downloadEnded(app)).state, "failed");
      assert.equal(hub.hubRequests[0], `/${NATIVE_RERANKER_MODEL}/resolve/main/config.json`);

      // Now it has: the next accuracy-optimized search starts the download again and keeps its order meanwhile.
      await writeTinyCrossEncoder(hubDir, NATIVE_RERANKER_MODEL, { fredville: 5, bread: -1 });
      assert.deepEqual(await search(), ["bread.txt"]);
      assert.ok(lines.some((line) => /the last attempt failed/.test(line)), lines.join("\n"));
      assert.equal((await downloadEnded(app)).state, "ready");
      assert.deepEqual(await missingModelFiles(app.deps.paths.models, NATIVE_RERANKER_MODEL), []);
      const fetched = hub.hubRequests.length;

      // From then on the cross-encoder reorders the candidates, and the hub is not asked again.
      assert.deepEqual(await search(), ["capital.txt"]);
      assert.deepEqual(await search(), ["capital.txt"]);
      assert.equal(hub.hubRequests.length, fetched, "the model was fetched once");
    } finally {
      await Deno.remove(hubDir, { recursive: true });
    }
  },
});
