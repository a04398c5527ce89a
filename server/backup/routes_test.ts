import assert from "node:assert/strict";
import { join } from "node:path";
import { configuredTestApp, createTestApp, uploadText } from "../testing/test_app.ts";
import { readManifest, restoreBackup } from "./restore.ts";
import { KNOWN_MIGRATIONS } from "./archive.ts";

Deno.test("POST /api/admin/backup streams one file with a name; a second at the same time gets 409; it restores", async () => {
  const root = await Deno.makeTempDir({ prefix: "lectern-backup-" });
  try {
    {
      await using app = await configuredTestApp({ storageDir: join(root, "storage") });
      assert.equal((await app.json("/api/workspace/new", { json: { name: "Harbour" } })).status, 200);
      const location = await uploadText(app, "harbour", "hours.txt", "The harbour opens at seven.");
      const embedded = await app.json("/api/workspace/harbour/update-embeddings", {
        json: { adds: [location], deletes: [] },
      });
      assert.equal(embedded.status, 200, JSON.stringify(embedded.body));

      const first = await app.request("/api/admin/backup", { method: "POST" });
      assert.equal(first.status, 200);
      assert.equal(first.headers.get("content-type"), "application/gzip");
      assert.match(
        first.headers.get("content-disposition") ?? "",
        /^attachment; filename="lectern-backup-\d{8}T\d{6}Z\.tar\.gz"$/,
      );
      const second = await app.json<{ success: boolean; error: string }>("/api/admin/backup", {
        method: "POST",
      });
      assert.equal(second.status, 409);
      assert.equal(second.body.error, "A backup is already being taken. Try again when it has finished.");

      const file = join(root, "backup.tar.gz");
      await Deno.writeFile(file, new Uint8Array(await first.arrayBuffer()));
      const third = await app.request("/api/admin/backup", { method: "POST" });
      assert.equal(third.status, 200, "the slot is free once the first was read");
      await third.body?.cancel();

      const manifest = await readManifest(file);
      assert.equal(manifest.migrations, KNOWN_MIGRATIONS);
      const paths = manifest.files.map((entry) => entry.path);
      for (const expected of ["lectern.db", "keys/jwt.key", "keys/settings.key"]) {
        assert.ok(paths.includes(expected), expected);
      }
      assert.ok(paths.some((path) => path.startsWith("documents/")), "the documents");
      assert.ok(paths.some((path) => path.startsWith("lancedb/") && path.includes("/_versions/")), "LanceDB");
      assert.ok(!paths.some((path) => path.startsWith(".backup-") || path === "lectern.sock"));

      const events = await app.json<{ logs: { event: string; metadata: string }[] }>(
        "/api/system/event-logs",
        { json: { offset: 0 } },
      );
      const created = events.body.logs.filter((row) => row.event === "backup_created");
      assert.equal(created.length, 2);
      assert.match(JSON.stringify(created[0].metadata), /lectern-backup-/);
      const staged = [...Deno.readDirSync(app.storageDir)].filter((entry) =>
        entry.name.startsWith(".backup-")
      );
      assert.deepEqual(staged, [], "no staged snapshot is left behind");
    }

    const restored = join(root, "restored");
    const result = await restoreBackup(join(root, "backup.tar.gz"), restored);
    assert.equal(result.previous, null);
    await using again = await createTestApp({ storageDir: restored });
    const workspace = await again.json<{ workspace: { documents: { docpath: string }[] } }>(
      "/api/workspace/harbour",
    );
    assert.equal(workspace.body.workspace.documents.length, 1);
    const vectors = await again.json<{ vectorCount: number }>("/api/system/system-vectors?slug=harbour");
    assert.ok(vectors.body.vectorCount > 0);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
