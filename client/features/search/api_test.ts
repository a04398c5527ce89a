import assert from "node:assert/strict";
import { json, stubFetch, stubStorage } from "../../testing/stubs.ts";
import { searchNames } from "./api.ts";

Deno.test("searchNames() posts the term and reads the workspaces and threads found", async () => {
  using _storage = stubStorage();
  const answer = { workspaces: [{ slug: "a", name: "A" }], threads: [] };
  using fetch = stubFetch(() => json(answer));
  assert.deepEqual(await searchNames("abc"), answer);
  assert.equal(fetch.requests[0].url, "/api/workspace/search");
  assert.equal(fetch.requests[0].method, "POST");
  assert.deepEqual(JSON.parse(fetch.requests[0].body!), { searchTerm: "abc" });
});

Deno.test("searchNames() refuses an answer of another shape", async () => {
  using _storage = stubStorage();
  using _fetch = stubFetch(() => json({ workspaces: "none" }));
  await assert.rejects(searchNames("abc"), { name: "ZodError" });
});
