// Faults of the vector database: Chroma where nothing listens, Chroma answering 500, and a LanceDB folder that
// cannot be read. Chat, upload-and-embed, system-vectors, reset-vector-db and remove-and-unembed each answer a
// sentence naming the store (502, or an abort frame for chat), never the bare 500 of an unexpected error, and
// the library keeps every document a failed call did not remove.
import assert from "node:assert/strict";
import { createTestApp, readFrames, type TestApp } from "../../server/testing/test_app.ts";
import { configuredTestApp } from "../../server/testing/test_app.ts";
import { startFakeOpenAi } from "../../server/testing/fake_openai.ts";
import { closedPort } from "./helpers.ts";

async function upload(app: TestApp, route: "upload" | "upload-and-embed", name: string, text: string) {
  const form = new FormData();
  form.append("file", new File([text], name, { type: "text/plain" }));
  return await app.json<Record<string, unknown>>(`/api/workspace/faults/${route}`, {
    method: "POST",
    body: form,
  });
}

async function titles(app: TestApp): Promise<string[]> {
  const listed = await app.json<{ documents: { title: string }[] }>(
    "/api/system/local-files?folder=custom-documents",
  );
  assert.equal(listed.status, 200);
  return listed.body.documents.map((document) => document.title).sort();
}

async function embedded(app: TestApp): Promise<string[]> {
  const detail = await app.json<{ workspace: { documents: { filename: string }[] } }>(
    "/api/workspace/faults",
  );
  return detail.body.workspace.documents.map((document) => document.filename);
}

/** A workspace with one embedded document (LanceDB), whose location is returned. */
async function workspaceWithEmbeddedDocument(app: TestApp): Promise<string> {
  await app.json("/api/workspace/new", { json: { name: "Faults" } });
  const stored = await upload(app, "upload-and-embed", "herons.txt", "Herons wade in shallow water.");
  assert.equal(stored.status, 200, JSON.stringify(stored.body));
  return (stored.body.document as { location: string }).location;
}

/**
 * Every vector call against the failing store: each answers `expected` (a sentence naming the store) with 502,
 * chat with an abort frame; the document stays listed and embedded, and the server keeps answering.
 */
async function everyCallFailsClearly(app: TestApp, location: string, expected: RegExp) {
  const frames = await readFrames(
    await app.request("/api/workspace/faults/stream-chat", {
      method: "POST",
      body: JSON.stringify({ message: "Where do herons wade?" }),
    }),
  );
  assert.deepEqual(frames.map((frame) => frame.type), ["abort"], JSON.stringify(frames));
  assert.match(String(frames[0].error), /^Vector search failed: /);
  assert.match(String(frames[0].error), expected);

  const added = await upload(app, "upload-and-embed", "cranes.txt", "Cranes dance in spring.");
  assert.equal(added.status, 502);
  assert.equal(added.body.success, false);
  assert.match(String(added.body.error), expected);

  for (const path of ["/api/system/system-vectors", "/api/system/system-vectors?slug=faults"]) {
    const counted = await app.json<Record<string, unknown>>(path);
    assert.equal(counted.status, 502, `${path}: ${JSON.stringify(counted.body)}`);
    assert.equal(counted.body.success, false);
    assert.match(String(counted.body.error), expected);
  }

  const reset = await app.json<Record<string, unknown>>("/api/workspace/faults/reset-vector-db", {
    method: "DELETE",
  });
  assert.equal(reset.status, 502, JSON.stringify(reset.body));
  assert.match(String(reset.body.error), expected);

  const removed = await app.json<Record<string, unknown>>("/api/workspace/faults/remove-and-unembed", {
    method: "DELETE",
    json: { documentLocation: location },
  });
  assert.equal(removed.status, 502, JSON.stringify(removed.body));
  assert.match(String(removed.body.error), expected);

  // A removal that failed left the document whole: listed, embedded, readable.
  assert.ok((await titles(app)).includes("herons.txt"));
  assert.deepEqual((await embedded(app)).length, 1);
  assert.equal((await app.request("/api/ping")).status, 200);
}

Deno.test("Chroma configured at a loopback port where nothing listens: every vector call names Chroma's address", async () => {
  await using llm = startFakeOpenAi();
  await using app = await configuredTestApp({ llm: llm.baseURL });
  const location = await workspaceWithEmbeddedDocument(app);
  const port = closedPort();
  const saved = await app.json("/api/system/update-env", {
    json: { VectorDB: "chroma", ChromaEndpoint: `http://127.0.0.1:${port}` },
  });
  assert.equal(saved.status, 200);
  await everyCallFailsClearly(
    app,
    location,
    new RegExp(`Cannot reach Chroma at http://127\\.0\\.0\\.1:${port}: `),
  );
  // The upload that could not be embedded is kept in the library, and embedding it again works once the store does.
  assert.deepEqual(await titles(app), ["cranes.txt", "herons.txt"]);
  assert.equal((await app.json("/api/system/update-env", { json: { VectorDB: "lancedb" } })).status, 200);
  const counted = await app.json<{ vectorCount: number }>("/api/system/system-vectors?slug=faults");
  assert.equal(counted.status, 200);
  assert.equal(counted.body.vectorCount, 1, "the vectors in LanceDB were never touched");
});

Deno.test("Chroma answering 500 to everything: every vector call relays Chroma's status and message", async () => {
  await using llm = startFakeOpenAi();
  const chroma = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    await request.body?.cancel();
    return Response.json({ error: "InternalError", message: "The segment writer failed" }, { status: 500 });
  });
  try {
    await using app = await configuredTestApp({ llm: llm.baseURL });
    const location = await workspaceWithEmbeddedDocument(app);
    const saved = await app.json("/api/system/update-env", {
      json: { VectorDB: "chroma", ChromaEndpoint: `http://127.0.0.1:${chroma.addr.port}` },
    });
    assert.equal(saved.status, 200);
    await everyCallFailsClearly(
      app,
      location,
      new RegExp(
        `Chroma at http://127\\.0\\.0\\.1:${chroma.addr.port} answered 500: The segment writer failed`,
      ),
    );
  } finally {
    await chroma.shutdown();
  }
});

Deno.test("a LanceDB folder that cannot be read (replaced by a file): every vector call names the folder", async () => {
  await using llm = startFakeOpenAi();
  const storageDir = await Deno.makeTempDir({ prefix: "lectern-faults-" });
  try {
    let location: string;
    {
      await using first = await configuredTestApp({ llm: llm.baseURL, storageDir });
      location = await workspaceWithEmbeddedDocument(first);
    }
    // The store opens its folder on the first vector call: it is broken after start, before that call. As root a
    // chmod does not stop reads, so the folder is replaced by a file: it cannot be listed either way.
    await using app = await createTestApp({ storageDir });
    await Deno.remove(`${storageDir}/lancedb`, { recursive: true });
    await Deno.writeTextFile(`${storageDir}/lancedb`, "not a folder");
    await everyCallFailsClearly(
      app,
      location,
      new RegExp(`The LanceDB folder ${storageDir}/lancedb cannot be read: it is not a folder`),
    );
    assert.deepEqual(await titles(app), ["cranes.txt", "herons.txt"]);
  } finally {
    await Deno.remove(storageDir, { recursive: true });
  }
});
