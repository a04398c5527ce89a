import assert from "node:assert/strict";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { documents, documentSyncQueues, users, workspaceDocuments, workspaceUsers } from "../../db/schema.ts";
import { signSession } from "../auth/jwt.ts";
import { LABELS } from "../settings/service.ts";
import { createTestApp, type TestApp } from "../testing/test_app.ts";
import { workspaceNamespace } from "../providers/vectors/namespace.ts";
import {
  FolderPageAnswer,
  LocalFilesAnswer,
  SearchAnswer,
  SuccessOrError,
  SuccessOrMessage,
} from "../../shared/api/library.ts";
import { DEFAULT_STALE_AFTER_MS } from "./library.ts";
import { VectorCache } from "./vector_cache.ts";
import { seedDocument, type SeedOptions } from "./library_fixtures.ts";

const bearer = (token: string) => ({ headers: { Authorization: `Bearer ${token}` } });

const seed = (app: TestApp, title: string, options: SeedOptions = {}) =>
  seedDocument(app.deps, title, options);

async function newWorkspace(app: TestApp, name: string, init: RequestInit = {}) {
  const created = await app.json<{ workspace: { slug: string; id: number } }>("/api/workspace/new", {
    ...init,
    json: { name },
  });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  return created.body.workspace;
}

async function embed(app: TestApp, slug: string, locations: string[], init: RequestInit = {}) {
  const answer = await app.json<{ message: string | null }>(`/api/workspace/${slug}/update-embeddings`, {
    ...init,
    json: { adds: locations },
  });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  assert.equal(answer.body.message, null);
}

