import assert from "node:assert/strict";
import { createTestApp, type TestApp, uploadText } from "../testing/test_app.ts";
import type { EmbedderDeps } from "../providers/embedders/registry.ts";
import { startFakeEmbedders } from "../providers/embedders/testing/fake_embedders.ts";
import { workspaceNamespace } from "../providers/vectors/namespace.ts";
import { embeddedChunks } from "./ingest.ts";
import type { DocumentJson } from "./store.ts";

const quick: EmbedderDeps = { retry: { baseDelayMs: 1, maxDelayMs: 5 } };

/** Sentences about numbered topics: long enough for several chunks at a small chunk size. */
function longText(sentences: number): string {
  return Array.from({ length: sentences }, (_, index) => `Topic ${index} is about river number ${index}.`)
    .join(" ");
}

async function embedInto(app: TestApp, slug: string, adds: string[]) {
  const answer = await app.json<{ message: string | null }>(`/api/workspace/${slug}/update-embeddings`, {
    json: { adds },
  });
  assert.equal(answer.status, 200);
  return answer.body.message;
}

/** An instance embedding through the fake's OpenAI-compatible API, with 200-character chunks. */
async function instance(fakeUrl: string, extra: Record<string, string> = {}) {
  const app = await createTestApp({ providerDeps: quick });
  const saved = await app.json("/api/system/update-env", {
    json: {
      EmbeddingEngine: "generic-openai",
      EmbeddingBasePath: `${fakeUrl}/v1`,
      EmbeddingModelPref: "fake-embed",
      ...extra,
    },
  });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
  const splitter = await app.json("/api/admin/system-preferences", {
    json: { text_splitter_chunk_size: 200, text_splitter_chunk_overlap: 0 },
  });
  assert.equal(splitter.status, 200, JSON.stringify(splitter.body));
  for (const name of ["Alpha", "Beta"]) await app.json("/api/workspace/new", { json: { name } });
  return app;
}

Deno.test("re-adding a document to any workspace reuses the vector cache instead of the embedder", async () => {
  await using fake = startFakeEmbedders({ dimensions: 16 });
  await using app = await instance(fake.url);
  const location = await uploadText(app, "alpha", "rivers.txt", longText(20));

  assert.equal(await embedInto(app, "alpha", [location]), null);
  const calls = fake.requests.length;
  const chunks = fake.inputs().flat();
  assert.ok(chunks.length >= 4, `several chunks (${chunks.length})`);
  assert.ok(chunks.every((text) => text.startsWith("<document_metadata>\nsourceDocument: rivers.txt\n")));
  assert.ok(chunks.every((text) => text.length <= 200 + text.indexOf("</document_metadata>") + 22));
  const cacheFiles = [...Deno.readDirSync(app.deps.paths.vectorCache)];
  assert.equal(cacheFiles.length, 1);

  assert.equal(await embedInto(app, "beta", [location]), null);
  assert.equal(fake.requests.length, calls, "the second workspace took the cached vectors");
  const embedder = app.deps.providers.embedder();
  const [alpha, beta] = await Promise.all(["alpha", "beta"].map(async (slug) => {
    const { body } = await app.json<{ workspace: { id: number } }>(`/api/workspace/${slug}`);
    return await app.deps.vectors.count(workspaceNamespace(body.workspace.id, embedder));
  }));
  assert.equal(alpha, chunks.length);
  assert.equal(beta, chunks.length);

  await app.json(`/api/workspace/alpha/update-embeddings`, { json: { deletes: [location] } });
  assert.equal(await embedInto(app, "alpha", [location]), null);
  assert.equal(fake.requests.length, calls, "removing and adding again costs nothing either");

  // New splitter settings purge the cache: the next add embeds again.
  await app.json("/api/admin/system-preferences", { json: { text_splitter_chunk_size: 300 } });
  assert.deepEqual([...Deno.readDirSync(app.deps.paths.vectorCache)], []);
  await app.json(`/api/workspace/alpha/update-embeddings`, { json: { deletes: [location] } });
  assert.equal(await embedInto(app, "alpha", [location]), null);
  assert.ok(fake.requests.length > calls);
});

Deno.test("chunks are sent in batches of the embedder's limit; 503s are retried, a 400 is reported", async () => {
  await using fake = startFakeEmbedders({ dimensions: 16 });
  await using app = await instance(fake.url, { GenericOpenAiEmbeddingMaxConcurrentChunks: "3" });
  const first = await uploadText(app, "alpha", "batched.txt", longText(70));
  assert.equal(await embedInto(app, "alpha", [first]), null);
  const sizes = fake.inputs().map((input) => input.length);
  assert.ok(sizes.length >= 3 && sizes.every((size) => size <= 3), JSON.stringify(sizes));
  assert.equal(sizes.slice(0, -1).every((size) => size === 3), true);

  fake.requests.length = 0;
  fake.failNext(503, 503);
  const second = await uploadText(app, "alpha", "retried.txt", "A short note about herons.");
  assert.equal(await embedInto(app, "alpha", [second]), null);
  assert.equal(fake.requests.length, 3, "two 503s, then the answer");

  fake.requests.length = 0;
  fake.rejectModel("fake-embed");
  const third = await uploadText(app, "alpha", "refused.txt", "A short note about owls.");
  const message = await embedInto(app, "alpha", [third]);
  assert.match(
    String(message),
    /^1 documents failed to add\.[\s\S]*answered 400: The model fake-embed does not exist/,
  );
  assert.equal(fake.requests.length, 1, "a 400 is not retried");
  const { body } = await app.json<{ workspace: { documents: { docpath: string }[] } }>(
    "/api/workspace/alpha",
  );
  assert.deepEqual(body.workspace.documents.map((document) => document.docpath), [first, second]);
});

Deno.test("each chunk keeps the page it starts on and the metadata header of docs/api-compat.md#splitting-and-chunk-headers", async () => {
  await using app = await createTestApp();
  const pages = ["First page text about apples. ".repeat(20), "Second page text about pears. ".repeat(20)];
  const document: DocumentJson = {
    id: "d1",
    url: "file://report.pdf",
    title: "report.pdf",
    docAuthor: "A",
    description: "D",
    docSource: "pdf file uploaded by the user.",
    chunkSource: "link://https://example.com/report.pdf",
    published: "1/2/2025, 3:04:05 PM",
    wordCount: 10,
    pageContent: pages.join(""),
    token_count_estimate: 100,
    pageBreaks: [0, pages[0].length],
  };
  const { chunks, cached } = await embeddedChunks(
    app.deps,
    app.deps.providers.embedder(),
    "custom-documents/report.json",
    document,
  );
  assert.equal(cached, false);
  assert.deepEqual([...new Set(chunks.map((chunk) => chunk.page))], [1, 2]);
  assert.ok(chunks.every((chunk) =>
    chunk.text.startsWith(
      "<document_metadata>\nsourceDocument: report.pdf\npublished: 1/2/2025, 3:04:05 PM\nsource: https://example.com/report.pdf\n</document_metadata>\n\n",
    )
  ));
  const again = await embeddedChunks(
    app.deps,
    app.deps.providers.embedder(),
    "custom-documents/report.json",
    document,
  );
  assert.equal(again.cached, true);
  assert.deepEqual(again.chunks.map((chunk) => chunk.page), chunks.map((chunk) => chunk.page));
  const changed = await embeddedChunks(
    app.deps,
    app.deps.providers.embedder(),
    "custom-documents/report.json",
    {
      ...document,
      pageContent: document.pageContent + " Third page.",
    },
  );
  assert.equal(changed.cached, false, "changed text is embedded again");
});
