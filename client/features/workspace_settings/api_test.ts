import assert from "node:assert/strict";
import { json, stubFetch, stubStorage } from "../../testing/stubs.ts";
import { deleteWorkspace, saveSuggestedMessages, updateWorkspace } from "./api.ts";
import type { Workspace } from "../../../shared/api/workspaces.ts";

const ROW: Workspace = {
  id: 1,
  name: "My notes",
  slug: "my notes",
  vectorTag: null,
  createdAt: "2026-01-01",
  openAiTemp: null,
  openAiHistory: 20,
  lastUpdatedAt: "2026-01-01",
  openAiPrompt: null,
  similarityThreshold: 0.25,
  chatProvider: null,
  chatModel: null,
  topN: 4,
  chatMode: "chat",
  pfpFilename: null,
  agentProvider: null,
  agentModel: null,
  queryRefusalResponse: null,
  vectorSearchMode: "default",
  hybridSearch: true,
  queryRewrite: true,
};

Deno.test("updateWorkspace() posts the changes to the encoded slug and returns the stored row", async () => {
  using _storage = stubStorage();
  using fetch = stubFetch(() => json({ workspace: ROW, message: null }));
  assert.deepEqual(await updateWorkspace("my notes", { topN: "8" }), ROW);
  assert.equal(fetch.requests[0].url, "/api/workspace/my%20notes/update");
  assert.deepEqual(JSON.parse(fetch.requests[0].body!), { topN: "8" });
});

Deno.test("updateWorkspace() returns null for a row it cannot read and throws the server's refusal", async () => {
  using _storage = stubStorage();
  {
    using _fetch = stubFetch(() => json({ workspace: { id: 1 }, message: null }));
    assert.equal(await updateWorkspace("w", {}), null);
  }
  {
    using _fetch = stubFetch(() => json({ workspace: null, message: "topN must be a number." }));
    await assert.rejects(updateWorkspace("w", { topN: "x" }), {
      name: "ApiError",
      message: "topN must be a number.",
    });
  }
  using _fetch = stubFetch(() => json({ workspace: null, message: null }));
  await assert.rejects(updateWorkspace("w", {}), { message: "The workspace was not saved." });
});

Deno.test("deleteWorkspace() throws the server's error, else the fallback", async () => {
  using _storage = stubStorage();
  {
    using fetch = stubFetch(() => json({ success: true, error: null }));
    await deleteWorkspace("w", "fallback");
    assert.equal(fetch.requests[0].method, "DELETE");
    assert.equal(fetch.requests[0].url, "/api/workspace/w");
  }
  {
    using _fetch = stubFetch(() => json({ success: false, error: "Not allowed." }));
    await assert.rejects(deleteWorkspace("w", "fallback"), { message: "Not allowed." });
  }
  using _fetch = stubFetch(() => json({ success: false }));
  await assert.rejects(deleteWorkspace("w", "fallback"), { message: "fallback" });
});

Deno.test("saveSuggestedMessages() sends the list and throws the server's message, else the fallback", async () => {
  using _storage = stubStorage();
  const messages = [{ heading: "Hi", message: "Say hello" }];
  {
    using fetch = stubFetch(() => json({ success: true }));
    await saveSuggestedMessages("w", messages, "fallback");
    assert.deepEqual(JSON.parse(fetch.requests[0].body!), { messages });
  }
  {
    using _fetch = stubFetch(() => json({ success: false, message: "Too many." }));
    await assert.rejects(saveSuggestedMessages("w", messages, "fallback"), { message: "Too many." });
  }
  using _fetch = stubFetch(() => json({ success: false, message: null }));
  await assert.rejects(saveSuggestedMessages("w", messages, "fallback"), { message: "fallback" });
});
