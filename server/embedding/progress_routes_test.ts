import assert from "node:assert/strict";
import { createTestApp, type TestApp, uploadText } from "../testing/test_app.ts";
import { addUser, bearer, multiUserInstance } from "../testing/accounts.ts";
import type { EmbedderDeps } from "../providers/embedders/registry.ts";
import { startFakeEmbedders } from "../providers/embedders/testing/fake_embedders.ts";
import type { WorkspaceEmbedFrame } from "./progress.ts";

const quick: EmbedderDeps = { retry: { baseDelayMs: 1, maxDelayMs: 5 } };

/** Reads `data: <json>\n\n` frames one at a time from a stream that does not end. */
function frameReader(response: Response) {
  assert.equal(response.status, 200);
  assert.equal(response.headers.get("content-type"), "text/event-stream");
  // The body's own reader: cancelling it waits for the server to end the stream.
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  async function next(): Promise<WorkspaceEmbedFrame> {
    for (;;) {
      const end = buffer.indexOf("\n\n");
      if (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        assert.ok(block.startsWith("data: ") && !block.includes("\n"), `not a data-only frame: ${block}`);
        return JSON.parse(block.slice("data: ".length));
      }
      const { value, done } = await reader.read();
      if (done) throw new Error("The stream ended");
      buffer += decoder.decode(value, { stream: true });
    }
  }
  return {
    next,
    /** Frames up to and including the first of `type`. */
    async until(type: WorkspaceEmbedFrame["type"]): Promise<WorkspaceEmbedFrame[]> {
      const frames: WorkspaceEmbedFrame[] = [];
      for (;;) {
        const frame = await next();
        frames.push(frame);
        if (frame.type === type) return frames;
      }
    },
    close: () => reader.cancel(),
  };
}

const longText = (sentences: number) =>
  Array.from({ length: sentences }, (_, index) => `Topic ${index} is about river number ${index}.`).join(" ");

async function instance(options: Parameters<typeof createTestApp>[0] = {}) {
  const app = await createTestApp(options);
  const splitter = await app.json("/api/admin/system-preferences", {
    json: { text_splitter_chunk_size: 200, text_splitter_chunk_overlap: 0 },
  });
  assert.equal(splitter.status, 200, JSON.stringify(splitter.body));
  const created = await app.json("/api/workspace/new", { json: { name: "Atlas" } });
  assert.equal(created.status, 200);
  return app;
}

const embed = (app: TestApp, adds: string[]) =>
  app.json<{ message: string | null }>("/api/workspace/atlas/update-embeddings", { json: { adds } });

Deno.test("embed-progress streams each document's steps while update-embeddings runs, and stays open for the next run", async () => {
  await using app = await instance();
  const rivers = await uploadText(app, "atlas", "rivers.txt", longText(30));
  const short = await uploadText(app, "atlas", "short.txt", "A short note.");
  const missing = "custom-documents/missing.json";

  const stream = frameReader(await app.request("/api/workspace/atlas/embed-progress"));
  const first = stream.next();
  const embedded = await embed(app, [rivers, short, missing]);
  assert.equal(embedded.status, 200);
  assert.match(String(embedded.body.message), /1 documents failed to add/);

  const frames = [await first, ...await stream.until("all_complete")];
  const workspaceSlug = "atlas";
  assert.deepEqual(frames[0], {
    type: "batch_starting",
    workspaceSlug,
    filenames: [rivers, short, missing],
    totalDocs: 3,
  });
  assert.deepEqual(frames.map((frame) => [frame.type, "filename" in frame ? frame.filename : null]), [
    ["batch_starting", null],
    ["doc_starting", rivers],
    ["chunk_progress", rivers],
    ["doc_complete", rivers],
    ["doc_starting", short],
    ["chunk_progress", short],
    ["doc_complete", short],
    ["doc_starting", missing],
    ["doc_failed", missing],
    ["all_complete", null],
  ]);
  assert.deepEqual(frames[1], {
    type: "doc_starting",
    workspaceSlug,
    filename: rivers,
    docIndex: 0,
    totalDocs: 3,
  });
  const chunks = frames[2] as Extract<WorkspaceEmbedFrame, { type: "chunk_progress" }>;
  assert.ok(chunks.totalChunks > 1, `rivers.txt has ${chunks.totalChunks} chunks`);
  assert.equal(chunks.chunksProcessed, chunks.totalChunks);
  assert.deepEqual(frames[3], {
    type: "doc_complete",
    workspaceSlug,
    filename: rivers,
    docIndex: 0,
    totalDocs: 3,
  });
  assert.deepEqual(frames[8], {
    type: "doc_failed",
    workspaceSlug,
    filename: missing,
    docIndex: 2,
    totalDocs: 3,
    error: `Cannot find the document "${missing}".`,
  });
  assert.deepEqual(frames[9], {
    type: "all_complete",
    workspaceSlug,
    totalDocs: 3,
    embedded: 2,
    failed: 1,
    embeddedFiles: [rivers, short],
    failedFiles: [missing],
  });

  // The same connection carries the next run; a document already in the workspace completes at once.
  const again = await embed(app, [short]);
  assert.equal(again.body.message, null);
  assert.deepEqual(
    (await stream.until("all_complete")).map((frame) => frame.type),
    ["batch_starting", "doc_starting", "doc_complete", "all_complete"],
  );
  await stream.close();
});

