import assert from "node:assert/strict";
import { EmbedProgress, FINISHED_REPLAY_MS, type WorkspaceEmbedFrame } from "./progress.ts";

const atlas = { id: 1, slug: "atlas" };

/** Takes `count` frames from a workspace's stream, then stops listening. */
async function take(progress: EmbedProgress, count: number, during?: () => void) {
  const controller = new AbortController();
  const frames: WorkspaceEmbedFrame[] = [];
  const stream = progress.frames(atlas.id, controller.signal);
  const first = stream.next();
  during?.();
  let next = await first;
  while (!next.done) {
    frames.push(next.value);
    if (frames.length === count) break;
    next = await stream.next();
  }
  controller.abort();
  await stream.return(undefined);
  return frames;
}

function run(progress: EmbedProgress, locations: string[]) {
  const batch = progress.begin(atlas, locations);
  locations.forEach((location, index) => {
    batch.starting(location, index);
    batch.complete(location, index);
  });
  batch.end();
}

Deno.test("a client connecting during a run gets its frames so far, with only the latest chunk count", async () => {
  const progress = new EmbedProgress();
  const batch = progress.begin(atlas, ["f/a.json", "f/b.json"]);
  batch.starting("f/a.json", 0);
  batch.chunks("f/a.json", 10, 30);
  batch.chunks("f/a.json", 20, 30);
  const frames = await take(progress, 4, () => batch.chunks("f/a.json", 30, 30));
  assert.deepEqual(frames.map((frame) => frame.type), [
    "batch_starting",
    "doc_starting",
    "chunk_progress",
    "chunk_progress",
  ]);
  assert.deepEqual(
    frames.slice(2).map((frame) => "chunksProcessed" in frame && frame.chunksProcessed),
    [20, 30],
  );
  batch.end();
  assert.equal(progress.isRunning(atlas.id), false);
});

Deno.test("overlapping batches of a workspace end with one all_complete carrying the run's totals", async () => {
  const progress = new EmbedProgress();
  const seen: WorkspaceEmbedFrame[] = [];
  const done = take(progress, 7).then((frames) => seen.push(...frames));
  const first = progress.begin(atlas, ["f/a.json"]);
  const second = progress.begin(atlas, ["f/b.json"]);
  first.starting("f/a.json", 0);
  first.complete("f/a.json", 0);
  first.end();
  assert.equal(progress.isRunning(atlas.id), true, "the second batch still runs");
  second.starting("f/b.json", 0);
  second.failed("f/b.json", 0, "The embedder is down.");
  second.end();
  second.end();
  await done;
  assert.deepEqual(seen.map((frame) => frame.type), [
    "batch_starting",
    "batch_starting",
    "doc_starting",
    "doc_complete",
    "doc_starting",
    "doc_failed",
    "all_complete",
  ]);
  assert.deepEqual(seen.at(-1), {
    type: "all_complete",
    workspaceSlug: "atlas",
    totalDocs: 2,
    embedded: 1,
    failed: 1,
    embeddedFiles: ["f/a.json"],
    failedFiles: ["f/b.json"],
  });
});

Deno.test("a run that starts just after a client connected is streamed instead of the one that just ended", async () => {
  const progress = new EmbedProgress();
  run(progress, ["f/old.json"]);
  const frames = await take(progress, 1, () => progress.begin(atlas, ["f/new.json"]).end());
  assert.deepEqual(frames, [
    { type: "batch_starting", workspaceSlug: "atlas", filenames: ["f/new.json"], totalDocs: 1 },
  ]);
});

Deno.test("a run that ended long ago is not replayed: the stream waits for the next run", async () => {
  let now = 1_000_000;
  const progress = new EmbedProgress(() => now);
  run(progress, ["f/old.json"]);
  now += FINISHED_REPLAY_MS;
  const frames = await take(progress, 1, () => run(progress, ["f/new.json"]));
  assert.deepEqual(frames, [
    { type: "batch_starting", workspaceSlug: "atlas", filenames: ["f/new.json"], totalDocs: 1 },
  ]);
});

Deno.test("removeQueued takes only documents that wait, and the batch skips them", () => {
  const progress = new EmbedProgress();
  assert.equal(progress.removeQueued(atlas.id, "f/a.json"), false, "nothing runs");
  const batch = progress.begin(atlas, ["f/a.json", "f/b.json"]);
  batch.starting("f/a.json", 0);
  assert.equal(progress.removeQueued(atlas.id, "f/a.json"), false, "already started");
  assert.equal(progress.removeQueued(atlas.id, "f/c.json"), false, "not in the batch");
  assert.equal(progress.removeQueued(atlas.id, "f/b.json"), true);
  assert.equal(progress.removeQueued(atlas.id, "f/b.json"), false, "removed once");
  assert.equal(batch.removed("f/a.json"), false);
  assert.equal(batch.removed("f/b.json"), true);
  batch.end();
  assert.equal(progress.removeQueued(atlas.id, "f/b.json"), false);
});
