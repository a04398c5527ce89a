import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { documents, documentSyncQueues } from "../../db/schema.ts";
import { type FakeRepo, startFakeGithub } from "../testing/fake_github.ts";
import { createTestApp } from "../testing/test_app.ts";

const OLD = "The lock gates open at seven in the morning.";
const NEW = "The lock gates now open at noon, after the dredging works.";

Deno.test("Live sync watches a repository file: fetched again at its branch's head and embedded again", async () => {
  const repo: FakeRepo = { owner: "port", name: "notes", branches: { main: { "lock.md": OLD } } };
  const github = startFakeGithub({ repos: [repo] });
  await using app = await createTestApp({ env: { LECTERN_CONNECTOR_PRIVATE_HOSTS: "127.0.0.1" } });
  try {
    const imported = await app.json<{ success: boolean }>("/api/ext/github/repo", {
      json: { repo: `${github.url}/port/notes`, branch: "main" },
    });
    assert.equal(imported.body.success, true);
    const [row] = await app.deps.db.select().from(documents).where(eq(documents.folder, "port-notes-main"));
    const location = row.location;

    const listed = await app.json<{ documents: { canWatch: boolean }[] }>(
      "/api/system/local-files?folder=port-notes-main",
    );
    assert.equal(listed.body.documents[0].canWatch, true);

    const created = await app.json<{ workspace: { slug: string } }>("/api/workspace/new", {
      json: { name: "Port" },
    });
    const slug = created.body.workspace.slug;
    const embedded = await app.json(`/api/workspace/${slug}/update-embeddings`, {
      json: { adds: [location] },
    });
    assert.equal(embedded.status, 200, JSON.stringify(embedded.body));
    const watched = await app.json(`/api/workspace/${slug}/update-watch-status`, {
      json: { docPath: location, watchStatus: true },
    });
    assert.equal(watched.status, 200, JSON.stringify(watched.body));
    const [queue] = await app.deps.db.select().from(documentSyncQueues);

    const unchanged = await app.deps.liveSync.syncQueue(queue.id);
    assert.equal(unchanged.execution.status, "unchanged", String(unchanged.execution.result));

    repo.branches.main["lock.md"] = NEW;
    const synced = await app.deps.liveSync.syncQueue(queue.id);
    assert.equal(synced.execution.status, "success", String(synced.execution.result));
    assert.equal((await app.deps.documents.read(location)).pageContent, NEW);
    assert.ok(
      github.calls.some((call) =>
        call.path.startsWith("GET /api/v3/repos/port/notes/contents/lock.md?ref=main")
      ),
    );

    // The index row keeps the connector's key with the new version: a second import finds nothing to change.
    const again = await app.json<{ data: { import: { unchanged: number; updated: number; added: number } } }>(
      "/api/ext/github/repo",
      { json: { repo: `${github.url}/port/notes`, branch: "main" } },
    );
    const progress = again.body.data.import;
    assert.deepEqual([progress.added, progress.updated, progress.unchanged], [0, 0, 1]);

    delete repo.branches.main["lock.md"];
    repo.branches.main["other.md"] = "Another note.";
    const gone = await app.deps.liveSync.syncQueue(queue.id);
    assert.equal(gone.execution.status, "failed");
    assert.equal(gone.execution.result, "The file lock.md is no longer in the branch main.");
  } finally {
    await github.close();
  }
});