Deno.test("a client that connects just after a run ended is sent that run, so a fast embedding is not left queued", async () => {
  await using app = await instance();
  const short = await uploadText(app, "atlas", "short.txt", "A short note.");
  assert.equal((await embed(app, [short])).status, 200);

  const stream = frameReader(await app.request("/api/workspace/atlas/embed-progress"));
  const frames = await stream.until("all_complete");
  assert.deepEqual(frames.map((frame) => frame.type), [
    "batch_starting",
    "doc_starting",
    "chunk_progress",
    "doc_complete",
    "all_complete",
  ]);
  assert.deepEqual(frames.at(-1), {
    type: "all_complete",
    workspaceSlug: "atlas",
    totalDocs: 1,
    embedded: 1,
    failed: 0,
    embeddedFiles: [short],
    failedFiles: [],
  });
  await stream.close();
  assert.equal(app.deps.streams.size, 0, "a closed client leaves no stream open");
});

Deno.test("embed-queue takes a document that waits in a running batch out of it; file_removed follows", async () => {
  await using embeddings = startFakeEmbedders({ dimensions: 16 });
  await using app = await instance({ providerDeps: quick });
  const saved = await app.json("/api/system/update-env", {
    json: {
      EmbeddingEngine: "generic-openai",
      EmbeddingBasePath: `${embeddings.url}/v1`,
      EmbeddingModelPref: "m",
    },
  });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
  const first = await uploadText(app, "atlas", "first.txt", "The first document.");
  const second = await uploadText(app, "atlas", "second.txt", "The second document.");

  const idle = await app.json("/api/workspace/atlas/embed-queue", {
    method: "DELETE",
    json: { filename: second },
  });
  assert.deepEqual(
    [idle.status, idle.body],
    [200, { success: false }],
    "nothing runs, so nothing is removed",
  );

  const gate = embeddings.hold(0);
  const stream = frameReader(await app.request("/api/workspace/atlas/embed-progress"));
  const embedding = embed(app, [first, second]);
  // The first document is being embedded (and held by the fake); the second waits its turn.
  assert.equal((await stream.until("doc_starting")).at(-1)?.type, "doc_starting");
  const busy = await app.json("/api/workspace/atlas/embed-queue", {
    method: "DELETE",
    json: { filename: first },
  });
  assert.deepEqual(busy.body, { success: false }, "a document already being embedded stays");
  const removed = await app.json("/api/workspace/atlas/embed-queue", {
    method: "DELETE",
    json: { filename: second },
  });
  assert.deepEqual([removed.status, removed.body], [200, { success: true }]);
  assert.deepEqual(await stream.next(), { type: "file_removed", workspaceSlug: "atlas", filename: second });
  gate.release();
  assert.equal((await embedding).status, 200);
  const rest = await stream.until("all_complete");
  assert.deepEqual(rest.map((frame) => frame.type), ["chunk_progress", "doc_complete", "all_complete"]);
  assert.deepEqual(rest.at(-1), {
    type: "all_complete",
    workspaceSlug: "atlas",
    totalDocs: 1,
    embedded: 1,
    failed: 0,
    embeddedFiles: [first],
    failedFiles: [],
  });
  await stream.close();
  const workspace = await app.json<{ workspace: { documents: { docpath: string }[] } }>(
    "/api/workspace/atlas",
  );
  assert.deepEqual(workspace.body.workspace.documents.map((doc) => doc.docpath), [first]);

  const missing = await app.json("/api/workspace/atlas/embed-queue", { method: "DELETE", json: {} });
  assert.equal(missing.status, 400);
  assert.deepEqual(missing.body, { success: false, error: "Missing filename" });
  const notAnObject = await app.json("/api/workspace/atlas/embed-queue", {
    method: "DELETE",
    json: [second],
  });
  assert.equal(notAnObject.status, 400);
  assert.deepEqual(notAnObject.body, { success: false, error: "Missing filename" });
});

Deno.test("embed-progress and embed-queue are for admins and managers of a workspace that exists; HEAD answers the headers", async () => {
  await using app = await createTestApp();
  const admin = await multiUserInstance(app);
  const manager = await addUser(app, admin, "mara", "manager");
  const member = await addUser(app, admin, "dora", "default");
  const created = await app.json<{ workspace: { id: number } }>("/api/workspace/new", {
    ...bearer(admin.token),
    json: { name: "Atlas" },
  });
  await app.json(`/api/admin/workspaces/${created.body.workspace.id}/update-users`, {
    ...bearer(admin.token),
    json: { userIds: [member.user.id] },
  });

  const refused = await app.json("/api/workspace/atlas/embed-progress", bearer(member.token));
  assert.equal(refused.status, 403);
  assert.deepEqual(refused.body, { success: false, error: "You do not have permission to do that." });
  const queue = await app.json("/api/workspace/atlas/embed-queue", {
    ...bearer(member.token),
    method: "DELETE",
    json: { filename: "custom-documents/a.json" },
  });
  assert.equal(queue.status, 403);
  assert.deepEqual(queue.body, { success: false, error: "You do not have permission to do that." });

  const anonymous = await app.json("/api/workspace/atlas/embed-progress");
  assert.equal(anonymous.status, 401);
  const unknown = await app.json("/api/workspace/nowhere/embed-progress", bearer(manager.token));
  assert.equal(unknown.status, 404);
  assert.deepEqual(unknown.body, { success: false, error: "Workspace does not exist." });

  const head = await app.request("/api/workspace/atlas/embed-progress", {
    method: "HEAD",
    ...bearer(manager.token),
  });
  assert.equal(head.status, 200);
  assert.equal(head.headers.get("content-type"), "text/event-stream");
  assert.equal(await head.text(), "");
  assert.equal(app.deps.streams.size, 0, "a HEAD request opens no stream");

  const stream = frameReader(
    await app.request("/api/workspace/atlas/embed-progress", bearer(manager.token)),
  );
  assert.equal(app.deps.streams.size, 1);
  await stream.close();
  assert.equal(app.deps.streams.size, 0);
});
