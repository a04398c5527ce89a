// The batched ingest (issue 21): a book is split, embedded and written a batch at a time, and is still all or
// nothing in the workspace.
import assert from "node:assert/strict";
import { documents, eventLogs, pendingVectors, workspaceDocuments } from "../../db/schema.ts";
import { createTestApp, type TestApp } from "../testing/test_app.ts";
import type { Embedder } from "../providers/embedders/types.ts";
import { embedLexical } from "../providers/embedders/native.ts";
import { workspaceNamespace } from "../providers/vectors/namespace.ts";
import { EMBED_BATCH_CHUNKS, embedBatchSize, embeddedChunkBatches, embeddedChunks } from "./ingest.ts";
import { releaseReservedVectors } from "./pending_vectors.ts";
import type { DocumentJson } from "./store.ts";

/** An embedder of 50-character chunks whose `failOnCall`-th call (1-based) fails. */
function countingEmbedder(failOnCall = 0): Embedder & { calls: number[] } {
  const calls: number[] = [];
  return {
    calls,
    fingerprint: "test:counting:384",
    modelId: "counting",
    maxChunkLength: 50,
    maxInputsPerCall: 100,
    embed(texts: string[]) {
      calls.push(texts.length);
      if (calls.length === failOnCall) return Promise.reject(new Error("The embedder fell over."));
      return Promise.resolve(texts.map(embedLexical));
    },
    embedQuery: (text: string) => Promise.resolve(embedLexical(text)),
  };
}

/** About `chunks` chunks of at most 50 characters. */
const bookText = (chunks: number) =>
  Array.from({ length: chunks }, (_, index) => `Line ${index} of the long book.`).join("\n");

async function uploadAndEmbed(app: TestApp, name: string, text: string) {
  const form = new FormData();
  form.append("file", new File([text], name));
  return await app.json<{ success: boolean; error: string | null }>("/api/workspace/books/upload-and-embed", {
    method: "POST",
    body: form,
  });
}

async function namespaceOf(app: TestApp, embedder: Embedder) {
  const { body } = await app.json<{ workspace: { id: number } }>("/api/workspace/books");
  return workspaceNamespace(body.workspace.id, embedder);
}

const leftInCache = (app: TestApp) =>
  [...Deno.readDirSync(app.deps.paths.vectorCache)].map((entry) => entry.name);

Deno.test("a batch is a whole number of the embedder's calls", () => {
  assert.equal(embedBatchSize({ maxInputsPerCall: 1000 }), 1000);
  assert.equal(embedBatchSize({ maxInputsPerCall: 100 }), 600);
  assert.equal(embedBatchSize({ maxInputsPerCall: 3 }), 3 * Math.ceil(EMBED_BATCH_CHUNKS / 3));
  assert.equal(embedBatchSize({ maxInputsPerCall: 0 }), EMBED_BATCH_CHUNKS);
});

Deno.test("a book is embedded in batches, in order, with the same chunks and cache entry as in one piece", async () => {
  const embedder = countingEmbedder();
  await using app = await createTestApp({
    providers: { embedder: () => embedder, targetEmbedder: () => null },
  });
  const document: DocumentJson = {
    id: "b1",
    url: "file://book.txt",
    title: "book.txt",
    docAuthor: "A",
    description: "D",
    docSource: "a text file uploaded by the user.",
    chunkSource: "",
    published: "1/2/2025, 3:04:05 PM",
    wordCount: 10,
    pageContent: bookText(50),
    token_count_estimate: 100,
    pageBreaks: [0, 500, 1000],
  };
  const progress: [number, number][] = [];
  const batches = embeddedChunkBatches(app.deps, embedder, "custom-documents/book.json", document, {
    batchSize: 7,
    onProgress: (processed, total) => progress.push([processed, total]),
  });
  const sizes: number[] = [];
  const streamed = [];
  for await (const batch of batches) {
    sizes.push(batch.length);
    streamed.push(...batch);
  }
  assert.equal(batches.cached, false);
  assert.ok(sizes.length > 3 && sizes.slice(0, -1).every((size) => size === 7), JSON.stringify(sizes));
  assert.deepEqual(progress.at(-1), [streamed.length, streamed.length]);
  assert.deepEqual([...new Set(streamed.map((chunk) => chunk.page))], [1, 2, 3]);
  assert.equal(leftInCache(app).length, 1, "one cache entry, no temporary file");

  // Read back whole from the cache it wrote: the same texts, pages and vectors (as float32).
  const again = await embeddedChunks(app.deps, embedder, "custom-documents/book.json", document);
  assert.equal(again.cached, true);
  assert.deepEqual(
    again.chunks.map((chunk) => [chunk.text, chunk.page]),
    streamed.map((c) => [c.text, c.page]),
  );
  assert.deepEqual(again.chunks[9].vector, Array.from(Float32Array.from(streamed[9].vector)));

  // A location marked fresh (a new upload's) is not looked up: embedded again, and its entry written again.
  const calls = embedder.calls.length;
  const fresh = embeddedChunkBatches(app.deps, embedder, "custom-documents/book.json", document, {
    fresh: true,
  });
  let freshChunks = 0;
  for await (const batch of fresh) freshChunks += batch.length;
  assert.equal(fresh.cached, false);
  assert.equal(freshChunks, streamed.length);
  assert.ok(embedder.calls.length > calls, "the embedder was called");
  assert.equal(leftInCache(app).length, 1, "the entry, written again; no temporary file");
  assert.ok(streamed[0].text.startsWith("<document_metadata>\nsourceDocument: book.txt\n"));
});

