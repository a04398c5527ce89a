import assert from "node:assert/strict";
import { createTestApp } from "../testing/test_app.ts";
import { silentLogger } from "../log.ts";
import { NATIVE_FINGERPRINT, nativeEmbedder } from "../providers/embedders/native.ts";
import { workspaceNamespace } from "../providers/vectors/namespace.ts";
import { closeParseWorkers, parseAndChunk, type ParseLimits, parseWorkerStats } from "./parse_worker.ts";
import { embeddedChunks } from "./ingest.ts";
import { chunkHeader } from "./chunker.ts";
import { PreparedChunks } from "./prepared_chunks.ts";
import { VectorCache } from "./vector_cache.ts";
import { estimateTokens } from "./tokens.ts";
import { ParseFailure } from "./parsers/types.ts";
import { buildXlsxBomb } from "./parsers/test_files.ts";

// Real files of the shared corpus's kinds (tests/fixtures/documents/ATTRIBUTION.md says where each comes from).
const FIXTURES = new URL("../../tests/fixtures/documents/", import.meta.url);
const REAL_FILES = [
  "airline-safety.csv",
  "eip-2488.md",
  "modest_proposal.txt",
  "pdflatex-4-pages.pdf",
  "handler.html",
  "tables.docx",
];
const LIMITS: ParseLimits = { timeoutSeconds: 60, memoryMb: 512, maxTextChars: 64 * 1024 * 1024 };
const settingsAt = (size: number, overlap: number) => ({
  label: (label: string) =>
    label === "text_splitter_chunk_size"
      ? String(size)
      : label === "text_splitter_chunk_overlap"
      ? String(overlap)
      : undefined,
});

Deno.test("upload-and-embed with the built-in embedder stores the chunks, vectors and cache entry the server's own path makes", async () => {
  await using app = await createTestApp();
  await closeParseWorkers();
  assert.equal((await app.json("/api/workspace/new", { json: { name: "Same" } })).status, 200);
  const spawnedBefore = parseWorkerStats().spawned;
  let chunks = 0;
  for (const name of REAL_FILES) {
    const form = new FormData();
    form.append("file", new File([await Deno.readFile(new URL(name, FIXTURES))], name));
    const answer = await app.json<{ success: boolean; document: { location: string } }>(
      "/api/workspace/same/upload-and-embed",
      { method: "POST", body: form },
    );
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const location = answer.body.document.location;
    // What the worker made, as the vector cache holds it (texts, pages, float32 vectors)...
    const cache = new VectorCache(app.deps.paths.vectorCache);
    const made = await Deno.readTextFile(cache.fileFor(location, NATIVE_FINGERPRINT));
    // ...byte for byte what the server's own split and embed makes of the stored document.
    const document = await app.deps.documents.read(location);
    // The worker counted the tokens as the server does.
    assert.equal(document.token_count_estimate, await estimateTokens(document.pageContent));
    const elsewhere = await Deno.makeTempDir({ prefix: "lectern-test-cache-" });
    const own = await embeddedChunks(
      { settings: app.deps.settings, paths: { vectorCache: elsewhere }, log: silentLogger },
      nativeEmbedder(),
      location,
      document,
    );
    assert.equal(own.cached, false);
    assert.ok(own.chunks.length > 0, name);
    const expected = await Deno.readTextFile(
      new VectorCache(elsewhere).fileFor(location, NATIVE_FINGERPRINT),
    );
    assert.equal(made, expected, `${name}: the worker's chunks differ from the server's`);
    await Deno.remove(elsewhere, { recursive: true });
    chunks += own.chunks.length;
  }
  // The PDF's chunks keep their pages.
  assert.match(
    [...Deno.readDirSync(app.deps.paths.vectorCache)].map((entry) =>
      Deno.readTextFileSync(`${app.deps.paths.vectorCache}/${entry.name}`)
    ).join(""),
    /"page":4/,
  );
  const workspace = await app.json<{ workspace: { id: number } }>("/api/workspace/same");
  const namespace = workspaceNamespace(workspace.body.workspace.id, nativeEmbedder());
  assert.equal(await app.deps.vectors.count(namespace), chunks);
  // Plain text went to a worker too (it is parsed in the server's process otherwise).
  assert.ok(parseWorkerStats().spawned > spawnedBefore);
  const hits = await app.deps.vectors.search(namespace, await nativeEmbedder().embedQuery("airline safety"), {
    topK: 3,
  });
  assert.ok(hits.length > 0);
  await closeParseWorkers();
});

