import assert from "node:assert/strict";
import { createTestApp } from "../testing/test_app.ts";
import { addUser, bearer, multiUserInstance } from "../testing/accounts.ts";
import type { EmbedderDeps } from "../providers/embedders/registry.ts";
import { startFakeEmbedders } from "../providers/embedders/testing/fake_embedders.ts";
import { writeTinyModel } from "../providers/embedders/testing/tiny_model.ts";
import { NATIVE_NEURAL_MODEL } from "../../shared/providers/embedder_catalog.ts";
import type { NativeModelsAnswer } from "../../shared/api/embedding.ts";

const LABELS = "text_splitter_chunk_size,text_splitter_chunk_overlap,max_embed_chunk_size,unknown_label";

Deno.test("text splitter preferences: defaults, validated saves, the embedder's maximum", async () => {
  await using app = await createTestApp();
  const read = async () =>
    (await app.json<{ settings: Record<string, unknown> }>(
      `/api/admin/system-preferences-for?labels=${LABELS}`,
    ))
      .body.settings;
  assert.deepEqual(await read(), {
    text_splitter_chunk_size: 1000,
    text_splitter_chunk_overlap: 20,
    max_embed_chunk_size: 1000,
  });

  const saved = await app.json("/api/admin/system-preferences", {
    json: { text_splitter_chunk_size: "400", text_splitter_chunk_overlap: 40 },
  });
  assert.deepEqual(saved, { status: 200, body: { success: true, error: null } });
  assert.deepEqual(await read(), {
    text_splitter_chunk_size: 400,
    text_splitter_chunk_overlap: 40,
    max_embed_chunk_size: 1000,
  });

  const refusals: [unknown, RegExp][] = [
    [{ text_splitter_chunk_size: 0 }, /chunk size must be a whole number of at least 1/],
    [{ text_splitter_chunk_size: 1001 }, /cannot be larger than the embedder's maximum of 1000 characters/],
    [{ text_splitter_chunk_overlap: 400 }, /overlap must be smaller than the chunk size/],
    [{ text_splitter_chunk_size: 10, text_splitter_chunk_overlap: -1 }, /overlap must be a whole number/],
    [{ text_splitter_chunk_size: 2.5 }, /whole number/],
    [{ text_splitter_chunk_size: "abc" }, /must be a number/],
    [{ agent_search_provider: "x" }, /Unrecognized key: "agent_search_provider"\./],
    ["not json", /not valid JSON/],
  ];
  for (const [json, message] of refusals) {
    const answer = await app.json<{ success: boolean; error: string }>("/api/admin/system-preferences", {
      json,
    });
    assert.equal(answer.status, 400, JSON.stringify(json));
    assert.equal(answer.body.success, false);
    assert.match(answer.body.error, message, JSON.stringify(json));
  }
  assert.equal((await read()).text_splitter_chunk_size, 400, "a refused save changes nothing");

  // An embedder with a larger maximum allows larger chunks.
  await using fake = startFakeEmbedders({ dimensions: 8 });
  await app.json("/api/system/update-env", {
    json: {
      EmbeddingEngine: "generic-openai",
      EmbeddingBasePath: `${fake.url}/v1`,
      EmbeddingModelPref: "m",
      EmbeddingModelMaxChunkLength: "4000",
    },
  });
  assert.equal((await read()).max_embed_chunk_size, 4000);
  const larger = await app.json("/api/admin/system-preferences", {
    json: { text_splitter_chunk_size: 3000 },
  });
  assert.equal(larger.status, 200);
  assert.equal((await read()).text_splitter_chunk_overlap, 40, "the overlap is kept");
});

Deno.test("system preferences: admins save, managers read, default users neither", async () => {
  await using app = await createTestApp();
  const admin = await multiUserInstance(app);
  const manager = await addUser(app, admin, "manager1", "manager");
  const member = await addUser(app, admin, "member1", "default");
  const url = "/api/admin/system-preferences-for?labels=text_splitter_chunk_size";
  assert.equal((await app.json(url, bearer(manager.token))).status, 200);
  assert.equal((await app.json(url, bearer(member.token))).status, 403);
  const save = (token: string) =>
    app.json("/api/admin/system-preferences", { ...bearer(token), json: { text_splitter_chunk_size: 500 } });
  assert.equal((await save(manager.token)).status, 403);
  assert.equal((await save(member.token)).status, 403);
  assert.equal((await save(admin.token)).status, 200);
  assert.equal((await app.json("/api/system/embedding-jobs/progress", bearer(manager.token))).status, 403);
  assert.equal((await app.json("/api/system/embedding-jobs", bearer(manager.token))).status, 200);
});

Deno.test("native models: listed with their state; the neural one downloads from the hub and is then used", async () => {
  const hubDir = await Deno.makeTempDir({ prefix: "lectern-hub-" });
  try {
    await writeTinyModel(hubDir, NATIVE_NEURAL_MODEL);
    await using hub = startFakeEmbedders({ hubDir });
    const providerDeps: EmbedderDeps = { endpoints: { huggingface: hub.url } };
    await using app = await createTestApp({ providerDeps });
    const list = async () =>
      (await app.json<NativeModelsAnswer>("/api/system/native-embedding-models")).body.models;
    const before = await list();
    assert.deepEqual(before.map((model) => [model.id, model.builtIn, model.installed]), [
      ["lectern-lexical-v1", true, true],
      [NATIVE_NEURAL_MODEL, false, false],
    ]);

    // Choosing the model before it is installed fails the switch with the reason; the lexical one stays.
    await app.json("/api/workspace/new", { json: { name: "Atlas" } });
    const form = new FormData();
    form.append("file", new File(["Herons eat fish."], "herons.txt"));
    const uploaded = await app.json<{ documents: { location: string }[] }>("/api/workspace/atlas/upload", {
      method: "POST",
      body: form,
    });
    await app.json("/api/workspace/atlas/update-embeddings", {
      json: { adds: [uploaded.body.documents[0].location] },
    });
    await app.json("/api/system/update-env", {
      json: { EmbeddingEngine: "native", EmbeddingModelPref: NATIVE_NEURAL_MODEL },
    });
    const waitJob = async (state: string) => {
      for (let tries = 0; tries < 500; tries++) {
        const { body } = await app.json<{ job: { state: string; error: string | null } | null }>(
          "/api/system/embedding-jobs",
        );
        if (body.job?.state === state) return body;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      throw new Error(`the job never reached ${state}`);
    };
    const failed = await waitJob("failed");
    assert.match(String(failed.job?.error), /all-MiniLM-L6-v2 is not installed/);

    const refused = await app.json("/api/system/native-embedding-models/download", {
      json: { model: "lectern-lexical-v1" },
    });
    assert.equal(refused.status, 400);
    // Not a model id at all: a sentence, not "[object Object]" nor a 500 from printing it.
    for (const model of [{ toString: "x" }, ["a"], 7]) {
      const odd = await app.json("/api/system/native-embedding-models/download", { json: { model } });
      assert.equal(odd.status, 400, JSON.stringify(model));
      assert.equal(odd.body.error, "model must be the id of a native embedding model.");
    }
    const started = await app.json("/api/system/native-embedding-models/download", {
      json: { model: NATIVE_NEURAL_MODEL },
    });
    assert.equal(started.status, 202);
    for (let tries = 0; tries < 500 && !(await list())[1].installed; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const after = (await list())[1];
    assert.equal(after.installed, true);
    assert.equal(after.download.state, "ready");

    await app.json("/api/system/embedding-jobs/retry", { method: "POST" });
    await waitJob("done");
    assert.equal(app.deps.providers.embedder().modelId, NATIVE_NEURAL_MODEL);
  } finally {
    await Deno.remove(hubDir, { recursive: true });
  }
});
