import assert from "node:assert/strict";
import { and, eq } from "drizzle-orm";
import { workspaceDocuments, workspaces } from "../../db/schema.ts";
import { workspaceNamespace } from "../providers/vectors/namespace.ts";
import type { SearchOptions, VectorHit } from "../providers/vectors/types.ts";
import { FUSION_WEIGHTS } from "../providers/vectors/fusion_weights.ts";
import { createTestApp, type TestApp } from "../testing/test_app.ts";
import type { StoredResponse } from "./history.ts";
import { retrieve } from "./retrieve.ts";

const CONTINUED = "...continued on in source document...";

async function workspace(app: TestApp, name: string) {
  const created = await app.json<{ workspace: { slug: string } }>("/api/workspace/new", { json: { name } });
  return created.body.workspace.slug;
}

async function addDocument(app: TestApp, slug: string, name: string, text: string): Promise<string> {
  const form = new FormData();
  form.append("file", new File([text], name, { type: "text/plain" }));
  const upload = await app.json<{ documents: { location: string }[] }>(`/api/workspace/${slug}/upload`, {
    method: "POST",
    body: form,
  });
  assert.equal(upload.status, 200, JSON.stringify(upload.body));
  const location = upload.body.documents[0].location;
  const embedded = await app.json(`/api/workspace/${slug}/update-embeddings`, { json: { adds: [location] } });
  assert.equal(embedded.status, 200, JSON.stringify(embedded.body));
  return location;
}

async function rowOf(app: TestApp, slug: string) {
  const [row] = await app.deps.db.select().from(workspaces).where(eq(workspaces.slug, slug));
  return row;
}

async function pin(app: TestApp, slug: string, location: string) {
  const row = await rowOf(app, slug);
  await app.deps.db.update(workspaceDocuments).set({ pinned: true }).where(
    and(eq(workspaceDocuments.workspaceId, row.id), eq(workspaceDocuments.docpath, location)),
  );
}

function ask(
  app: TestApp,
  row: Awaited<ReturnType<typeof rowOf>>,
  message: string,
  options = {},
  history: StoredResponse[] = [],
) {
  return retrieve(
    app.deps,
    row,
    app.deps.providers.embedder(),
    message,
    history,
    new AbortController().signal,
    options,
  );
}

const HERONS = "Grey herons nest in tall trees near rivers. They eat fish, frogs and small mammals.";
const CHEESE = "Freedonia exports cheese and violins. Its cheese is aged in caves for two years.";
const MOUNTAINS = "The Blue Mountains rise above Fredville. Snow stays on the peaks until June.";

Deno.test("retrieve: pinned documents go whole into the context first, cited with a preview and no score; their chunks are not searched", async () => {
  await using app = await createTestApp();
  const slug = await workspace(app, "Pins");
  const long = `${HERONS} ${"Herons wade in shallow water. ".repeat(60)}`;
  const pinned = await addDocument(app, slug, "herons.txt", long);
  await addDocument(app, slug, "cheese.txt", CHEESE);
  await pin(app, slug, pinned);
  const row = await rowOf(app, slug);

  const result = await ask(app, row, "Where do grey herons nest?");
  assert.equal(result.contextTexts[0], long, "the pinned document's full text comes first");
  const [first, ...rest] = result.sources;
  assert.equal(first.title, "herons.txt");
  assert.equal(first.text, long.slice(0, 1000) + CONTINUED);
  assert.equal(first.score, undefined);
  assert.equal((first as Record<string, unknown>).pageContent, undefined);
  assert.ok(typeof (first as Record<string, unknown>).token_count_estimate === "number");
  assert.ok(
    rest.every((source) => source.title !== "herons.txt"),
    "no chunk of the pinned document is cited again",
  );
  assert.ok(rest.every((source) => typeof source.score === "number"));
  assert.ok(result.vectorCount > 0);
});

Deno.test("retrieve: pinned documents stop once their token estimates reach the context window (the one that crosses is kept)", async () => {
  await using app = await createTestApp();
  const slug = await workspace(app, "Window");
  const documents = [HERONS, CHEESE, MOUNTAINS];
  for (const [index, text] of documents.entries()) {
    await pin(app, slug, await addDocument(app, slug, `doc${index}.txt`, text));
  }
  const row = await rowOf(app, slug);
  const texts = (await ask(app, row, "anything", { contextWindow: 1 })).contextTexts;
  assert.equal(texts[0], HERONS);
  assert.ok(!texts.includes(CHEESE), "the second pinned document is past the window");
  const all = (await ask(app, row, "anything", { contextWindow: 100_000 })).contextTexts;
  assert.deepEqual(all.slice(0, 3), documents, "in the order they were added");
});

