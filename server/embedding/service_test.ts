import assert from "node:assert/strict";
import { createTestApp, genericOpenAiSettings, readFrames, type TestApp } from "../testing/test_app.ts";
import { startFakeOpenAi } from "../testing/fake_openai.ts";
import type { EmbedderDeps } from "../providers/embedders/registry.ts";
import { startFakeEmbedders } from "../providers/embedders/testing/fake_embedders.ts";
import { workspaceNamespace } from "../providers/vectors/namespace.ts";
import type { EmbeddingJobsAnswer, EmbeddingProgressFrame } from "../../shared/api/embedding.ts";

const quick: EmbedderDeps = { retry: { baseDelayMs: 1, maxDelayMs: 5, attempts: 2 } };

async function waitFor(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000) {
  const until = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > until) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function uploadText(app: TestApp, name: string, text: string): Promise<string> {
  const form = new FormData();
  form.append("file", new File([text], name));
  const answer = await app.json<{ documents: { location: string }[] }>("/api/workspace/atlas/upload", {
    method: "POST",
    body: form,
  });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body.documents[0].location;
}

async function embed(app: TestApp, adds: string[]) {
  const answer = await app.json<{ message: string | null }>("/api/workspace/atlas/update-embeddings", {
    json: { adds },
  });
  assert.equal(answer.body.message, null);
}

/** The titles the assistant cites for a question. */
async function citedTitles(app: TestApp, message: string): Promise<string[]> {
  const frames = await readFrames(
    await app.request("/api/workspace/atlas/stream-chat", {
      method: "POST",
      body: JSON.stringify({ message }),
    }),
  );
  const closing = frames.find((frame) => frame.type === "textResponseChunk" && frame.close === true);
  assert.ok(closing, JSON.stringify(frames));
  return (closing.sources as { title: string }[]).map((source) => source.title);
}

async function jobs(app: TestApp) {
  return (await app.json<EmbeddingJobsAnswer>("/api/system/embedding-jobs")).body;
}

async function vectorCount(app: TestApp, fingerprint: string) {
  const { body } = await app.json<{ workspace: { id: number } }>("/api/workspace/atlas");
  return await app.deps.vectors.count(workspaceNamespace(body.workspace.id, { fingerprint } as never));
}

const DOCUMENTS = {
  "herons.txt": "Herons eat fish and frogs. The grey heron nests in colonies near rivers.",
  "owls.txt": "Owls hunt mice at night. The barn owl has a heart-shaped face.",
  "cranes.txt": "Cranes dance in spring. The common crane migrates south in autumn.",
};

async function instance(llmUrl: string, storageDir?: string) {
  const app = await createTestApp({ providerDeps: quick, storageDir });
  await app.json("/api/system/update-env", { json: genericOpenAiSettings(llmUrl) });
  return app;
}

function newEmbedder(url: string, model = "new-model") {
  return { EmbeddingEngine: "generic-openai", EmbeddingBasePath: `${url}/v1`, EmbeddingModelPref: model };
}

Deno.test("re-embedding: chat cites from the old vectors during the job and from the new ones after the switch", async () => {
  await using llm = startFakeOpenAi();
  await using embeddings = startFakeEmbedders({ dimensions: 384 });
  await using app = await instance(llm.baseURL);
  await app.json("/api/workspace/new", { json: { name: "Atlas" } });
  const herons = await uploadText(app, "herons.txt", DOCUMENTS["herons.txt"]);
  const owls = await uploadText(app, "owls.txt", DOCUMENTS["owls.txt"]);
  await embed(app, [herons, owls]);
  const native = app.deps.providers.embedder().fingerprint;
  assert.ok((await citedTitles(app, "What do herons eat?")).includes("herons.txt"));
  assert.equal(embeddings.requests.length, 0);

  // The fake lets the first document through and holds the second, so the job stays half done.
  const gate = embeddings.hold(1);
  const saved = await app.json("/api/system/update-env", { json: newEmbedder(embeddings.url) });
  assert.equal(saved.status, 200);
  await waitFor(() => gate.waiting() === 1, "the job to reach the second document");
  const during = await jobs(app);
  assert.equal(during.job?.state, "running");
  assert.equal(during.job?.total, 2);
  assert.equal(during.job?.engine, "generic-openai");
  assert.equal(during.active.fingerprint, native, "chat still uses the old embedder");
  assert.equal(
    app.deps.providers.targetEmbedder()?.fingerprint,
    `generic-openai:${embeddings.url}/v1:new-model`,
  );

  const asked = embeddings.requests.length;
  assert.ok((await citedTitles(app, "What do herons eat?")).includes("herons.txt"));
  assert.equal(embeddings.requests.length, asked, "the question was embedded by the old embedder");

  // A document added during the job goes to the old embedder now and to the new one before the switch.
  const cranes = await uploadText(app, "cranes.txt", DOCUMENTS["cranes.txt"]);
  await embed(app, [cranes]);
  assert.ok((await citedTitles(app, "When do cranes dance?")).includes("cranes.txt"));

  const stream = app.request("/api/system/embedding-jobs/progress");
  gate.release();
  const frames = await readFrames(await stream) as EmbeddingProgressFrame[];
  assert.equal(frames[0].type, "progress");
  const last = frames.at(-1)!;
  assert.equal(last.type, "done", JSON.stringify(frames));
  assert.deepEqual([last.done, last.total, last.failed], [3, 3, 0]);
  for (const frame of frames) {
    assert.deepEqual(Object.keys(frame).sort(), ["done", "failed", "jobId", "total", "type"]);
  }

  const after = await jobs(app);
  assert.equal(after.job?.state, "done");
  assert.equal(after.active.engine, "generic-openai");
  const fresh = app.deps.providers.embedder().fingerprint;
  assert.notEqual(fresh, native);
  assert.equal(app.deps.providers.targetEmbedder(), null);
  assert.equal(await vectorCount(app, native), 0, "the old vectors are dropped");
  assert.equal(await vectorCount(app, fresh), 3);

  const before = embeddings.requests.length;
  assert.ok((await citedTitles(app, "When do cranes dance?")).includes("cranes.txt"));
  assert.deepEqual(
    embeddings.inputs().slice(before),
    [["When do cranes dance?"]],
    "the new embedder asks now",
  );
  assert.ok((await citedTitles(app, "What do owls hunt?")).includes("owls.txt"));

  // The progress stream of an idle instance says so and ends.
  const idle = await readFrames(await app.request("/api/system/embedding-jobs/progress"));
  assert.equal(idle.length, 1);
  assert.equal(idle[0].type, "idle");
});

