// `lectern backup` against a running server while it streams a chat answer and embeds a document, then
// `lectern restore` into a new storage: the restored server answers the same question with the same sources.
// And the refusals of restore: a newer schema, a damaged file, a running server.
import assert from "node:assert/strict";
import { join } from "node:path";
import { createTarDecoder, createTarPacker } from "modern-tar";
import { startServerProcess } from "../../server/testing/process.ts";
import { startFakeOpenAi } from "../../server/testing/fake_openai.ts";
import { genericOpenAiSettings } from "../../server/testing/test_app.ts";
import { runLectern } from "../../server/testing/cli.ts";
import { KNOWN_MIGRATIONS } from "../../server/backup/archive.ts";
import { getJson, postJson, uploadTo } from "../faults/helpers.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const QUESTION = "When does the harbour open?";

interface Answer {
  textResponse: string;
  sources: { title: string; text: string }[];
}

/** Asks the question through the chat stream; the text and the sources its frames carry. */
async function ask(url: string): Promise<Answer> {
  const response = await fetch(`${url}/api/workspace/harbour/stream-chat`, {
    method: "POST",
    body: JSON.stringify({ message: QUESTION }),
  });
  assert.equal(response.status, 200);
  const frames = (await response.text()).split("\n\n").filter(Boolean).map((block) =>
    JSON.parse(block.slice("data: ".length))
  );
  const answer: Answer = { textResponse: "", sources: [] };
  for (const frame of frames) {
    assert.notEqual(frame.type, "abort", JSON.stringify(frame));
    if (frame.type === "textResponseChunk") answer.textResponse += frame.textResponse ?? "";
    if (Array.isArray(frame.sources) && frame.sources.length > 0) answer.sources = frame.sources;
  }
  return answer;
}

const sourcesOf = (answer: Answer) =>
  answer.sources.map((source) => `${source.title}: ${source.text}`).sort();

/** Rewrites a backup's entries (the test's own tar use: a backup edited by hand). */
async function rewrite(
  from: string,
  to: string,
  edit: (name: string, bytes: Uint8Array) => Uint8Array,
): Promise<void> {
  const entries = (await Deno.open(from)).readable.pipeThrough(new DecompressionStream("gzip"))
    .pipeThrough(createTarDecoder());
  const { readable, controller } = createTarPacker();
  const writing = (async () => {
    for await (const entry of entries) {
      const bytes = edit(entry.header.name, new Uint8Array(await new Response(entry.body).arrayBuffer()));
      const writer = controller.add({ name: entry.header.name, size: bytes.length, type: "file" })
        .getWriter();
      await writer.write(bytes);
      await writer.close();
    }
    controller.finalize();
  })();
  const output = await Deno.open(to, { write: true, create: true, truncate: true });
  await readable.pipeThrough(new CompressionStream("gzip")).pipeTo(output.writable);
  await writing;
}