Deno.test("retrieve: hybrid search sends the question's text unless the workspace turned it off; the threshold judges the vector score", async () => {
  await using app = await createTestApp();
  const slug = await workspace(app, "Hybrid");
  await addDocument(app, slug, "cheese.txt", CHEESE);
  const row = await rowOf(app, slug);
  const [document] = await app.deps.db.select().from(workspaceDocuments).where(
    eq(workspaceDocuments.workspaceId, row.id),
  );
  const calls: SearchOptions[] = [];
  const hit = (id: string, score: number, docId = document.docId): VectorHit => ({
    id,
    docId,
    text: `chunk ${id}`,
    metadata: { title: "cheese.txt", published: "then" },
    score,
  });
  app.deps.vectors.search = (_namespace: string, _vector: number[], options: SearchOptions) => {
    calls.push(options);
    // Fused order: a word match with a weak vector score first, then close chunks, one of a removed document.
    return Promise.resolve([
      hit("words-only", 0.1),
      hit("close", 0.8),
      hit("orphan", 0.9, "gone"),
      hit("near", 0.3),
    ]);
  };

  const result = await ask(
    app,
    { ...row, topN: 4, similarityThreshold: 0.25 },
    "How long is the cheese aged?",
  );
  assert.deepEqual(calls[0], {
    topK: 4,
    text: "How long is the cheese aged?",
    fusion: FUSION_WEIGHTS.lexical,
  });
  assert.deepEqual(result.sources.map((source) => source.id), ["close", "near"]);
  assert.deepEqual(result.sources.map((source) => source.score), [0.8, 0.3]);

  await ask(app, { ...row, hybridSearch: false }, "How long is the cheese aged?");
  assert.deepEqual(calls[1], { topK: row.topN, text: undefined, fusion: FUSION_WEIGHTS.lexical });
});

Deno.test("retrieve: backfill from recent citations fills up to topN uncited, skipping pinned documents and seen chunks", async () => {
  await using app = await createTestApp();
  const slug = await workspace(app, "Backfill");
  const pinned = await addDocument(app, slug, "herons.txt", HERONS);
  await pin(app, slug, pinned);
  const row = await rowOf(app, slug);
  const { published } = await app.deps.documents.read(pinned);
  const history: StoredResponse[] = [{
    text: "earlier",
    type: "chat",
    attachments: [],
    metrics: {},
    sources: [
      { id: "old-1", text: "old chunk one", score: 0.5, title: "old.txt" },
      { id: "old-2", text: "old pinned chunk", score: 0.5, title: "herons.txt", published },
      { id: "old-3", text: "no score" },
      { id: "old-4", text: "old chunk four", score: 0.4, title: "old.txt" },
      { id: "old-5", text: "old chunk five", score: 0.4, title: "old.txt" },
    ],
  }];
  app.deps.vectors.search = () => Promise.resolve([]);
  const result = await ask(app, { ...row, topN: 2 }, "nothing matches", {}, history);
  assert.deepEqual(result.contextTexts, [HERONS, "old chunk one", "old chunk four"]);
  assert.equal(result.sources.length, 1, "backfill is never cited");
});

Deno.test("retrieve: hybrid retrieval through the real store finds a chunk by a rare word and cites its similarity", async () => {
  await using app = await createTestApp();
  const slug = await workspace(app, "Real");
  await addDocument(app, slug, "cheese.txt", CHEESE);
  await addDocument(app, slug, "mountains.txt", MOUNTAINS);
  await addDocument(app, slug, "herons.txt", HERONS);
  const row = await rowOf(app, slug);
  const namespace = workspaceNamespace(row.id, app.deps.providers.embedder());
  assert.equal(await app.deps.vectors.count(namespace), 3);
  const result = await ask(app, { ...row, topN: 1, similarityThreshold: 0 }, "Snow on the peaks?");
  assert.equal(result.sources.length, 1);
  assert.equal(result.sources[0].title, "mountains.txt");
  assert.ok(typeof result.sources[0].score === "number" && result.sources[0].score > 0);
  assert.ok(result.sources[0].text.includes("<document_metadata>"));
});