Deno.test("an embedder failing in the middle of a book leaves none of its vectors, no row and no cache entry", async () => {
  // The short document takes call 1, the first batch of the book calls 2 to 7 (600 chunks), the second fails.
  const embedder = countingEmbedder(8);
  await using app = await createTestApp({
    providers: { embedder: () => embedder, targetEmbedder: () => null },
  });
  await app.json("/api/workspace/new", { json: { name: "Books" } });
  // A short document first, so the table exists and holds rows that must stay.
  assert.equal((await uploadAndEmbed(app, "short.txt", "A short note about herons.")).body.success, true);
  const namespace = await namespaceOf(app, embedder);
  assert.equal(await app.deps.vectors.count(namespace), 1);

  const answer = await uploadAndEmbed(app, "book.txt", bookText(1500));
  assert.equal(answer.status, 502);
  assert.match(String(answer.body.error), /The embedder fell over/);
  assert.equal(embedder.calls.length, 8, "the first batch's calls, then the failing one");
  assert.equal(await app.deps.vectors.count(namespace), 1, "the first batch's vectors were deleted");
  assert.equal(
    (await app.deps.db.select().from(workspaceDocuments)).length,
    1,
    "the short document's row only",
  );
  assert.equal(leftInCache(app).length, 1, "only the short document's entry");
  // The upload itself stays in the library (its row, meant for the embedding's last commit, is written after
  // the failure), and its events say what became of it.
  assert.deepEqual(
    (await app.deps.db.select({ title: documents.title }).from(documents)).map((row) => row.title).sort(),
    ["book.txt", "short.txt"],
  );
  const events = (await app.deps.db.select().from(eventLogs)).map((
    row,
  ) => [row.event, JSON.parse(row.metadata ?? "{}")]);
  assert.deepEqual(events.slice(-2), [
    ["document_uploaded", { documentName: "book.txt" }],
    ["workspace_documents_added", { workspaceName: "Books", numberOfDocumentsAdded: 0, failed: 1 }],
  ]);

  // Embedded again, it is whole.
  const retried = await uploadAndEmbed(app, "book.txt", bookText(1500));
  assert.equal(retried.body.success, true, JSON.stringify(retried.body));
  assert.equal((await app.deps.db.select().from(workspaceDocuments)).length, 2);
  assert.ok(await app.deps.vectors.count(namespace) > 1 + 1400, "the book whole, beside the short note");
  // The records reserved for uploads to come are let go (as at shutdown): what is left is the failed one's.
  await releaseReservedVectors(app.deps.db);
  assert.equal(
    (await app.deps.db.select().from(pendingVectors)).length,
    1,
    "the failed document's record stays for the next start's sweep, the finished ones' went",
  );
});

