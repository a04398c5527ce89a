// kill -9 of the real server while documents are uploaded and embedded, then while a re-embedding job runs.
import assert from "node:assert/strict";
import { startServerProcess } from "../../server/testing/process.ts";
import { startFakeOpenAi } from "../../server/testing/fake_openai.ts";
import { genericOpenAiSettings } from "../../server/testing/test_app.ts";
import {
  checkDatabaseFile,
  getJson,
  libraryDocuments,
  postJson,
  queryDatabaseFile,
  uploadTo,
} from "./helpers.ts";

const UPLOADS = 40;
const CONCURRENCY = 6;
const KILL_AFTER = 12;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

Deno.test({
  name:
    "kill -9 during an ingest, then during a re-embedding job: acknowledged uploads are listed and embedded, vectors match, the job is restarted and the cut one marked with a reason",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const storage = await Deno.makeTempDir({ prefix: "lectern-faults-" });
    await using llm = startFakeOpenAi();
    // A slow embedder keeps several uploads in flight when the kill lands.
    llm.setEmbeddingDelay(40);
    const settings = genericOpenAiSettings(llm.baseURL, {
      EmbeddingEngine: "generic-openai",
      EmbeddingBasePath: llm.baseURL,
      EmbeddingModelPref: "embed-a",
    });
    try {
      // Step 1: 40 uploads six at a time; kill -9 once twelve were acknowledged.
      const acknowledged = new Map<string, string>(); // title → location
      let inFlightAtKill = 0;
      {
        await using server = await startServerProcess({ STORAGE_DIR: storage });
        assert.equal((await postJson(`${server.url}/api/system/update-env`, settings)).status, 200);
        assert.equal((await postJson(`${server.url}/api/workspace/new`, { name: "Ingest" })).status, 200);
        const queue = Array.from({ length: UPLOADS }, (_, index) => index);
        let killed = false;
        let inFlight = 0;
        const worker = async () => {
          while (!killed && queue.length > 0) {
            const index = queue.shift()!;
            const title = `note-${index}.txt`;
            inFlight++;
            try {
              const file = new File([`Note ${index}: herons number ${index * 7} in the marsh.`], title);
              const answer = await uploadTo(server.url, "ingest", "upload-and-embed", file);
              if (answer.status === 200 && answer.body.success === true) {
                acknowledged.set(title, answer.body.document.location);
              }
            } catch {
              // The server died with this upload in flight: it was never acknowledged.
            } finally {
              inFlight--;
            }
            if (!killed && acknowledged.size >= KILL_AFTER) {
              killed = true;
              inFlightAtKill = inFlight;
              await server.kill("SIGKILL");
            }
          }
        };
        await Promise.all(Array.from({ length: CONCURRENCY }, worker));
        assert.ok(killed, "the server was killed mid-ingest");
        assert.notEqual(await server.exited(), 0);
      }
      assert.ok(acknowledged.size >= KILL_AFTER && acknowledged.size < UPLOADS);

      // After the restart: every acknowledged upload is in the library and embedded in the workspace, every
      // embedded document is in the library, and the vectors are exactly those of the embedded documents.
      let killedJob: number;
      {
        await using server = await startServerProcess({ STORAGE_DIR: storage });
        const listed = await libraryDocuments(server.url);
        const titles = new Set(listed.map((document) => document.title));
        for (const title of acknowledged.keys()) assert.ok(titles.has(title), `${title} is listed`);
        const workspace = (await getJson(`${server.url}/api/workspace/ingest`)).workspace;
        const embedded = new Set<string>(
          workspace.documents.map((document: { docpath: string }) => document.docpath),
        );
        for (const location of acknowledged.values()) {
          assert.ok(embedded.has(location), `${location} is embedded`);
        }
        const locations = new Set(listed.map((document) => document.location));
        for (const location of embedded) assert.ok(locations.has(location), `${location} is in the library`);
        const vectors = await getJson(`${server.url}/api/system/system-vectors?slug=ingest`);
        assert.equal(vectors.vectorCount, embedded.size, "one chunk per embedded note, no stray vectors");

        // Step 2: another embedding model re-embeds every document in the background; kill -9 mid-job. The new
        // model answers three documents, then holds its answers until the server dies: the job cannot end before
        // the kill, however late a loaded machine lets this loop see its progress.
        let answered = 0;
        let holding = true;
        llm.setEmbeddingDelay(({ model }) =>
          model === "embed-b" && holding && ++answered > 3 ? 3_600_000 : 40
        );
        assert.equal(
          (await postJson(`${server.url}/api/system/update-env`, { EmbeddingModelPref: "embed-b" })).status,
          200,
        );
        while (true) {
          const { job } = await getJson(`${server.url}/api/system/embedding-jobs`);
          assert.notEqual(job?.state, "done", "the job was killed before it ended");
          if (job?.state === "running" && job.done >= 3) {
            killedJob = job.id;
            break;
          }
          await sleep(10);
        }
        await server.kill("SIGKILL");
        assert.notEqual(await server.exited(), 0);
        holding = false;
      }

      // After the restart: the cut job is marked with a reason, a new one runs to the end, and the vectors are
      // the embedded documents' for the new model.
      {
        await using server = await startServerProcess({ STORAGE_DIR: storage });
        let state: { active: { model: string }; job: { id: number; state: string; error: string | null } };
        while (true) {
          state = await getJson(`${server.url}/api/system/embedding-jobs`);
          assert.ok(state.job.id > killedJob, "a new job started");
          if (state.job.state !== "running") break;
          await sleep(20);
        }
        assert.equal(state.job.state, "done", JSON.stringify(state.job));
        assert.equal(state.active.model, "embed-b");
        const workspace = (await getJson(`${server.url}/api/workspace/ingest`)).workspace;
        const vectors = await getJson(`${server.url}/api/system/system-vectors?slug=ingest`);
        assert.equal(vectors.vectorCount, workspace.documents.length);
        await server.kill("SIGTERM");
        assert.equal(await server.exited(), 0);
      }

      // On disk, with the server stopped: the database is sound, the cut job says why it ended, and every
      // indexed document has its whole file; files left by uploads cut mid-way are complete and at most as
      // many as were in flight (they are not listed anywhere).
      const database = `${storage}/lectern.db`;
      await checkDatabaseFile(database);
      const [cut] = await queryDatabaseFile(
        database,
        `SELECT status, error FROM embedding_jobs WHERE id = ${killedJob}`,
      );
      assert.deepEqual([cut[0], cut[1]], [
        "cancelled",
        "The server stopped before the job ended; it was started again.",
      ]);
      const rows = await queryDatabaseFile(database, "SELECT location, title FROM documents");
      const indexed = new Set(rows.map((row) => String(row[0])));
      for (const row of rows) {
        const document = JSON.parse(await Deno.readTextFile(`${storage}/documents/${row[0]}`));
        assert.equal(document.title, row[1]);
      }
      let orphans = 0;
      for await (const entry of Deno.readDir(`${storage}/documents/custom-documents`)) {
        if (indexed.has(`custom-documents/${entry.name}`)) continue;
        orphans++;
        if (entry.name.endsWith(".json")) {
          JSON.parse(await Deno.readTextFile(`${storage}/documents/custom-documents/${entry.name}`));
        }
      }
      assert.ok(orphans <= inFlightAtKill, `${orphans} unlisted files, ${inFlightAtKill} uploads in flight`);
    } finally {
      await Deno.remove(storage, { recursive: true });
    }
  },
});