Deno.test("retrieve: the accuracy-optimized mode searches 30 candidates, reranks them and cuts to topN; a failing reranker keeps the order", async () => {
  await using app = await createTestApp();
  const slug = await workspace(app, "Rerank");
  await addDocument(app, slug, "cheese.txt", CHEESE);
  const row = await rowOf(app, slug);
  const [document] = await app.deps.db.select().from(workspaceDocuments).where(
    eq(workspaceDocuments.workspaceId, row.id),
  );
  const calls: SearchOptions[] = [];
  app.deps.vectors.search = (_namespace: string, _vector: number[], options: SearchOptions) => {
    calls.push(options);
    return Promise.resolve(
      ["bread", "violins", "caves for two years", "herons"].map((text, index) => ({
        id: `c${index}`,
        docId: document.docId,
        text,
        metadata: { title: "cheese.txt", published: "then" },
        score: 0.9 - index / 10,
      })).slice(0, options.topK),
    );
  };
  // A /rerank server on loopback that ranks the chunk about caves first.
  const requests: { query: string; documents: string[] }[] = [];
  let failing = false;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    const body = await request.json();
    requests.push(body);
    if (failing) return new Response("down", { status: 500 });
    return Response.json({
      results: body.documents.map((text: string, index: number) => ({
        index,
        relevance_score: text.includes("caves") ? 0.99 : 0.01 * index,
      })),
    });
  });
  try {
    // The reranker settings are read through the settings view; a stub adds them to the instance's.
    const value = app.deps.settings.value.bind(app.deps.settings);
    app.deps.settings.value = (key: string) =>
      ({ RerankerProvider: "generic", RerankerBasePath: `http://127.0.0.1:${server.addr.port}/v1` } as Record<
        string,
        string
      >)[key] ?? value(key);
    const reranked = await ask(
      app,
      { ...row, topN: 2, similarityThreshold: 0, vectorSearchMode: "rerank" },
      "Aged?",
    );
    assert.deepEqual(calls[0], { topK: 30, text: "Aged?", fusion: FUSION_WEIGHTS.lexical });
    assert.equal(requests[0].query, "Aged?");
    assert.equal(requests[0].documents.length, 4);
    assert.deepEqual(reranked.sources.map((source) => source.id), ["c2", "c3"]);

    failing = true;
    const kept = await ask(
      app,
      { ...row, topN: 2, similarityThreshold: 0, vectorSearchMode: "rerank" },
      "Aged?",
    );
    assert.deepEqual(kept.sources.map((source) => source.id), ["c0", "c1"], "the search order, cut to topN");

    const plain = await ask(app, { ...row, topN: 2, similarityThreshold: 0 }, "Aged?");
    assert.deepEqual(calls.at(-1), { topK: 2, text: "Aged?", fusion: FUSION_WEIGHTS.lexical });
    assert.deepEqual(plain.sources.map((source) => source.id), ["c0", "c1"]);
    assert.equal(requests.length, 2, "the default mode does not rerank");
  } finally {
    await server.shutdown();
  }
});

Deno.test("retrieve: the hybrid search takes the weights of the workspace's embedder: the built-in one's, or a dense model's", async () => {
  await using app = await createTestApp();
  const slug = await workspace(app, "Weights");
  await addDocument(app, slug, "cheese.txt", CHEESE);
  const row = await rowOf(app, slug);
  const calls: SearchOptions[] = [];
  const search = app.deps.vectors.search.bind(app.deps.vectors);
  app.deps.vectors.search = (namespace: string, vector: number[], options: SearchOptions) => {
    calls.push(options);
    return search(namespace, vector, options);
  };
  const builtIn = app.deps.providers.embedder();
  // A whole question: the chunk's header holds its upload time, and "cheese" alone fell to 0.23 against the
  // 0.25 threshold at some times (server/testing/lexical_pairs.ts).
  const question = "Where is Freedonia's cheese aged?";
  const found = await retrieve(app.deps, row, builtIn, question, [], new AbortController().signal);
  assert.equal(found.sources.length, 1, "the built-in embedder's search finds the chunk");
  assert.deepEqual(calls[0].fusion, FUSION_WEIGHTS.lexical);

  // Another embedder's vectors live in another namespace (none here): it is counted as holding some, so the search runs.
  app.deps.vectors.count = () => Promise.resolve(1);
  const dense = { ...builtIn, fingerprint: "openai:dense-model:384", modelId: "dense-model" };
  await retrieve(app.deps, row, dense, question, [], new AbortController().signal);
  assert.deepEqual(calls[1].fusion, FUSION_WEIGHTS.dense);
  assert.notDeepEqual(FUSION_WEIGHTS.dense, FUSION_WEIGHTS.lexical);
});
