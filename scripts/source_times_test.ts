// The staleness check of `deno task start` and `deno task lectern` (scripts/source_times.ts): with the list a
// build wrote, an edit in place, a file added, removed or renamed, and a `git pull` each make the build stale;
// a test changed does not.
import assert from "node:assert/strict";
import { forgetSourceTimes, listSources, sourcesNewerThan, writeSourceList } from "./source_times.ts";

const SOURCES = ["server", "shared", "deno.json", "missing.ts"];

/** A repository with a few sources and tests, every time set to `past`, and a build (list) made after them. */
async function repository(past: Date): Promise<{ root: string; built: number; list: string }> {
  const root = await Deno.makeTempDir({ prefix: "lectern-sources-" });
  const files: Record<string, string> = {
    "server/main.ts": "export {};",
    "server/chat/service.ts": "export {};",
    "server/chat/service_test.ts": "// a test",
    "server/testing/fake.ts": "// a helper",
    "shared/api.ts": "export {};",
    "deno.json": "{}",
  };
  for (const [path, text] of Object.entries(files)) {
    await Deno.mkdir(`${root}/${path.split("/").slice(0, -1).join("/")}`, { recursive: true });
    await Deno.writeTextFile(`${root}/${path}`, text);
  }
  for (const path of [...Object.keys(files), "server/chat", "server/testing", "server", "shared"]) {
    await Deno.utime(`${root}/${path}`, past, past);
  }
  const list = `${root}/sources.json`;
  writeSourceList(list, listSources(root, SOURCES));
  return { root, built: past.getTime() + 1000, list };
}

Deno.test("a build's source list leaves tests out, and a build is fresh until a source changes", async () => {
  const past = new Date(Date.now() - 3_600_000);
  const { root, built, list } = await repository(past);
  try {
    const written = JSON.parse(await Deno.readTextFile(list));
    assert.deepEqual(written.folders.sort(), ["server", "server/chat", "shared"]);
    assert.deepEqual(written.files.sort(), [
      "deno.json",
      "server/chat/service.ts",
      "server/main.ts",
      "shared/api.ts",
    ]);
    forgetSourceTimes();
    assert.equal(sourcesNewerThan(built, root, SOURCES, list), false);

    // A test edited in place: no part of the build.
    await Deno.writeTextFile(`${root}/server/chat/service_test.ts`, "// another test");
    forgetSourceTimes();
    assert.equal(sourcesNewerThan(built, root, SOURCES, list), false);

    // A source edited in place (its folder's time unchanged).
    await Deno.writeTextFile(`${root}/server/chat/service.ts`, "export const x = 1;");
    await Deno.utime(`${root}/server/chat`, past, past);
    forgetSourceTimes();
    assert.equal(sourcesNewerThan(built, root, SOURCES, list), true);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a file added, removed or renamed, or a pull, makes a build stale though no listed file is newer", async () => {
  const past = new Date(Date.now() - 3_600_000);
  const changes: [string, (root: string) => Promise<void>][] = [
    ["added", (root) => Deno.writeTextFile(`${root}/server/chat/new.ts`, "export {};")],
    ["removed", (root) => Deno.remove(`${root}/shared/api.ts`)],
    ["renamed", (root) => Deno.rename(`${root}/server/main.ts`, `${root}/server/entry.ts`)],
    // What git does for each file a pull changes: the old file unlinked, a new one written with the old time
    // kept here, so that only the folder's time tells.
    ["written anew", async (root) => {
      await Deno.remove(`${root}/server/main.ts`);
      await Deno.writeTextFile(`${root}/server/main.ts`, "export const pulled = true;");
      await Deno.utime(`${root}/server/main.ts`, past, past);
    }],
  ];
  for (const [what, change] of changes) {
    const { root, built, list } = await repository(past);
    try {
      await change(root);
      forgetSourceTimes();
      assert.equal(sourcesNewerThan(built, root, SOURCES, list), true, what);
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  }
});

Deno.test("without a list (a build older than lists), the sources are walked", async () => {
  const past = new Date(Date.now() - 3_600_000);
  const { root, built } = await repository(past);
  try {
    const noList = `${root}/no-such-list.json`;
    forgetSourceTimes();
    assert.equal(sourcesNewerThan(built, root, SOURCES, noList), false);
    await Deno.writeTextFile(`${root}/server/chat/service.ts`, "export const x = 2;");
    await Deno.utime(`${root}/server/chat`, past, past);
    forgetSourceTimes();
    assert.equal(sourcesNewerThan(built, root, SOURCES, noList), true);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
