import assert from "node:assert/strict";
import { join } from "node:path";
import { documents } from "../../db/schema.ts";
import { createTestApp } from "../testing/test_app.ts";

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