Deno.test("a failed re-embedding keeps the old embedder with the reason; a retry then switches", async () => {
  await using llm = startFakeOpenAi();
  // 384 dimensions: the chat below must cite herons.txt at any upload time (fake_embedders.ts vectorFor).
  await using embeddings = startFakeEmbedders({ dimensions: 384 });
  await using app = await instance(llm.baseURL);
  await app.json("/api/workspace/new", { json: { name: "Atlas" } });
  const herons = await uploadText(app, "herons.txt", DOCUMENTS["herons.txt"]);
  await embed(app, [herons]);
  const native = app.deps.providers.embedder().fingerprint;

  embeddings.failNext(401);
  await app.json("/api/system/update-env", { json: newEmbedder(embeddings.url) });
  await waitFor(async () => (await jobs(app)).job?.state !== "running", "the job to end");
  const failed = await jobs(app);
  assert.equal(failed.job?.state, "failed");
  assert.match(String(failed.job?.error), /generic-openai embedder answered 401: Scripted failure 401/);
  assert.equal(failed.active.fingerprint, native);
  assert.equal(
    await vectorCount(app, `generic-openai:${embeddings.url}/v1:new-model`),
    0,
    "no half-made index",
  );
  assert.ok((await citedTitles(app, "What do herons eat?")).includes("herons.txt"));

  const retried = await app.json("/api/system/embedding-jobs/retry", { method: "POST" });
  assert.equal(retried.status, 200);
  await waitFor(async () => (await jobs(app)).job?.state === "done", "the retried job to finish");
  assert.equal((await jobs(app)).active.engine, "generic-openai");
  assert.ok((await citedTitles(app, "What do herons eat?")).includes("herons.txt"));
});

Deno.test("settings that cannot build an embedder fail at once; setting the old one back cancels a job", async () => {
  await using llm = startFakeOpenAi();
  await using embeddings = startFakeEmbedders({ dimensions: 64 });
  await using app = await instance(llm.baseURL);
  await app.json("/api/workspace/new", { json: { name: "Atlas" } });
  await embed(app, [await uploadText(app, "herons.txt", DOCUMENTS["herons.txt"])]);
  const native = app.deps.providers.embedder().fingerprint;

  await app.json("/api/system/update-env", { json: { EmbeddingEngine: "openai" } });
  const unconfigured = await jobs(app);
  assert.equal(unconfigured.job?.state, "failed");
  assert.match(String(unconfigured.job?.error), /OpenAI embedder is not configured: OpenAiKey is not set/);
  assert.equal(unconfigured.active.fingerprint, native);

  const gate = embeddings.hold(0);
  await app.json("/api/system/update-env", { json: newEmbedder(embeddings.url) });
  await waitFor(() => gate.waiting() === 1, "the job to start embedding");
  await app.json("/api/system/update-env", { json: { EmbeddingEngine: "native" } });
  const back = await jobs(app);
  assert.equal(back.job?.state, "cancelled");
  assert.equal(back.active.fingerprint, native);
  gate.release();
  assert.equal(await vectorCount(app, `generic-openai:${embeddings.url}/v1:new-model`), 0);
});

Deno.test("a job the server stopped during starts again at the next start, reusing what was cached", async () => {
  await using llm = startFakeOpenAi();
  await using embeddings = startFakeEmbedders({ dimensions: 64 });
  const storageDir = await Deno.makeTempDir({ prefix: "lectern-reembed-" });
  try {
    {
      await using app = await instance(llm.baseURL, storageDir);
      await app.json("/api/workspace/new", { json: { name: "Atlas" } });
      const locations = [];
      for (const [name, text] of Object.entries(DOCUMENTS)) locations.push(await uploadText(app, name, text));
      await embed(app, locations);
      const gate = embeddings.hold(2);
      await app.json("/api/system/update-env", { json: newEmbedder(embeddings.url) });
      await waitFor(() => gate.waiting() === 1, "two documents to be embedded");
      gate.release();
    }
    const first = embeddings.requests.length;
    await using again = await createTestApp({ providerDeps: quick, storageDir });
    await waitFor(async () => (await jobs(again)).job?.state === "done", "the resumed job");
    assert.equal(embeddings.requests.length - first, 1, "only the third document needed the embedder");
    assert.equal((await jobs(again)).active.engine, "generic-openai");
  } finally {
    await Deno.remove(storageDir, { recursive: true });
  }
});
