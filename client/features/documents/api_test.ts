import assert from "node:assert/strict";
import { json, stubFetch, stubStorage } from "../../testing/stubs.ts";
import {
  ALL_FOLDERS,
  createFolder,
  fetchAccepted,
  fetchPage,
  moveFiles,
  PAGE_SIZE,
  updateEmbeddings,
  uploadLink,
} from "./api.ts";

const FILE = {
  id: "1",
  url: "file://a.md",
  title: "a.md",
  docAuthor: "",
  description: "",
  docSource: "a file uploaded by the user",
  chunkSource: "",
  published: "1/2/2026",
  wordCount: 3,
  token_count_estimate: 4,
  location: "custom-documents/a.md-1.json",
  name: "a.md-1.json",
  type: "file",
  folder: "custom-documents",
  cached: false,
  canWatch: false,
  pinnedWorkspaces: [],
  watched: false,
};

Deno.test("fetchAccepted() offers every MIME type and extension the server parses, once each", async () => {
  using _storage = stubStorage();
  using fetch = stubFetch(() =>
    json({ types: { "text/plain": [".txt", ".md"], "text/markdown": [".md"], "application/pdf": [".pdf"] } })
  );
  assert.deepEqual(await fetchAccepted(), [
    "text/plain",
    ".txt",
    ".md",
    "text/markdown",
    "application/pdf",
    ".pdf",
  ]);
  assert.equal(fetch.requests[0].url, "/api/system/accepted-document-types");
});

Deno.test("fetchPage() reads a folder's page, or searches every folder, a page at a time", async () => {
  using _storage = stubStorage();
  using fetch = stubFetch((request) =>
    request.url.includes("/search")
      ? json({ results: [FILE], totalCount: 7, hasMore: true })
      : json({ folder: "custom-documents", documents: [FILE], totalCount: 1, hasMore: false })
  );
  const folderPage = await fetchPage("custom-documents", "", 0);
  assert.equal(folderPage.total, 1);
  assert.equal(folderPage.items[0].location, FILE.location);
  const searched = await fetchPage(ALL_FOLDERS, "budget", 100);
  assert.equal(searched.total, 7);
  const [first, second] = fetch.requests.map((request) => new URL(request.url, "http://x"));
  assert.equal(first.pathname, "/api/system/local-files");
  assert.deepEqual(Object.fromEntries(first.searchParams), {
    offset: "0",
    limit: String(PAGE_SIZE),
    folder: "custom-documents",
  });
  assert.equal(second.pathname, "/api/system/local-files/search");
  assert.deepEqual(Object.fromEntries(second.searchParams), { offset: "100", limit: "100", q: "budget" });
});

Deno.test("createFolder() resolves with the name the server stored, or the one asked for", async () => {
  using _storage = stubStorage();
  {
    using fetch = stubFetch(() => json({ success: true, message: null, folder: "my-notes" }));
    assert.equal(await createFolder("my notes"), "my-notes");
    assert.deepEqual(JSON.parse(fetch.requests[0].body!), { name: "my notes" });
  }
  using _fetch = stubFetch(() => json({ success: true, message: null }));
  assert.equal(await createFolder("notes"), "notes");
});

Deno.test("moveFiles() throws the server's message, or the fallback, when the move did not happen", async () => {
  using _storage = stubStorage();
  {
    using _fetch = stubFetch(() => json({ success: false, message: "notes/a.json already exists." }));
    await assert.rejects(
      moveFiles([{ from: "a/a.json", to: "notes/a.json" }], "Not moved."),
      /already exists/,
    );
  }
  {
    using _fetch = stubFetch(() => json({ success: false, message: null }));
    await assert.rejects(moveFiles([], "Not moved."), /Not moved\./);
  }
  using _fetch = stubFetch(() => json({ success: true, message: null }));
  await moveFiles([], "Not moved.");
});

Deno.test("updateEmbeddings() always sends both lists", async () => {
  using _storage = stubStorage();
  using fetch = stubFetch(() => json({ workspace: null, message: null }));
  assert.deepEqual(await updateEmbeddings("atlas", { adds: ["f/a.json"] }), {
    workspace: null,
    message: null,
  });
  assert.equal(fetch.requests[0].url, "/api/workspace/atlas/update-embeddings");
  assert.deepEqual(JSON.parse(fetch.requests[0].body!), { adds: ["f/a.json"], deletes: [] });
});

Deno.test("uploadLink() resolves with the stored location, and throws the refusal the server gave", async () => {
  using _storage = stubStorage();
  {
    using _fetch = stubFetch(() =>
      json({ success: true, error: null, documents: [{ location: "f/l.json" }] })
    );
    assert.equal(await uploadLink("atlas", "https://example.org", "Failed."), "f/l.json");
  }
  {
    using _fetch = stubFetch(() => json({ success: false, error: "The address is refused." }));
    await assert.rejects(uploadLink("atlas", "http://10.0.0.1", "Failed."), /The address is refused\./);
  }
  using _fetch = stubFetch(() => json({ success: false }));
  await assert.rejects(uploadLink("atlas", "http://x.test", "Failed."), /^ApiError: Failed\.$|Failed\./);
});
