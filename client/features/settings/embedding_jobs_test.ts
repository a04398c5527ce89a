import assert from "node:assert/strict";
import type {
  EmbeddingJob,
  EmbeddingProgressFrame,
  NativeModelsAnswer,
} from "../../../shared/api/embedding.ts";
import { json, stubFetch, stubStorage } from "../../testing/stubs.ts";
import {
  anyDownloading,
  fetchEmbeddingJobs,
  jobProgress,
  nativeModelState,
  readProgress,
  receivedMegabytes,
} from "./embedding_jobs.ts";

const JOB: EmbeddingJob = {
  id: 4,
  state: "running",
  engine: "native",
  model: null,
  done: 10,
  total: 100,
  failed: 1,
  error: null,
};
const frame = (changes: Partial<EmbeddingProgressFrame>): EmbeddingProgressFrame => ({
  type: "progress",
  jobId: 4,
  done: 50,
  total: 100,
  failed: 2,
  ...changes,
});

Deno.test("jobProgress() shows the live frame of the running job, else the job's own counts", () => {
  assert.deepEqual(jobProgress(JOB, frame({})), frame({}));
  assert.equal(jobProgress(JOB, null), JOB);
  assert.equal(jobProgress(JOB, frame({ jobId: 3 })), JOB, "a frame of another job");
});

Deno.test("jobProgress() shows no progress while no job runs", () => {
  assert.equal(jobProgress(null, frame({})), null);
  for (const state of ["done", "failed", "cancelled"] as const) {
    assert.equal(jobProgress({ ...JOB, state }, frame({})), null, state);
  }
});

type Model = NativeModelsAnswer["models"][number];
const model = (changes: Partial<Model>, download: Partial<Model["download"]> = {}): Model => ({
  id: "m",
  name: "M",
  builtIn: false,
  installed: false,
  downloadMb: 90,
  ...changes,
  download: { state: "idle", receivedBytes: 0, error: null, ...download },
});

Deno.test("nativeModelState() says built in, installed, downloading or offers the download", () => {
  assert.equal(nativeModelState(model({ builtIn: true, installed: false })), "builtIn");
  assert.equal(nativeModelState(model({ installed: true }, { state: "downloading" })), "installed");
  assert.equal(nativeModelState(model({}, { state: "downloading" })), "downloading");
  assert.equal(nativeModelState(model({}, { state: "failed", error: "offline" })), "notInstalled");
  assert.equal(nativeModelState(model({})), "notInstalled");
});

Deno.test("anyDownloading() is true while a model downloads", () => {
  assert.equal(anyDownloading(null), false);
  assert.equal(anyDownloading([]), false);
  assert.equal(anyDownloading([model({}), model({}, { state: "ready" })]), false);
  assert.equal(anyDownloading([model({}), model({}, { state: "downloading" })]), true);
});

Deno.test("receivedMegabytes() gives the bytes received as megabytes with one decimal", () => {
  assert.equal(receivedMegabytes(model({}, { receivedBytes: 0 })), "0.0");
  assert.equal(receivedMegabytes(model({}, { receivedBytes: 1024 * 1024 * 2.26 })), "2.3");
});

Deno.test("fetchEmbeddingJobs() reads the active embedder and the job", async () => {
  using _storage = stubStorage();
  const answer = { active: { engine: "native", model: "m", fingerprint: null, error: null }, job: JOB };
  using fetch = stubFetch(() => json(answer));
  assert.deepEqual(await fetchEmbeddingJobs(), answer);
  assert.equal(fetch.requests[0].url, "/api/system/embedding-jobs");
});

Deno.test("readProgress() reports each valid frame, split or not, and skips frames that do not fit", async () => {
  using _storage = stubStorage();
  const text = `data: ${JSON.stringify(frame({ type: "started", done: 0 }))}\n\n` +
    `data: ${JSON.stringify({ type: "mystery" })}\n\n` +
    `data: ${JSON.stringify(frame({}))}\n\n` +
    `data: ${JSON.stringify(frame({ type: "done", done: 100 }))}\n\n`;
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(text.slice(0, 37)));
      controller.enqueue(encoder.encode(text.slice(37)));
      controller.close();
    },
  });
  using fetch = stubFetch(() => new Response(body, { headers: { "content-type": "text/event-stream" } }));
  const frames: EmbeddingProgressFrame[] = [];
  await readProgress((received) => frames.push(received), new AbortController().signal);
  assert.deepEqual(frames.map((received) => [received.type, received.done]), [["started", 0], [
    "progress",
    50,
  ], ["done", 100]]);
  assert.equal(fetch.requests[0].url, "/api/system/embedding-jobs/progress");
});

Deno.test("readProgress() throws when the stream is refused", async () => {
  using _storage = stubStorage();
  using _fetch = stubFetch(() => json({ error: "Forbidden" }, 403));
  await assert.rejects(readProgress(() => {}, new AbortController().signal), {
    name: "ApiError",
    status: 403,
    message: "The progress stream answered 403",
  });
});
