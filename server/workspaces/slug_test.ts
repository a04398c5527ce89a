import assert from "node:assert/strict";
import { documentFileStem, threadSlug, workspaceSlug } from "./slug.ts";

Deno.test("workspaceSlug() follows the reference's examples", () => {
  assert.equal(workspaceSlug("My Docs!"), "my-docs-bang");
  assert.equal(workspaceSlug("C++ & AI"), "c-plus-plus-and-ai");
  assert.equal(workspaceSlug("x.y@z"), "x-dot-y-at-z");
  assert.equal(workspaceSlug("(quoted) 'name' | pipe: ~tilde"), "quoted-name-pipe-tilde");
  assert.equal(workspaceSlug("Ünïcödé Straße"), "unicode-strasse");
});

Deno.test("workspaceSlug() always gives one safe URL segment", () => {
  assert.equal(workspaceSlug("a/b\\c"), "abc");
  assert.equal(workspaceSlug("../../etc"), "dot-dot-dot-dot-etc");
  assert.match(workspaceSlug("   "), /^[0-9a-f-]{36}$/);
  assert.match(workspaceSlug("%%%"), /^[\p{L}\p{N}_-]+$/u);
});

Deno.test("documentFileStem() never keeps a path or a leading dot", () => {
  assert.equal(documentFileStem("../../etc/passwd"), "passwd");
  assert.equal(documentFileStem("C:\\Users\\me\\My File.txt"), "My-File.txt");
  assert.equal(documentFileStem(".hidden"), "hidden");
  assert.equal(documentFileStem("///"), "document");
  assert.ok(documentFileStem("x".repeat(500)).length <= 100);
});

Deno.test("threadSlug() cleans a chosen slug like a workspace's but keeps its case", () => {
  assert.equal(threadSlug("My Thread!"), "My-Thread-bang");
  assert.equal(threadSlug("a/../b"), "a-dot-dot-b");
  assert.match(threadSlug("%%%"), /^[\p{L}\p{N}_-]+$/u);
});
