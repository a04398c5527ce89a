// Replicas sharing a database (issue 19, server/jobs/): a re-embedding job runs on the replica that holds the job
// runner's lease. When that replica stops renewing (here its database connection is cut, as a crash or a network
// split would), it stops its job, and the replica that takes the lease over starts the job again and finishes it.
import assert from "node:assert/strict";
import { join } from "node:path";
import { createClient } from "@libsql/client";
import type { EmbeddingJobsAnswer } from "../../shared/api/embedding.ts";
import { startFakeLibsql } from "../testing/fake_libsql.ts";
import { startFakeOpenAi } from "../testing/fake_openai.ts";
import { createTestApp, genericOpenAiSettings, readFrames, type TestApp } from "../testing/test_app.ts";
import { startFakeEmbedders } from "../providers/embedders/testing/fake_embedders.ts";
import { workspaceNamespace } from "../providers/vectors/namespace.ts";
import { createLogger } from "../log.ts";

async function until(what: string, check: () => boolean | Promise<boolean>) {
  for (let attempt = 0; attempt < 600; attempt++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${what} did not happen.`);
}

async function uploadAndEmbed(app: TestApp, name: string, text: string) {
  const form = new FormData();
  form.append("file", new File([text], name));
  const uploaded = await app.json<{ documents: { location: string }[] }>("/api/workspace/atlas/upload", {
    method: "POST",
    body: form,
  });
  assert.equal(uploaded.status, 200, JSON.stringify(uploaded.body));
  const embedded = await app.json<{ message: string | null }>("/api/workspace/atlas/update-embeddings", {
    json: { adds: [uploaded.body.documents[0].location] },
  });
  assert.equal(embedded.body.message, null);
}

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

const jobsOf = async (app: TestApp) =>
  (await app.json<EmbeddingJobsAnswer>("/api/system/embedding-jobs")).body;

Deno.test({
  name:
    "replicas: the re-embedding job of a leader that stops renewing its lease is started again and finished by the replica that takes it over",
  async fn() {
    const directory = await Deno.makeTempDir({ prefix: "lectern-takeover-" });
    const storageDir = join(directory, "storage");
    await Deno.mkdir(storageDir);
    const file = join(directory, "shared.db");
    // Two loopback libSQL servers over one database file: cutting A's leaves B's database reachable.
    const serverA = startFakeLibsql(file);
    await using serverB = startFakeLibsql(file);
    await using llm = startFakeOpenAi();
    // 384 dimensions: the chat below must cite herons.txt at any upload time (fake_embedders.ts vectorFor).
    await using embeddings = startFakeEmbedders({ dimensions: 384 });
    // A lease of 10 s (renewed every 3.3 s): A keeps it through the event-loop stalls of a loaded test machine (with
    // 1 s, a 700 ms stall let B take it over before the cut, and the job ran on B); B takes it over at most 10 s
    // after A's last renewal.
    const env = (url: string, id: string) => ({
      DATABASE_URL: url,
      LECTERN_REPLICA_ID: id,
      JOB_LEASE_SECONDS: "10",
      SETTINGS_REFRESH_SECONDS: "1",
    });
    // Both replicas' log lines (info and up), shown when the test fails: a 500 says why only in the log.
    const lines: string[] = [];
    const logOf = (id: string) => createLogger("info", (line) => lines.push(`${id}: ${line}`));
    const a = await createTestApp({ storageDir, env: env(serverA.url, "a"), log: logOf("A") });
    let aClosed = false;
    try {
      await using b = await createTestApp({ storageDir, env: env(serverB.url, "b"), log: logOf("B") });
      assert.deepEqual([a.deps.jobs.isLeader, b.deps.jobs.isLeader], [true, false]);
      assert.equal(
        (await a.json("/api/system/update-env", { json: genericOpenAiSettings(llm.baseURL) })).status,
        200,
      );
      assert.equal((await a.json("/api/workspace/new", { json: { name: "Atlas" } })).status, 200);
      await uploadAndEmbed(
        a,
        "herons.txt",
        "Herons eat fish and frogs. The grey heron nests in colonies near rivers.",
      );
      await uploadAndEmbed(a, "owls.txt", "Owls hunt mice at night. The barn owl has a heart-shaped face.");
      const native = a.deps.providers.embedder().fingerprint;

      // The embedder is changed through B, which does not run the background jobs: A reads the settings and
      // starts the job; the fake embedder lets the first document through and holds the second.
      const gate = embeddings.hold(1);
      const saved = await b.json("/api/system/update-env", {
        json: {
          EmbeddingEngine: "generic-openai",
          EmbeddingBasePath: `${embeddings.url}/v1`,
          EmbeddingModelPref: "m",
        },
      });
      assert.equal(saved.status, 200);
      await until("A's job reaching the second document", () => gate.waiting() === 1);
      assert.equal(a.deps.providers.embedding.isRunning, true);
      assert.equal(b.deps.providers.embedding.isRunning, false, "the job runs on the leader only");
      const during = await jobsOf(b);
      assert.equal(during.job?.state, "running", "B shows the leader's job from the database");
      const abandonedId = during.job!.id;

      // A's database is cut: it cannot renew, stops leading and stops its job; its outcome cannot be written.
      await serverA.close();
      await until("A to stop leading", () => !a.deps.jobs.isLeader);
      gate.release();
      await until("A's job to stop", () => !a.deps.providers.embedding.isRunning);

      // B takes the lease over once it expired, starts the job again and finishes it.
      await until("B to lead", () => b.deps.jobs.isLeader);
      await until("B's job to end", async () => {
        const { job } = await jobsOf(b);
        return job !== null && job.id !== abandonedId && job.state !== "running";
      });
      const after = await jobsOf(b);
      assert.equal(after.job?.state, "done", JSON.stringify(after));
      assert.deepEqual([after.job?.done, after.job?.total, after.job?.failed], [2, 2, 0]);
      const target = `generic-openai:${embeddings.url}/v1:m`;
      assert.equal(after.active.fingerprint, target);

      const rows = await (async () => {
        const client = createClient({ url: serverB.url });
        try {
          return (await client.execute("SELECT id, status, error FROM embedding_jobs ORDER BY id")).rows;
        } finally {
          client.close();
        }
      })();
      const abandoned = rows.find((row) => Number(row.id) === abandonedId);
      assert.equal(abandoned?.status, "cancelled");
      assert.match(String(abandoned?.error), /took over started it again\.$/);
      assert.equal(rows.filter((row) => row.status === "done").length, 1, "one job finished, B's");

      // B answers from the new vectors; the old embedder's are gone.
      assert.ok((await citedTitles(b, "What do herons eat?")).includes("herons.txt"));
      const { body } = await b.json<{ workspace: { id: number } }>("/api/workspace/atlas");
      const count = (fingerprint: string) =>
        b.deps.vectors.count(workspaceNamespace(body.workspace.id, { fingerprint } as never));
      assert.equal(await count(target), 2);
      assert.equal(await count(native), 0);

      await a.close();
      aClosed = true;
    } catch (error) {
      console.error(`The replicas' log:\n${lines.join("\n")}`);
      throw error;
    } finally {
      if (!aClosed) await a.close().catch(() => {});
      await serverA.close().catch(() => {});
      await Deno.remove(directory, { recursive: true }).catch(() => {});
    }
  },
});