async function exists(path: string) {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

function page(app: TestApp, query: string, init: RequestInit = {}) {
  return app.json<Record<string, unknown>>(`/api/system/local-files?${query}`, init);
}

function del(app: TestApp, path: string, json: unknown, init: RequestInit = {}) {
  return app.json<Record<string, unknown>>(path, { ...init, method: "DELETE", json });
}

/** Multi-user mode with an admin, a manager and a default user, signed in without going through argon2. */
async function roles(app: TestApp) {
  await app.deps.settings.setLabels({ [LABELS.multiUserMode]: "true" });
  const tokens: Record<string, RequestInit> = {};
  for (const role of ["admin", "manager", "default"] as const) {
    const [user] = await app.deps.db.insert(users).values({ username: `${role}-user`, password: "x", role })
      .returning();
    tokens[role] = bearer(await signSession(app.deps.keys.jwt, { sub: String(user.id), ver: 0 }));
  }
  return tokens;
}

Deno.test("GET /api/system/local-files lists folder shells, then pages of a folder from the index", async () => {
  await using app = await createTestApp();
  for (const title of ["Alpha.txt", "beta notes.md", "Gamma.txt", "ALPHABET.txt", "Ärger.txt"]) {
    await seed(app, title);
  }
  await seed(app, "Inside.txt", { folder: "archive" });
  const created = await app.json("/api/document/create-folder", { json: { name: "empty" } });
  assert.equal(created.status, 200);

  const shells = await app.json("/api/system/local-files");
  assert.equal(shells.status, 200);
  const tree = LocalFilesAnswer.parse(shells.body).localFiles;
  assert.equal(tree.name, "documents");
  assert.deepEqual(
    tree.items.map((item) => [item.name, item.fileCount, item.items.length]),
    [["custom-documents", 5, 0], ["archive", 1, 0], ["empty", 0, 0]],
    "the default folder first, then by name, with counts and no files",
  );

  const first = await page(app, "folder=custom-documents&limit=2");
  assert.equal(first.status, 200);
  const parsed = FolderPageAnswer.parse(first.body);
  assert.equal(parsed.folder, "custom-documents");
  assert.equal(parsed.totalCount, 5);
  assert.equal(parsed.hasMore, true);
  assert.deepEqual(parsed.documents.map((file) => file.title), ["Ärger.txt", "ALPHABET.txt"], "newest first");
  const file = parsed.documents[0];
  assert.equal(file.type, "file");
  assert.match(file.name, /^.+\.json$/);
  assert.equal(file.location, `custom-documents/${file.name}`);
  assert.equal(file.cached, false);
  assert.equal(file.canWatch, false);
  assert.deepEqual(file.pinnedWorkspaces, []);
  assert.equal(file.watched, false);
  assert.equal(file.docSource, "a text file uploaded by the user.");
  assert.ok(!("pageContent" in file), "the text is never listed");
  assert.ok(!("uploadName" in file), "internal fields stay inside");

  const last = FolderPageAnswer.parse((await page(app, "folder=custom-documents&offset=4&limit=2")).body);
  assert.equal(last.documents.length, 1);
  assert.equal(last.hasMore, false);
  const all = FolderPageAnswer.parse((await page(app, "folder=custom-documents&limit=all")).body);
  assert.equal(all.documents.length, 5);
  const byDefault = FolderPageAnswer.parse((await page(app, "folder=custom-documents")).body);
  assert.equal(byDefault.documents.length, 5, "default page size 100");

  const alpha = FolderPageAnswer.parse((await page(app, "folder=custom-documents&q=alpha")).body);
  assert.deepEqual(alpha.documents.map((file) => file.title).sort(), ["ALPHABET.txt", "Alpha.txt"]);
  assert.equal(alpha.totalCount, 2);
  const umlaut = FolderPageAnswer.parse((await page(app, "folder=custom-documents&q=%C3%A4rger")).body);
  assert.deepEqual(umlaut.documents.map((file) => file.title), ["Ärger.txt"], "case folds beyond ASCII");
  const wildcard = FolderPageAnswer.parse((await page(app, "folder=custom-documents&q=%25")).body);
  assert.equal(wildcard.totalCount, 0, "% is a character, not a wildcard");
  for (const control of ["%00", "alpha%00x", "a%0Ab"]) {
    const refused = await page(app, `folder=custom-documents&q=${control}`);
    assert.equal(refused.status, 400, control);
    assert.match(JSON.stringify(refused.body), /The search text cannot contain control characters\./);
  }
  const empty = FolderPageAnswer.parse((await page(app, "folder=empty")).body);
  assert.deepEqual([empty.totalCount, empty.documents], [0, []]);

  const missing = await page(app, "folder=nope");
  assert.equal(missing.status, 404);
  assert.deepEqual(missing.body, {
    folder: "nope",
    documents: [],
    totalCount: 0,
    hasMore: false,
    code: 404,
    error: 'The folder "nope" does not exist.',
  });
  for (
    const bad of ["folder=..%2Fetc", "folder=custom-documents&limit=0", "folder=custom-documents&limit=1001"]
  ) {
    const answer = await page(app, bad);
    assert.equal(answer.status, 400, bad);
    assert.equal(answer.body.code, 400);
    assert.equal(typeof answer.body.error, "string");
  }
  assert.equal((await page(app, "folder=custom-documents&offset=-1")).status, 400);
  // An offset with every document after it (limit "all"): SQLite needs a LIMIT before OFFSET.
  const rest = FolderPageAnswer.parse((await page(app, "folder=custom-documents&offset=4&limit=all")).body);
  assert.equal(rest.documents.length, rest.totalCount - 4);
  assert.equal(rest.hasMore, false);
});

Deno.test("GET /api/system/local-files/search finds titles across folders", async () => {
  await using app = await createTestApp();
  await seed(app, "Report 2025.pdf");
  await seed(app, "report draft.txt", { folder: "drafts" });
  await seed(app, "Other.txt", { folder: "drafts" });
  const found = await app.json("/api/system/local-files/search?q=REPORT");
  assert.equal(found.status, 200);
  const parsed = SearchAnswer.parse(found.body);
  assert.deepEqual(
    parsed.results.map((file) => [file.folder, file.title]),
    [["drafts", "report draft.txt"], ["custom-documents", "Report 2025.pdf"]],
  );
  assert.equal(parsed.totalCount, 2);
  const limited = SearchAnswer.parse((await app.json("/api/system/local-files/search?q=&limit=1")).body);
  assert.deepEqual([limited.results.length, limited.totalCount, limited.hasMore], [1, 3, true]);
  assert.equal((await app.json("/api/system/local-files/search?limit=x")).status, 400);
});

Deno.test("document calls need an admin or a manager, or a workspace's editor; processing status answers every user", async () => {
  await using app = await createTestApp();
  const doc = await seed(app, "Secret.txt");
  const tokens = await roles(app);
  const workspace = await newWorkspace(app, "Team", tokens.admin);
  await embed(app, workspace.slug, [doc.location], tokens.admin);
  // The default user is a viewer of the workspace, so each refusal is about the role (to a non-member the
  // workspace does not exist: server/workspaces/roles_test.ts).
  const [member] = await app.deps.db.select().from(users).where(eq(users.username, "default-user"));
  await app.deps.db.insert(workspaceUsers).values({ workspaceId: workspace.id, userId: member.id });
  const calls: [string, string, unknown][] = [
    ["GET", "/api/system/local-files", undefined],
    ["GET", "/api/system/local-files?folder=custom-documents", undefined],
    ["GET", "/api/system/local-files/search?q=s", undefined],
    ["DELETE", "/api/system/remove-document", { name: doc.location }],
    ["DELETE", "/api/system/remove-documents", { names: [doc.location] }],
    ["DELETE", "/api/system/remove-folder", { name: "custom-documents" }],
    ["POST", "/api/document/create-folder", { name: "x" }],
    ["POST", "/api/document/move-files", { files: [{ from: doc.location, to: "x/y.json" }] }],
    ["DELETE", `/api/workspace/${workspace.slug}/remove-and-unembed`, { documentLocation: doc.location }],
    ["POST", `/api/workspace/${workspace.slug}/update-pin`, { docPath: doc.location, pinStatus: true }],
    ["POST", `/api/workspace/${workspace.slug}/update-watch-status`, {
      docPath: doc.location,
      watchStatus: true,
    }],
  ];
  for (const [method, path, json] of calls) {
    const refused = await app.json(path, { ...tokens.default, method, json });
    assert.equal(refused.status, 403, `${method} ${path}`);
    assert.equal(refused.body.success, false);
    assert.equal(refused.body.error ?? refused.body.message, "You do not have permission to do that.");
    const anonymous = await app.json(path, { method, json });
    assert.equal(anonymous.status, 401, `${method} ${path} without a token`);
  }
  assert.ok(await exists(doc.path), "nothing was removed");

  const managerList = await app.json("/api/system/local-files?folder=custom-documents", tokens.manager);
  assert.equal(managerList.status, 200);
  const pinned = await app.json(`/api/workspace/${workspace.slug}/update-pin`, {
    ...tokens.manager,
    json: { docPath: doc.location, pinStatus: true },
  });
  assert.deepEqual(pinned.body, { success: true, error: null });

  for (const role of ["admin", "manager", "default"]) {
    const status = await app.json("/api/system/document-processing-status", tokens[role]);
    assert.deepEqual([status.status, status.body], [200, { online: true }], role);
  }
  assert.equal((await app.json("/api/system/document-processing-status")).status, 401);
});

Deno.test("DELETE /api/system/remove-document purges the file, the original, the index and every workspace", async () => {
  await using app = await createTestApp();
  const doc = await seed(app, "Purge.txt");
  const other = await seed(app, "Keep.txt");
  const one = await newWorkspace(app, "One");
  const two = await newWorkspace(app, "Two");
  await embed(app, one.slug, [doc.location, other.location]);
  await embed(app, two.slug, [doc.location]);
  await app.json(`/api/workspace/${one.slug}/update-pin`, {
    json: { docPath: doc.location, pinStatus: true },
  });
  const embedder = app.deps.providers.embedder();
  const before = await app.deps.vectors.count(workspaceNamespace(one.id, embedder));
  assert.ok(before >= 2);
  const cache = new VectorCache(app.deps.paths.vectorCache).fileFor(doc.location, embedder.fingerprint);
  assert.equal(await exists(cache), true, "embedding filled the vector cache");
  const listed = FolderPageAnswer.parse((await page(app, "folder=custom-documents")).body);
  assert.equal(listed.documents.find((file) => file.location === doc.location)?.cached, true);

  const removed = await del(app, "/api/system/remove-document", { name: doc.location });
  assert.deepEqual([removed.status, removed.body], [200, { success: true, error: null }]);
  assert.equal(await exists(doc.path), false, "the JSON is gone");
  assert.equal(await exists(doc.uploadPath), false, "the original upload is gone");
  assert.equal(await exists(cache), false, "the vector cache is gone");
  assert.equal(await exists(other.uploadPath), true);
  const rows = await app.deps.db.select().from(workspaceDocuments);
  assert.deepEqual(rows.map((row) => row.docpath), [other.location]);
  assert.equal(await app.deps.vectors.count(workspaceNamespace(two.id, embedder)), 0);
  const left = await app.deps.vectors.count(workspaceNamespace(one.id, embedder));
  assert.ok(left > 0 && left < before, "only the other document's vectors stay");
  assert.deepEqual((await app.deps.db.select().from(documents)).map((row) => row.location), [other.location]);

  const again = await del(app, "/api/system/remove-document", { name: doc.location });
  assert.equal(again.status, 404);
  assert.match(String(again.body.error), /Cannot find the document/);
  for (const bad of [{}, { name: "../../etc/passwd" }, { name: "plain.json" }, { name: 3 }]) {
    const answer = await del(app, "/api/system/remove-document", bad);
    assert.equal(answer.status, 400, JSON.stringify(bad));
    assert.equal(answer.body.success, false);
  }
  const malformed = await app.json("/api/system/remove-document", { method: "DELETE", json: "{nope" });
  assert.equal(malformed.status, 400);
  assert.match(String(malformed.body.error), /not valid JSON/);
});

Deno.test("a failure half-way through a removal never leaves a listed document without its file", async () => {
  await using app = await createTestApp();
  const doc = await seed(app, "Sturdy.txt");
  const workspace = await newWorkspace(app, "Sturdy");
  await embed(app, workspace.slug, [doc.location]);
  const vectors = app.deps.vectors;
  const original = vectors.deleteDocuments.bind(vectors);
  vectors.deleteDocuments = () => Promise.reject(new Error("the vector store is down"));
  try {
    const failed = await del(app, "/api/system/remove-document", { name: doc.location });
    assert.equal(failed.status, 500);
  } finally {
    vectors.deleteDocuments = original;
  }
  const listed = FolderPageAnswer.parse((await page(app, "folder=custom-documents")).body);
  assert.deepEqual(listed.documents.map((file) => file.location), [doc.location], "still listed");
  assert.equal(await exists(doc.path), true, "with its file");
  const retried = await del(app, "/api/system/remove-document", { name: doc.location });
  assert.equal(retried.status, 200, "and removable once the store is back");
  assert.equal((await app.deps.db.select().from(workspaceDocuments)).length, 0);
});

Deno.test("DELETE /api/system/remove-documents removes several and skips the missing", async () => {
  await using app = await createTestApp();
  const a = await seed(app, "A.txt");
  const b = await seed(app, "B.txt", { folder: "other" });
  const c = await seed(app, "C.txt");
  const answer = await del(app, "/api/system/remove-documents", {
    names: [a.location, b.location, "custom-documents/never-there.json"],
  });
  assert.deepEqual([answer.status, answer.body], [200, { success: true, error: null, removed: 2 }]);
  assert.deepEqual((await app.deps.db.select().from(documents)).map((row) => row.location), [c.location]);
  assert.equal(await exists(a.path), false);
  assert.equal(await exists(b.path), false);
  assert.equal((await del(app, "/api/system/remove-documents", { names: "a" })).status, 400);
  assert.equal((await del(app, "/api/system/remove-documents", { names: ["x/../../y.json"] })).status, 400);
  assert.equal(await exists(c.path), true, "a bad name refuses the whole call");
});

Deno.test("DELETE /api/system/remove-folder removes a folder and its documents; custom-documents stays", async () => {
  await using app = await createTestApp();
  const kept = await seed(app, "Kept.txt");
  const gone = await seed(app, "Gone.txt", { folder: "old" });
  await seed(app, "Gone too.txt", { folder: "old" });
  const workspace = await newWorkspace(app, "Folder");
  await embed(app, workspace.slug, [gone.location, kept.location]);

  const protectedFolder = await del(app, "/api/system/remove-folder", { name: "custom-documents" });
  assert.equal(protectedFolder.status, 400);
  assert.equal(
    protectedFolder.body.error,
    'The folder "custom-documents" cannot be removed: new uploads are stored in it.',
  );
  assert.equal((await del(app, "/api/system/remove-folder", { name: "nope" })).status, 404);
  assert.equal((await del(app, "/api/system/remove-folder", { name: "../documents" })).status, 400);
  assert.equal((await del(app, "/api/system/remove-folder", {})).status, 400);

  const removed = await del(app, "/api/system/remove-folder", { name: "old" });
  assert.deepEqual([removed.status, removed.body], [200, { success: true, error: null, removed: 2 }]);
  assert.equal(await exists(join(app.storageDir, "documents", "old")), false);
  assert.deepEqual((await app.deps.db.select().from(documents)).map((row) => row.location), [kept.location]);
  assert.deepEqual(
    (await app.deps.db.select().from(workspaceDocuments)).map((row) => row.docpath),
    [kept.location],
  );
  const shells = LocalFilesAnswer.parse((await app.json("/api/system/local-files")).body);
  assert.deepEqual(shells.localFiles.items.map((item) => item.name), ["custom-documents"]);
});

Deno.test("POST /api/document/create-folder takes safe names only", async () => {
  await using app = await createTestApp();
  const made = await app.json("/api/document/create-folder", { json: { name: "Research 2026" } });
  assert.equal(made.status, 200);
  assert.deepEqual(SuccessOrMessage.parse(made.body), {
    success: true,
    message: 'Folder "Research-2026" created.',
  });
  assert.equal(made.body.folder, "Research-2026");
  assert.equal((await Deno.stat(join(app.storageDir, "documents", "Research-2026"))).isDirectory, true);

  const twice = await app.json("/api/document/create-folder", { json: { name: "Research-2026" } });
  assert.equal(twice.status, 409);
  assert.deepEqual(twice.body, { success: false, message: 'A folder named "Research-2026" already exists.' });
  assert.equal(
    (await app.json("/api/document/create-folder", { json: { name: "custom-documents" } })).status,
    409,
  );
  for (
    const name of ["../etc", "a/b", ".", "..", ".hidden", "a\\b", "", "  ", "x".repeat(65), "tab\there", 7]
  ) {
    const answer = await app.json("/api/document/create-folder", { json: { name } });
    assert.equal(answer.status, 400, JSON.stringify(name));
    assert.equal(answer.body.success, false);
    assert.equal(typeof answer.body.message, "string");
  }
  assert.equal(await exists(join(app.storageDir, "etc")), false);
});

Deno.test("POST /api/document/move-files moves the files and every location that names them", async () => {
  await using app = await createTestApp();
  const doc = await seed(app, "Mover.txt");
  const blocker = await seed(app, "Blocker.txt", { folder: "archive" });
  const workspace = await newWorkspace(app, "Moves");
  await embed(app, workspace.slug, [doc.location]);
  await app.json(`/api/workspace/${workspace.slug}/update-pin`, {
    json: { docPath: doc.location, pinStatus: true },
  });
  const filename = doc.location.split("/")[1];
  const to = `archive/${filename}`;

  const moved = await app.json("/api/document/move-files", { json: { files: [{ from: doc.location, to }] } });
  assert.deepEqual([moved.status, moved.body], [200, { success: true, message: null }]);
  assert.equal(await exists(doc.path), false);
  assert.equal(await exists(join(app.storageDir, "documents", to)), true);
  const [row] = await app.deps.db.select().from(documents).where(eq(documents.location, to));
  assert.deepEqual([row.folder, row.filename], ["archive", filename]);
  const [embedded] = await app.deps.db.select().from(workspaceDocuments);
  assert.equal(embedded.docpath, to);
  assert.equal(embedded.pinned, true);
  const listed = FolderPageAnswer.parse((await page(app, "folder=archive")).body);
  assert.deepEqual(listed.documents.map((file) => [file.location, file.pinnedWorkspaces]), [
    [blocker.location, []],
    [to, [workspace.id]],
  ]);
  const read = await app.deps.documents.read(to);
  assert.equal(read.title, "Mover.txt", "the moved document reads from its new place");

  const clash = await app.json("/api/document/move-files", {
    json: { files: [{ from: to, to: blocker.location }, { from: "archive/ghost.json", to: "x/ghost.json" }] },
  });
  assert.equal(clash.status, 200);
  assert.equal(clash.body.success, false);
  assert.match(String(clash.body.message), /^2 of 2 documents could not be moved\./);
  assert.match(String(clash.body.message), /already exists/);
  assert.match(String(clash.body.message), /Cannot find the document "archive\/ghost.json"/);
  assert.equal(await exists(join(app.storageDir, "documents", to)), true, "a refused move leaves the file");

  for (const files of [[], "x", [{ from: to }], [{ from: to, to: "../../etc/x.json" }]]) {
    const bad = await app.json("/api/document/move-files", { json: { files } });
    assert.equal(bad.status, 400, JSON.stringify(files));
    assert.equal(bad.body.success, false);
  }
});

Deno.test("DELETE /api/workspace/:slug/remove-and-unembed purges the document system-wide", async () => {
  await using app = await createTestApp();
  const doc = await seed(app, "Everywhere.txt");
  const one = await newWorkspace(app, "First");
  const two = await newWorkspace(app, "Second");
  await embed(app, one.slug, [doc.location]);
  await embed(app, two.slug, [doc.location]);
  const missing = await del(app, `/api/workspace/${one.slug}/remove-and-unembed`, {});
  assert.equal(missing.status, 400);
  assert.match(String(missing.body.error), /documentLocation/);
  assert.equal(
    (await del(app, "/api/workspace/nope/remove-and-unembed", { documentLocation: doc.location })).status,
    404,
  );
  const removed = await del(app, `/api/workspace/${one.slug}/remove-and-unembed`, {
    documentLocation: doc.location,
  });
  assert.deepEqual([removed.status, SuccessOrError.parse(removed.body)], [200, {
    success: true,
    error: null,
  }]);
  assert.equal((await app.deps.db.select().from(workspaceDocuments)).length, 0, "gone from both workspaces");
  assert.equal((await app.deps.db.select().from(documents)).length, 0);
  assert.equal(await exists(doc.path), false);
});

Deno.test("POST /api/workspace/:slug/update-pin pins and unpins a document of the workspace", async () => {
  await using app = await createTestApp();
  const doc = await seed(app, "Pinned.txt");
  const outside = await seed(app, "Outside.txt");
  const workspace = await newWorkspace(app, "Pins");
  await embed(app, workspace.slug, [doc.location]);
  const pin = (json: unknown, slug = workspace.slug) =>
    app.json(`/api/workspace/${slug}/update-pin`, { json });

  assert.deepEqual((await pin({ docPath: doc.location, pinStatus: true })).body, {
    success: true,
    error: null,
  });
  const detail = await app.json<{ workspace: { documents: { pinned: boolean }[] } }>(
    `/api/workspace/${workspace.slug}`,
  );
  assert.equal(detail.body.workspace.documents[0].pinned, true);
  const listed = FolderPageAnswer.parse((await page(app, "folder=custom-documents")).body);
  assert.deepEqual(listed.documents.find((file) => file.location === doc.location)?.pinnedWorkspaces, [
    workspace.id,
  ]);
  await pin({ docPath: doc.location, pinStatus: false });
  const [row] = await app.deps.db.select().from(workspaceDocuments);
  assert.equal(row.pinned, false);

  const notHere = await pin({ docPath: outside.location, pinStatus: true });
  assert.equal(notHere.status, 404);
  assert.match(String(notHere.body.error), /is not in this workspace/);
  assert.equal((await pin({ docPath: doc.location, pinStatus: true }, "nope")).status, 404);
  for (
    const bad of [{ docPath: doc.location }, { docPath: doc.location, pinStatus: "yes" }, { pinStatus: true }]
  ) {
    assert.equal((await pin(bad)).status, 400, JSON.stringify(bad));
  }
});

Deno.test("POST /api/workspace/:slug/update-watch-status queues link documents for live sync", async () => {
  await using app = await createTestApp();
  const link = await seed(app, "example.com-page.html", { chunkSource: "link://https://example.com/page" });
  const file = await seed(app, "Plain.txt");
  const workspace = await newWorkspace(app, "Watch");
  await embed(app, workspace.slug, [link.location, file.location]);
  const watch = (json: unknown) => app.json(`/api/workspace/${workspace.slug}/update-watch-status`, { json });

  const listedBefore = FolderPageAnswer.parse((await page(app, "folder=custom-documents")).body);
  assert.deepEqual(
    listedBefore.documents.map((entry) => [entry.title, entry.canWatch]).sort(),
    [["Plain.txt", false], ["example.com-page.html", true]],
  );

  const started = Date.now();
  const on = await watch({ docPath: link.location, watchStatus: true });
  assert.deepEqual([on.status, on.body], [200, { success: true, error: null }]);
  const [queue] = await app.deps.db.select().from(documentSyncQueues);
  const [row] = await app.deps.db.select().from(workspaceDocuments).where(
    eq(workspaceDocuments.docpath, link.location),
  );
  assert.equal(row.watched, true);
  assert.equal(queue.workspaceDocId, row.id);
  assert.equal(queue.staleAfterMs, DEFAULT_STALE_AFTER_MS);
  const due = queue.nextSyncAt.getTime() - started;
  assert.ok(due >= DEFAULT_STALE_AFTER_MS - 1000 && due <= DEFAULT_STALE_AFTER_MS + 5000, String(due));
  await watch({ docPath: link.location, watchStatus: true });
  assert.equal(
    (await app.deps.db.select().from(documentSyncQueues)).length,
    1,
    "watching twice keeps one row",
  );
  const listed = FolderPageAnswer.parse((await page(app, "folder=custom-documents")).body);
  assert.equal(listed.documents.find((entry) => entry.location === link.location)?.watched, true);

  const off = await watch({ docPath: link.location, watchStatus: false });
  assert.equal(off.status, 200);
  assert.equal((await app.deps.db.select().from(documentSyncQueues)).length, 0);
  const [after] = await app.deps.db.select().from(workspaceDocuments).where(
    eq(workspaceDocuments.id, row.id),
  );
  assert.equal(after.watched, false);

  const plain = await watch({ docPath: file.location, watchStatus: true });
  assert.equal(plain.status, 400);
  assert.deepEqual(plain.body, {
    success: false,
    error: "Only documents added from a link or a data connector can be watched.",
  });
  assert.equal((await watch({ docPath: link.location })).status, 400);
  assert.equal((await watch({ docPath: "custom-documents/none.json", watchStatus: true })).status, 404);

  await watch({ docPath: link.location, watchStatus: true });
  await del(app, "/api/system/remove-document", { name: link.location });
  assert.equal((await app.deps.db.select().from(documentSyncQueues)).length, 0, "removal ends the watch");
});
