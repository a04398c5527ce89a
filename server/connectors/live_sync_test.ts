import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { documents, documentSyncQueues, workspaceDocuments } from "../../db/schema.ts";
import { workspaceNamespace } from "../providers/vectors/namespace.ts";
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

Deno.test("A second import re-embeds a changed document in place: its pin, its watch and its sync queue stay", async () => {
  const repo: FakeRepo = {
    owner: "port",
    name: "rules",
    branches: { main: { "moorings.md": OLD, "fees.md": "Mooring costs ten crowns a night." } },
  };
  const github = startFakeGithub({ repos: [repo] });
  await using app = await createTestApp({ env: { LECTERN_CONNECTOR_PRIVATE_HOSTS: "127.0.0.1" } });
  try {
    const body = { repo: `${github.url}/port/rules`, branch: "main" };
    assert.equal(
      (await app.json<{ success: boolean }>("/api/ext/github/repo", { json: body })).body.success,
      true,
    );
    const rows = await app.deps.db.select().from(documents).where(eq(documents.folder, "port-rules-main"));
    const location = rows.find((row) => row.title === "moorings.md")!.location;
    const created = await app.json<{ workspace: { slug: string; id: number } }>("/api/workspace/new", {
      json: { name: "Rules" },
    });
    const { slug, id } = created.body.workspace;
    await app.json(`/api/workspace/${slug}/update-embeddings`, {
      json: { adds: rows.map((row) => row.location) },
    });
    assert.equal(
      (await app.json(`/api/workspace/${slug}/update-pin`, { json: { docPath: location, pinStatus: true } }))
        .status,
      200,
    );
    assert.equal(
      (await app.json(`/api/workspace/${slug}/update-watch-status`, {
        json: { docPath: location, watchStatus: true },
      })).status,
      200,
    );
    const [before] = await app.deps.db.select().from(workspaceDocuments)
      .where(eq(workspaceDocuments.docpath, location));
    const [queue] = await app.deps.db.select().from(documentSyncQueues);
    const namespace = workspaceNamespace(id, app.deps.providers.embedder());
    const vectorsBefore = await app.deps.vectors.count(namespace);

    repo.branches.main["moorings.md"] = NEW;
    const again = await app.json<{ data: { import: { updated: number; unchanged: number } } }>(
      "/api/ext/github/repo",
      { json: body },
    );
    assert.deepEqual([again.body.data.import.updated, again.body.data.import.unchanged], [1, 1]);

    const [after] = await app.deps.db.select().from(workspaceDocuments)
      .where(eq(workspaceDocuments.docpath, location));
    assert.equal(after.id, before.id);
    assert.equal(after.pinned, true);
    assert.equal(after.watched, true);
    assert.notEqual(after.docId, before.docId, "the row names the new text's vectors");
    assert.deepEqual(
      (await app.deps.db.select().from(documentSyncQueues)).map((row) => row.id),
      [queue.id],
      "the sync queue stays",
    );
    assert.equal(await app.deps.vectors.count(namespace), vectorsBefore, "the old vectors are gone");
    assert.equal((await app.deps.documents.read(location)).pageContent, NEW);
  } finally {
    await github.close();
  }
});