Deno.test("uploads embedded at once share commits: each is listed, embedded and logged, no record left", async () => {
  const embedder = countingEmbedder();
  await using app = await createTestApp({
    providers: { embedder: () => embedder, targetEmbedder: () => null },
  });
  await app.json("/api/workspace/new", { json: { name: "Books" } });
  const names = Array.from({ length: 6 }, (_, index) => `note-${index}.txt`);
  const answers = await Promise.all(names.map((name) => uploadAndEmbed(app, name, `Herons, note ${name}.`)));
  assert.deepEqual(answers.map((answer) => answer.body.success), names.map(() => true));
  const titles = (await app.deps.db.select({ title: documents.title }).from(documents)).map((row) =>
    row.title
  );
  assert.deepEqual(titles.sort(), names);
  assert.equal((await app.deps.db.select().from(workspaceDocuments)).length, names.length);
  assert.equal(await app.deps.vectors.count(await namespaceOf(app, embedder)), names.length);
  const docIds = new Set(
    (await app.deps.db.select({ docId: workspaceDocuments.docId }).from(workspaceDocuments)).map((row) =>
      row.docId
    ),
  );
  const records = await app.deps.db.select().from(pendingVectors);
  assert.ok(records.every((row) => !docIds.has(row.docId)), "no embedded document's record is left");
  await releaseReservedVectors(app.deps.db);
  assert.deepEqual(await app.deps.db.select().from(pendingVectors), [], "the reserved ones go at shutdown");
  const events = (await app.deps.db.select().from(eventLogs)).map((row) => row.event);
  assert.equal(events.filter((event) => event === "document_uploaded").length, names.length);
  assert.equal(events.filter((event) => event === "workspace_documents_added").length, names.length);
});

Deno.test("an acknowledged upload survives a restart whole", async () => {
  const storageDir = await Deno.makeTempDir({ prefix: "lectern-test-" });
  try {
    const embedder = countingEmbedder();
    const options = { storageDir, providers: { embedder: () => embedder, targetEmbedder: () => null } };
    let count: number;
    {
      await using app = await createTestApp(options);
      await app.json("/api/workspace/new", { json: { name: "Books" } });
      const answer = await uploadAndEmbed(app, "book.txt", bookText(1300));
      assert.equal(answer.body.success, true, JSON.stringify(answer.body));
      count = await app.deps.vectors.count(await namespaceOf(app, embedder));
      assert.ok(count > 1200, `${count} chunks`);
    }
    {
      await using app = await createTestApp(options);
      assert.equal(await app.deps.vectors.count(await namespaceOf(app, embedder)), count);
      const { body } = await app.json<{ workspace: { documents: { docpath: string }[] } }>(
        "/api/workspace/books",
      );
      assert.equal(body.workspace.documents.length, 1);
      assert.deepEqual(await app.deps.db.select().from(pendingVectors), []);
    }
  } finally {
    await Deno.remove(storageDir, { recursive: true });
  }
});

Deno.test("an upload whose document file cannot be written is refused whole: no library row, no workspace row, no vectors", async () => {
  const embedder = countingEmbedder();
  await using app = await createTestApp({
    providers: { embedder: () => embedder, targetEmbedder: () => null },
  });
  await app.json("/api/workspace/new", { json: { name: "Books" } });
  assert.equal((await uploadAndEmbed(app, "short.txt", "A short note about herons.")).body.success, true);
  const namespace = await namespaceOf(app, embedder);
  // The folder the document's file goes to becomes a file: the write fails while the upload is embedded.
  const folder = `${app.deps.paths.documents}/blocked`;
  await Deno.writeTextFile(folder, "not a folder");
  const form = new FormData();
  form.append("file", new File([bookText(40)], "blocked.txt"));
  form.append("folderName", "blocked");
  const answer = await app.json<{ success: boolean }>("/api/workspace/books/upload-and-embed", {
    method: "POST",
    body: form,
  });
  assert.equal(answer.status, 500);
  assert.deepEqual(
    (await app.deps.db.select({ title: documents.title }).from(documents)).map((row) => row.title),
    ["short.txt"],
  );
  assert.equal((await app.deps.db.select().from(workspaceDocuments)).length, 1);
  assert.equal(await app.deps.vectors.count(namespace), 1, "the blocked upload's vectors were deleted");
  assert.equal(embedder.calls.length > 1, true, "it was embedded before the write's failure was known");
  assert.deepEqual([...Deno.readDirSync(app.deps.paths.uploads)].length, 1, "the original is removed again");
});
