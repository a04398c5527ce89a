import assert from "node:assert/strict";
import { json, stubFetch, stubStorage } from "../../testing/stubs.ts";
import { ApiError } from "../../lib/api.ts";
import { createThread, deleteThread, deleteThreads, listThreads, renameThread } from "./api.ts";

const THREAD = { id: 7, name: "Plans", slug: "t-7", workspace_id: 1 };

Deno.test("listThreads() GETs the workspace's threads, its slug encoded, and returns the list", async () => {
  using _storage = stubStorage();
  using fetch = stubFetch(() => json({ threads: [THREAD], defaultThreadChatCount: 3 }));
  assert.deepEqual(await listThreads("my space"), [THREAD]);
  assert.equal(fetch.requests[0].url, "/api/workspace/my%20space/threads");
  assert.equal(fetch.requests[0].method, "GET");
});

Deno.test("createThread() POSTs thread/new and returns the thread, or throws the server's message", async () => {
  using _storage = stubStorage();
  {
    using fetch = stubFetch(() => json({ thread: THREAD, message: null }));
    assert.deepEqual(await createThread("atlas"), THREAD);
    assert.deepEqual([fetch.requests[0].method, fetch.requests[0].url], [
      "POST",
      "/api/workspace/atlas/thread/new",
    ]);
  }
  using _fetch = stubFetch(() => json({ thread: null, message: "No workspace." }));
  await assert.rejects(createThread("atlas"), (error) => {
    assert.ok(error instanceof ApiError);
    assert.equal(error.message, "No workspace.");
    return true;
  });
});

Deno.test("renameThread() POSTs the name to the thread's update call; a refused name throws its message", async () => {
  using _storage = stubStorage();
  {
    using fetch = stubFetch(() => json({ thread: { ...THREAD, name: "New" }, message: null }));
    assert.equal((await renameThread("atlas", "t/7", "New")).name, "New");
    const [request] = fetch.requests;
    assert.equal(request.url, "/api/workspace/atlas/thread/t%2F7/update");
    assert.equal(request.method, "POST");
    assert.deepEqual(JSON.parse(request.body!), { name: "New" });
  }
  using _fetch = stubFetch(() => json({ thread: null, message: "The thread name cannot be empty." }, 400));
  await assert.rejects(renameThread("atlas", "t-7", ""), /The thread name cannot be empty\./);
});

Deno.test("deleteThread() and deleteThreads() use DELETE and throw when the server says it did not", async () => {
  using _storage = stubStorage();
  {
    using fetch = stubFetch(() => json({ success: true, deleted: 2 }));
    await deleteThread("atlas", "t-7");
    await deleteThreads("atlas", ["t-7", "t-8"]);
    assert.deepEqual(fetch.requests.map((request) => [request.method, request.url, request.body]), [
      ["DELETE", "/api/workspace/atlas/thread/t-7", null],
      ["DELETE", "/api/workspace/atlas/thread-bulk-delete", '{"slugs":["t-7","t-8"]}'],
    ]);
  }
  using _fetch = stubFetch(() => json({ success: false }));
  await assert.rejects(deleteThread("atlas", "t-7"), /The thread was not deleted\./);
  await assert.rejects(deleteThreads("atlas", ["t-7"]), /The threads were not deleted\./);
});