Deno.test({
  name:
    "a backup taken through the CLI during a streaming chat and an ingest restores into a new storage that answers the same question with the same sources; restore refuses a newer schema, a damaged file and a running server",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const root = await Deno.makeTempDir({ prefix: "lectern-ops-" });
    const storage = join(root, "storage");
    const file = join(root, "backup.tar.gz");
    await using llm = startFakeOpenAi();
    try {
      let before: Answer;
      {
        await using server = await startServerProcess({ STORAGE_DIR: storage });
        const settings = genericOpenAiSettings(llm.baseURL, {
          EmbeddingEngine: "generic-openai",
          EmbeddingBasePath: llm.baseURL,
          EmbeddingModelPref: "embed-a",
        });
        assert.equal((await postJson(`${server.url}/api/system/update-env`, settings)).status, 200);
        assert.equal((await postJson(`${server.url}/api/workspace/new`, { name: "Harbour" })).status, 200);
        // Every chunk is a source (the fake embedder's vectors are lexical: a threshold would drop some).
        const threshold = await postJson(`${server.url}/api/workspace/harbour/update`, {
          similarityThreshold: 0,
        });
        assert.equal(threshold.status, 200, JSON.stringify(threshold.body));
        const hours = new File(["The harbour opens at seven and closes at dusk."], "hours.txt");
        assert.equal((await uploadTo(server.url, "harbour", "upload-and-embed", hours)).status, 200);

        // A slow answer and a slow embedder keep both in flight while the backup is taken.
        llm.setReply((request) => ({
          chunks: ["The ", "harbour ", "opens ", "at ", "seven", ` (${request.messages.length} messages).`],
          delayMs: 150,
        }));
        llm.setEmbeddingDelay(400);
        const chatRequests = llm.chatRequests.length;
        const embeddingRequests = llm.embeddingRequests.length;
        const streaming = fetch(`${server.url}/api/workspace/harbour/stream-chat`, {
          method: "POST",
          body: JSON.stringify({ message: "Tell me about the harbour." }),
        }).then((response) => response.text());
        const tides = new File(["The tide turns at noon; boats leave the harbour then."], "tides.txt");
        const ingest = uploadTo(server.url, "harbour", "upload-and-embed", tides);
        while (
          llm.chatRequests.length === chatRequests || llm.embeddingRequests.length === embeddingRequests
        ) {
          await sleep(20);
        }
        const backup = await runLectern(["backup", file, "--storage", storage]);
        assert.equal(backup.code, 0, backup.stderr);
        assert.match(backup.stdout, /Backup written to .* by the running server\./);
        const frames = await streaming;
        assert.ok(frames.includes("seven"), "the chat went on to its end during the backup");
        assert.ok(frames.includes("finalizeResponseStream"));
        assert.equal((await ingest).status, 200);
        llm.setReply((request) => ({ chunks: [`Answered with ${request.messages.length} messages.`] }));
        llm.setEmbeddingDelay(0);
        before = await ask(server.url);
        assert.ok(before.sources.length >= 2, JSON.stringify(before.sources));

        // Restore refuses while a server holds the storage.
        const refused = await runLectern(["restore", file, "--storage", storage]);
        assert.equal(refused.code, 1);
        assert.match(
          refused.stderr,
          /A Lectern server is running on .*\. Stop it before you restore a backup\./,
        );
        await server.kill("SIGTERM");
        assert.equal(await server.exited(), 0);
      }

      // A backup of a newer schema, and a damaged one, are refused; the storage is left as it was.
      const newer = join(root, "newer.tar.gz");
      await rewrite(file, newer, (name, bytes) => {
        if (name !== "manifest.json") return bytes;
        const manifest = JSON.parse(new TextDecoder().decode(bytes));
        manifest.migrations = KNOWN_MIGRATIONS + 1;
        return new TextEncoder().encode(JSON.stringify(manifest));
      });
      const tooNew = await runLectern(["restore", newer, "--storage", storage]);
      assert.equal(tooNew.code, 1);
      assert.match(tooNew.stderr, /newer schema \(\d+ migrations\) than this Lectern knows/);
      const damaged = join(root, "damaged.tar.gz");
      await rewrite(file, damaged, (name, bytes) => {
        if (!name.startsWith("storage/documents/")) return bytes;
        const changed = bytes.slice();
        changed[changed.length - 2] ^= 0xff;
        return changed;
      });
      const bad = await runLectern(["restore", damaged, "--storage", storage]);
      assert.equal(bad.code, 1);
      assert.match(bad.stderr, /The backup is damaged: documents\/.* does not match its checksum\./);
      const garbage = join(root, "garbage.tar.gz");
      await Deno.writeTextFile(garbage, "not a backup at all");
      const unreadable = await runLectern(["restore", garbage, "--storage", storage]);
      assert.equal(unreadable.code, 1);
      assert.match(unreadable.stderr.trim(), /\.$/);
      const left = [...Deno.readDirSync(root)].map((entry) => entry.name).sort();
      assert.deepEqual(
        left.filter((name) => name.startsWith("storage")),
        ["storage"],
        "nothing half-restored",
      );

      // Restored into a new storage: the same question gets the same sources (and the same answer).
      const restoredStorage = join(root, "restored");
      const restored = await runLectern(["restore", file, "--storage", restoredStorage]);
      assert.equal(restored.code, 0, restored.stderr);
      assert.match(restored.stdout, /Restored the backup of/);
      {
        await using server = await startServerProcess({ STORAGE_DIR: restoredStorage });
        const workspace = (await getJson(`${server.url}/api/workspace/harbour`)).workspace;
        assert.equal(workspace.documents.length, 2, "the document embedded during the backup is in it");
        const after = await ask(server.url);
        assert.deepEqual(sourcesOf(after), sourcesOf(before));
        assert.equal(after.textResponse.replace(/\d+ messages/, "N messages"), "Answered with N messages.");
        await server.kill("SIGTERM");
        assert.equal(await server.exited(), 0);
      }

      // Restoring over an existing storage keeps the one before beside it.
      const over = await runLectern(["restore", file, "--storage", storage]);
      assert.equal(over.code, 0, over.stderr);
      const kept = [...Deno.readDirSync(root)].map((entry) => entry.name)
        .filter((name) => name.startsWith("storage.before-restore-"));
      assert.equal(kept.length, 1);
      assert.ok((await Deno.stat(join(root, kept[0], "lectern.db"))).isFile);
    } finally {
      // The servers' disposes waited for their workers: nothing writes into the folder any more.
      await Deno.remove(root, { recursive: true });
    }
  },
});
