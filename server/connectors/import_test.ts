import assert from "node:assert/strict";
import { join } from "node:path";
import { documents } from "../../db/schema.ts";
import { eq } from "drizzle-orm";
import type { ConnectorImport } from "../../shared/api/connectors.ts";
import { type FakeRepo, startFakeGithub } from "../testing/fake_github.ts";
import { createTestApp, type TestApp } from "../testing/test_app.ts";
import { connectorImports, INTERRUPTED_REASON, SHUTDOWN_REASON } from "./import.ts";

Deno.test("an import the last process did not finish is undone at the next start", async () => {
  const storageDir = await Deno.makeTempDir({ prefix: "lectern-test-" });
  try {
    let location: string;
    {
      await using app = await createTestApp({ storageDir });
      const kept = await app.deps.documents.save({
        fileStem: "kept.md",
        title: "kept.md",
        url: "file://kept.md",
        docAuthor: "Unknown",
        description: "Unknown",
        docSource: "upload",
        chunkSource: "",
        text: "An earlier document stays.",
      });
      const half = await app.deps.documents.save({
        fileStem: "README.md",
        title: "README.md",
        url: "https://github.com/octo/tides/blob/main/README.md",
        docAuthor: "octo",
        description: "README.md",
        docSource: "github data connector",
        chunkSource: "github://https://github.com/octo/tides/blob/main/README.md",
        text: "Half an import.",
        folder: "octo-tides-main",
        connector: { source: "github", key: "README.md", version: "abc" },
      });
      location = kept.location;
      // What a running import leaves when the process is killed: its log of the documents it wrote.
      const staging = join(storageDir, ".connector-imports", crypto.randomUUID());
      await Deno.mkdir(staging, { recursive: true });
      await Deno.writeTextFile(join(staging, "written.log"), `${half.location}\n`);
    }
    await using app = await createTestApp({ storageDir });
    const rows = await app.deps.db.select({ location: documents.location }).from(documents);
    assert.deepEqual(rows.map((row) => row.location), [location]);
    assert.deepEqual(await Array.fromAsync(Deno.readDir(join(storageDir, ".connector-imports"))), []);
  } finally {
    await Deno.remove(storageDir, { recursive: true }).catch(() => {});
  }
});

const TOKEN = "ghp_restart_token_0987654321";
const ENV = { LECTERN_CONNECTOR_PRIVATE_HOSTS: "127.0.0.1" };

function tides(): FakeRepo[] {
  return [{
    owner: "octo",
    name: "tides",
    defaultBranch: "main",
    branches: {
      main: { "a.md": "First file.\n", "b.md": "Second file.\n", "c.md": "Third file.\n" },
      release: { "a.md": "Released first.\n", "b.md": "Released second.\n" },
    },
  }];
}

type Answer<T> = { success: boolean; reason: string | null; data: T };

async function startImport(app: TestApp, repo: string, branch: string): Promise<ConnectorImport> {
  const answer = await app.json<Answer<{ import: ConnectorImport }>>("/api/ext/github/repo", {
    json: { repo, branch, accessToken: TOKEN, background: true },
  });
  assert.equal(answer.body.success, true, answer.body.reason ?? "");
  return answer.body.data.import;
}

/** Polls the import until it has stored `added` documents (the fake holds the rest). */
async function untilAdded(app: TestApp, id: string, added: number): Promise<void> {
  for (let attempt = 0; attempt < 500; attempt++) {
    const answer = await app.json<Answer<{ import: ConnectorImport }>>(`/api/ext/imports/${id}`);
    if (answer.body.data.import.added >= added) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  assert.fail(`The import never stored ${added} documents.`);
}

async function listed(app: TestApp): Promise<ConnectorImport[]> {
  const answer = await app.json<Answer<{ imports: ConnectorImport[] }>>("/api/ext/imports");
  assert.equal(answer.body.success, true);
  return answer.body.data.imports;
}

Deno.test("an import a crash cut short is listed as failed after the restart, what it wrote removed", async () => {
  const storageDir = await Deno.makeTempDir({ prefix: "lectern-test-" });
  const github = startFakeGithub({ repos: tides(), token: TOKEN });
  try {
    // The first server is caught half-way (one file stored, the others held) and never ends the import: the
    // second one, over the same storage, starts as a server restarted after a crash would.
    await using first = await createTestApp({ storageDir, env: ENV });
    const release = github.pause(1);
    const started = await startImport(first, `${github.url}/octo/tides`, "main");
    await untilAdded(first, started.id, 1);
    const folderRows = await first.deps.db.select().from(documents).where(
      eq(documents.folder, started.folder),
    );
    assert.equal(folderRows.length, 1);
    const record = await Deno.readTextFile(join(storageDir, ".connector-imports", started.id, "state.json"));
    assert.ok(!record.includes(TOKEN), "the token is never written to disk");
    assert.equal(JSON.parse(record).options.repo, `${github.url}/octo/tides`);

    await using second = await createTestApp({ storageDir, env: ENV });
    const [shown] = await listed(second);
    assert.equal(shown.id, started.id);
    assert.equal(shown.status, "failed");
    assert.equal(shown.reason, INTERRUPTED_REASON);
    assert.equal(shown.added, 0);
    assert.ok(shown.finishedAt);
    const one = await second.json<Answer<{ import: ConnectorImport }>>(`/api/ext/imports/${started.id}`);
    assert.deepEqual(one.body.data.import, shown);
    const left = await second.deps.db.select().from(documents).where(eq(documents.folder, started.folder));
    assert.deepEqual(left, [], "the half import's document was removed");
    release();
  } finally {
    await github.close();
    await Deno.remove(storageDir, { recursive: true }).catch(() => {});
  }
});

Deno.test("ended imports and one the shutdown stopped are listed after a restart", async () => {
  const storageDir = await Deno.makeTempDir({ prefix: "lectern-test-" });
  const github = startFakeGithub({ repos: tides(), token: TOKEN });
  try {
    let done: ConnectorImport;
    let stopped: ConnectorImport;
    {
      await using first = await createTestApp({ storageDir, env: ENV });
      done = await startImport(first, `${github.url}/octo/tides`, "main");
      done = await connectorImports(first.deps).ended(done.id)!;
      assert.equal(done.status, "done");
      const release = github.pause(1);
      stopped = await startImport(first, `${github.url}/octo/tides`, "release");
      await untilAdded(first, stopped.id, 1);
      // Closing the server stops the running import; the held answer is let go once it has been asked to.
      const closing = first.close();
      release();
      await closing;
    }
    await using second = await createTestApp({ storageDir, env: ENV });
    const shown = await listed(second);
    assert.deepEqual(shown.map((item) => [item.id, item.status, item.reason]), [
      [stopped.id, "failed", SHUTDOWN_REASON],
      [done.id, "done", null],
    ]);
    assert.deepEqual(shown[1], done);
    const kept = await second.deps.db.select().from(documents);
    assert.deepEqual(kept.map((row) => row.folder).sort(), [done.folder, done.folder, done.folder]);
  } finally {
    await github.close();
    await Deno.remove(storageDir, { recursive: true }).catch(() => {});
  }
});
