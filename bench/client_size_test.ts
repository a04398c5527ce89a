import assert from "node:assert/strict";
import { chatPageFirstLoad, FIRST_LOAD_GOAL_BYTES, scriptsOfHtml, staticImports } from "./client_size.ts";
import { clientDirectory, readManifest } from "../server/pages/assets.ts";

// A size check of the built client (`deno task test` builds it when stale), not a timed test.

Deno.test("the workspace chat page's first load stays within 150 KB of gzipped JS (issue 21)", async () => {
  const scripts = await chatPageFirstLoad();
  const total = scripts.reduce((sum, script) => sum + script.gzipBytes, 0);
  const files = new Set(scripts.map((script) => script.file));
  const manifest = readManifest(clientDirectory());
  const fileOf = (source: string) => {
    const chunk = manifest[source];
    assert.ok(chunk, `the manifest has ${source}`);
    return chunk.file;
  };
  assert.ok(files.has(fileOf("client/main.tsx")), "the entry is counted");
  assert.ok(files.has(fileOf("client/islands/WorkspaceChat.tsx")), "the chat island is counted");
  for (
    const lazy of [
      "client/lib/markdown.ts",
      "client/lib/schemas.ts",
      "client/lib/stream_frames.ts",
      "client/features/documents/DocumentsPanel.tsx",
    ]
  ) {
    assert.ok(!files.has(fileOf(lazy)), `${lazy} is loaded when needed, not at first`);
  }
  assert.ok(
    total <= FIRST_LOAD_GOAL_BYTES,
    `first load ${(total / 1024).toFixed(1)} KB gzip > ${FIRST_LOAD_GOAL_BYTES / 1024} KB: ` +
      scripts.slice(0, 5).map((script) => `${script.file} ${(script.gzipBytes / 1024).toFixed(1)} KB`).join(
        ", ",
      ),
  );
});

Deno.test("the size bench reads a page's scripts and a chunk's static imports, not its dynamic ones", () => {
  const html =
    '<link rel="stylesheet" href="/static/assets/a.css"><link rel="modulepreload" href="/static/assets/b.js">' +
    '<script type="module" src="/static/assets/main.js"></script><link rel="icon" href="/favicon.svg">';
  assert.deepEqual(scriptsOfHtml(html), ["/static/assets/b.js", "/static/assets/main.js"]);
  const code = 'import{a as b}from"./react-1.js";import"./side.js";export{c}from"./re.js";' +
    'const m=()=>import("./lazy.js");const s="import x from \\"./no.js\\"";';
  const found = staticImports(code);
  assert.deepEqual(found.filter((file) => file !== "./no.js"), ["./react-1.js", "./side.js", "./re.js"]);
  assert.ok(!found.includes("./lazy.js"), "a dynamic import is not part of the first load");
});