Deno.test("the worker's chunks equal the server's at other splitter settings, page offsets included", async () => {
  const embedder = nativeEmbedder();
  for (const [size, overlap] of [[200, 0], [1000, 20], [333, 100]]) {
    for (const name of ["pdflatex-4-pages.pdf", "airline-safety.csv", "eip-2488.md"]) {
      const header = chunkHeader({ title: name, published: "11/26/2026, 5:00:00 AM" });
      const plan = { chunkSize: size, chunkOverlap: overlap, header };
      const bytes = await Deno.readFile(new URL(name, FIXTURES));
      const parsed = await parseAndChunk({ name, bytes }, LIMITS, plan);
      assert.ok(parsed.chunks);
      const prepared = new PreparedChunks(
        embedder.fingerprint,
        plan,
        parsed.chunks.summary,
        parsed.chunks.bytes,
        parsed.chunks.cacheText,
      );
      const cacheDir = await Deno.makeTempDir({ prefix: "lectern-test-cache-" });
      const document = {
        id: "x",
        url: "file://x",
        title: name,
        docAuthor: "",
        description: "",
        docSource: "",
        chunkSource: "",
        published: "11/26/2026, 5:00:00 AM",
        wordCount: 0,
        token_count_estimate: 0,
        pageContent: parsed.document.text,
        ...(parsed.document.pageBreaks?.length ? { pageBreaks: parsed.document.pageBreaks } : {}),
      };
      const own = await embeddedChunks(
        { settings: settingsAt(size, overlap), paths: { vectorCache: cacheDir }, log: silentLogger },
        embedder,
        "custom-documents/x.json",
        document,
      );
      await Deno.remove(cacheDir, { recursive: true });
      assert.equal(prepared.count, own.chunks.length, `${name} at ${size}/${overlap}`);
      assert.ok(prepared.fits(embedder.fingerprint, { chunkSize: size, chunkOverlap: overlap }, header));
      own.chunks.forEach((chunk, index) => {
        const made = prepared.chunk(document.pageContent, index);
        assert.equal(made.text, chunk.text);
        assert.equal(made.page, chunk.page);
        assert.deepEqual(made.vector, Float32Array.from(chunk.vector));
      });
    }
  }
  await closeParseWorkers();
});

Deno.test("a worker killed in the middle of a file fails that file with its reason; the other files lose nothing", async () => {
  await closeParseWorkers();
  const plan = { chunkSize: 1000, chunkOverlap: 20, header: chunkHeader({ title: "t", published: "p" }) };
  const slow = parseAndChunk(
    { name: "slow.xlsx", bytes: await buildXlsxBomb(100) },
    { ...LIMITS, timeoutSeconds: 600, memoryMb: 2048, maxTextChars: 512 * 1024 * 1024 },
    plan,
  );
  let pid: number | undefined;
  while (pid === undefined) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    pid = parseWorkerStats().pids[0];
  }
  // Another file parsed meanwhile, in the other worker.
  const csv = await Deno.readFile(new URL("airline-safety.csv", FIXTURES));
  const other = parseAndChunk({ name: "airline-safety.csv", bytes: csv }, LIMITS, plan);
  Deno.kill(pid, "SIGKILL");
  await assert.rejects(slow, (error: unknown) => {
    assert.ok(error instanceof ParseFailure);
    assert.equal(error.message, "slow.xlsx could not be parsed: the parser stopped unexpectedly.");
    return true;
  });
  const parsed = await other;
  const again = await parseAndChunk({ name: "airline-safety.csv", bytes: csv }, LIMITS, plan);
  assert.ok(parsed.chunks && again.chunks && parsed.chunks.summary.count > 10);
  assert.deepEqual(parsed.chunks.summary, again.chunks.summary);
  assert.deepEqual(parsed.chunks.bytes, again.chunks.bytes);
  assert.deepEqual(parsed.chunks.cacheText, again.chunks.cacheText);
  assert.ok(!parseWorkerStats().pids.includes(pid));
  await closeParseWorkers();
});
