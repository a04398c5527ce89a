import assert from "node:assert/strict";
import { keepLastBuilds } from "./build_server.ts";

const names = (dir: string) => [...Deno.readDirSync(dir)].map((file) => file.name).sort();

Deno.test("a rebuild keeps the chunks of the last three builds, so a running server still loads its own", async () => {
  const dir = await Deno.makeTempDir({ prefix: "lectern-builds-" });
  try {
    const build = async (files: string[]) => {
      for (const file of files) await Deno.writeTextFile(`${dir}/${file}`, file);
      await keepLastBuilds(dir, files);
    };
    await build(["bundle_main.js", "pages-A.js", "chunk-1.js"]);
    await build(["bundle_main.js", "pages-B.js", "chunk-1.js"]);
    await build(["bundle_main.js", "pages-C.js", "chunk-2.js"]);
    assert.deepEqual(names(dir), [
      "builds.json",
      "bundle_main.js",
      "chunk-1.js",
      "chunk-2.js",
      "pages-A.js",
      "pages-B.js",
      "pages-C.js",
    ]);
    await build(["bundle_main.js", "pages-D.js", "chunk-2.js"]);
    // The first build is now four builds old: its own files go, the ones a later build shares stay.
    assert.deepEqual(names(dir), [
      "builds.json",
      "bundle_main.js",
      "chunk-1.js",
      "chunk-2.js",
      "pages-B.js",
      "pages-C.js",
      "pages-D.js",
    ]);
    await build(["bundle_main.js", "pages-E.js", "chunk-2.js"]);
    assert.deepEqual(names(dir), [
      "builds.json",
      "bundle_main.js",
      "chunk-2.js",
      "pages-C.js",
      "pages-D.js",
      "pages-E.js",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("an unreadable record of builds keeps only the new build's files", async () => {
  const dir = await Deno.makeTempDir({ prefix: "lectern-builds-" });
  try {
    await Deno.writeTextFile(`${dir}/builds.json`, "not json");
    await Deno.writeTextFile(`${dir}/stale-X.js`, "");
    await Deno.writeTextFile(`${dir}/bundle_main.js`, "");
    await keepLastBuilds(dir, ["bundle_main.js"]);
    assert.deepEqual(names(dir), ["builds.json", "bundle_main.js"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
