import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { workspaceChats, workspaceDocuments, workspaces, workspaceThreads } from "../../db/schema.ts";
import { makeApiKey, withKey } from "../testing/api_keys.ts";
import { createTestApp, type TestApp, uploadText } from "../testing/test_app.ts";

const FREEDONIA =
  "Freedonia is a small country. The capital of Freedonia is Fredville, on the Blue River.\n\n" +
  "Freedonia exports cheese and violins. Its national bird is the grey heron.";

type Json = Record<string, unknown>;
type WorkspaceJson = Json & { id: number; slug: string; name: string };

/** A single-user test app with a full-access key. */
async function appWithKey() {
  const app = await createTestApp();
  const { key } = await makeApiKey(app);
  return { app, key };
}

async function newWorkspace(app: TestApp, key: string, name: string): Promise<WorkspaceJson> {
  const made = await app.json<{ workspace: WorkspaceJson }>(
    "/api/v1/workspace/new",
    withKey(key, { json: { name } }),
  );
  assert.equal(made.status, 200, JSON.stringify(made.body));
  return made.body.workspace;
}

const limitedKey = async (app: TestApp, workspaceIds: number[], permissions: string[]) =>
  (await makeApiKey(app, { scope: "workspaces", workspaceIds, permissions })).key;

async function slugsListed(app: TestApp, key: string): Promise<string[]> {
  const listed = await app.json<{ workspaces: WorkspaceJson[] }>("/api/v1/workspaces", withKey(key));
  assert.equal(listed.status, 200, JSON.stringify(listed.body));
  return listed.body.workspaces.map((row) => row.slug).sort();
}

Deno.test("v1 workspace/new: takes the name and any writable field, ignores others, and refuses bad ones naming the field", async () => {
  const { app, key } = await appWithKey();
  await using _app = app;
  const made = await app.json<{ workspace: WorkspaceJson; message: null }>(
    "/api/v1/workspace/new",
    withKey(key, {
      json: {
        name: "Research Notes",
        openAiTemp: 0.2,
        topN: 6,
        similarityThreshold: 0.5,
        slug: "ignored",
        id: 99,
      },
    }),
  );
  assert.equal(made.status, 200, JSON.stringify(made.body));
  assert.equal(made.body.message, null);
  const workspace = made.body.workspace;
  assert.equal(workspace.name, "Research Notes");
  assert.equal(workspace.slug, "research-notes");
  assert.equal(workspace.openAiTemp, 0.2);
  assert.equal(workspace.topN, 6);
  assert.equal(workspace.similarityThreshold, 0.5);
  assert.notEqual(workspace.id, 99);
  const [row] = await app.deps.db.select().from(workspaces).where(eq(workspaces.slug, "research-notes"));
  assert.equal(row.topN, 6);

  const refusals: [unknown, number, string][] = [
    [{}, 400, "name cannot be null"],
    [{ name: "   " }, 400, "name cannot be null"],
    [{ name: "X", openAiTemp: 5 }, 400, "openAiTemp: Temperature must be at most 2."],
    [{ name: "X", topN: "many" }, 400, "topN: Max context snippets must be a number."],
    [{ name: "X", chatMode: "agent" }, 400, "chatMode: Chat mode must be chat or query."],
    [{ name: "X", chatProvider: "nonsense" }, 400, "nonsense is not a valid LLM provider."],
  ];
  for (const [body, status, message] of refusals) {
    const answer = await app.json("/api/v1/workspace/new", withKey(key, { json: body }));
    assert.equal(answer.status, status, JSON.stringify(body));
    assert.deepEqual(answer.body, { workspace: null, message }, JSON.stringify(body));
  }
  const malformed = await app.json<Json>("/api/v1/workspace/new", withKey(key, { json: "{name:" }));
  assert.equal(malformed.status, 400);
  assert.equal(malformed.body.workspace, null);
  assert.match(String(malformed.body.message), /^The request body is not valid JSON/);
  // Nothing was stored by a refused call, not even the workspace an unknown provider stopped half-way.
  assert.deepEqual(await slugsListed(app, key), ["research-notes"]);

  const read = (await makeApiKey(app, { scope: "read" })).key;
  const limited = await limitedKey(app, [workspace.id], ["chat", "documents", "read"]);
  for (const other of [read, limited]) {
    const answer = await app.json<Json>("/api/v1/workspace/new", withKey(other, { json: { name: "Nope" } }));
    assert.equal(answer.status, 403);
    assert.match(String(answer.body.error), /^This API key /);
  }
  assert.deepEqual(await slugsListed(app, key), ["research-notes"]);
});

Deno.test("v1 workspaces: every workspace with its threads; a workspace-limited key lists only its own", async () => {
  const { app, key } = await appWithKey();
  await using _app = app;
  const alpha = await newWorkspace(app, key, "Alpha");
  const beta = await newWorkspace(app, key, "Beta");
  await newWorkspace(app, key, "Gamma");
  const thread = await app.json<{ thread: { slug: string } }>(
    `/api/v1/workspace/${beta.slug}/thread/new`,
    withKey(key, { json: { name: "Planning" } }),
  );
  assert.equal(thread.status, 200);

  const listed = await app.json<{ workspaces: (WorkspaceJson & { threads: Json[] })[] }>(
    "/api/v1/workspaces",
    withKey(key),
  );
  assert.equal(listed.status, 200);
  assert.deepEqual(listed.body.workspaces.map((row) => row.slug), ["alpha", "beta", "gamma"]);
  const betaRow = listed.body.workspaces.find((row) => row.slug === "beta")!;
  assert.deepEqual(betaRow.threads, [{ user_id: null, slug: thread.body.thread.slug, name: "Planning" }]);
  assert.deepEqual(listed.body.workspaces.find((row) => row.slug === "alpha")!.threads, []);
  assert.equal(typeof betaRow.openAiHistory, "number");

  assert.deepEqual(await slugsListed(app, (await makeApiKey(app, { scope: "read" })).key), [
    "alpha",
    "beta",
    "gamma",
  ]);
  assert.deepEqual(await slugsListed(app, await limitedKey(app, [alpha.id, beta.id], ["chat"])), [
    "alpha",
    "beta",
  ]);
  const onlyGone = await limitedKey(app, [alpha.id], ["read"]);
  await app.json(`/api/v1/workspace/${alpha.slug}`, withKey(key, { method: "DELETE" }));
  assert.deepEqual(await slugsListed(app, onlyGone), [], "a key whose workspaces are gone lists none");
});

Deno.test("v1 workspace/:slug: the workspace in a list with documents and threads; an unknown slug is an empty list", async () => {
  const { app, key } = await appWithKey();
  await using _app = app;
  const atlas = await newWorkspace(app, key, "Atlas");
  const other = await newWorkspace(app, key, "Other");
  const location = await uploadText(app, atlas.slug, "freedonia.txt", FREEDONIA);
  const embedded = await app.json(
    `/api/v1/workspace/${atlas.slug}/update-embeddings`,
    withKey(key, { json: { adds: [location] } }),
  );
  assert.equal(embedded.status, 200, JSON.stringify(embedded.body));
  const thread = await app.json<{ thread: { slug: string } }>(
    `/api/v1/workspace/${atlas.slug}/thread/new`,
    withKey(key, { json: {} }),
  );

  const got = await app.json<{ workspace: (WorkspaceJson & { documents: Json[]; threads: Json[] })[] }>(
    `/api/v1/workspace/${atlas.slug}`,
    withKey(key),
  );
  assert.equal(got.status, 200);
  assert.equal(got.body.workspace.length, 1);
  const [workspace] = got.body.workspace;
  assert.equal(workspace.slug, "atlas");
  assert.deepEqual(workspace.documents.map((document) => document.docpath), [location]);
  assert.equal(workspace.documents[0].pinned, false);
  assert.deepEqual(workspace.threads, [{ user_id: null, slug: thread.body.thread.slug }]);

  assert.deepEqual((await app.json("/api/v1/workspace/no-such-place", withKey(key))).body, { workspace: [] });

  const readAtlas = await limitedKey(app, [atlas.id], ["read"]);
  assert.equal((await app.json(`/api/v1/workspace/${atlas.slug}`, withKey(readAtlas))).status, 200);
  const refused = await app.json<Json>(`/api/v1/workspace/${other.slug}`, withKey(readAtlas));
  assert.equal(refused.status, 403);
  assert.match(String(refused.body.error), /cannot use the workspace "other"/);
  const chatOnly = await limitedKey(app, [atlas.id], ["chat"]);
  const noRead = await app.json<Json>(`/api/v1/workspace/${atlas.slug}`, withKey(chatOnly));
  assert.equal(noRead.status, 403);
  assert.match(String(noRead.body.error), /cannot read\.$/);
});

Deno.test("v1 workspace/:slug/update: changes only the fields sent, names a bad field, and is for full keys", async () => {
  const { app, key } = await appWithKey();
  await using _app = app;
  const atlas = await newWorkspace(app, key, "Atlas");
  const updated = await app.json<{ workspace: WorkspaceJson; message: null }>(
    `/api/v1/workspace/${atlas.slug}/update`,
    withKey(key, { json: { name: "Atlas Two", openAiHistory: 5, openAiPrompt: "Answer in French." } }),
  );
  assert.equal(updated.status, 200, JSON.stringify(updated.body));
  assert.equal(updated.body.workspace.name, "Atlas Two");
  assert.equal(updated.body.workspace.openAiHistory, 5);
  assert.equal(updated.body.workspace.openAiPrompt, "Answer in French.");
  assert.equal(updated.body.workspace.slug, "atlas", "the slug stays");
  assert.equal(updated.body.workspace.topN, atlas.topN);

  const nothing = await app.json(
    `/api/v1/workspace/${atlas.slug}/update`,
    withKey(key, { json: { colour: "red" } }),
  );
  assert.equal(nothing.status, 200);
  assert.deepEqual(nothing.body, { workspace: { id: atlas.id }, message: "No valid fields to update!" });

  const bad = await app.json(`/api/v1/workspace/${atlas.slug}/update`, withKey(key, { json: { topN: 0 } }));
  assert.equal(bad.status, 400);
  assert.deepEqual(bad.body, { workspace: null, message: "topN: Max context snippets must be at least 1." });
  const unknown = await app.json("/api/v1/workspace/nope/update", withKey(key, { json: { topN: 3 } }));
  assert.equal(unknown.status, 400);
  assert.deepEqual(unknown.body, { workspace: null, message: "Workspace nope is not a valid workspace." });

  const everything = await limitedKey(app, [atlas.id], ["chat", "documents", "read"]);
  const refused = await app.json<Json>(
    `/api/v1/workspace/${atlas.slug}/update`,
    withKey(everything, { json: { topN: 3 } }),
  );
  assert.equal(refused.status, 403);
  assert.match(String(refused.body.error), /cannot change a workspace's settings or delete it\.$/);
  const [row] = await app.deps.db.select().from(workspaces).where(eq(workspaces.id, atlas.id));
  assert.equal(row.topN, atlas.topN, "no refused call changed the workspace");
});

Deno.test("v1 DELETE workspace/:slug: deletes it with its threads and chats; unknown is a 400; only full keys", async () => {
  const { app, key } = await appWithKey();
  await using _app = app;
  const atlas = await newWorkspace(app, key, "Atlas");
  await app.json(`/api/v1/workspace/${atlas.slug}/thread/new`, withKey(key, { json: {} }));
  await app.deps.db.insert(workspaceChats).values({ workspaceId: atlas.id, prompt: "hi", response: "{}" });

  const read = (await makeApiKey(app, { scope: "read" })).key;
  const refused = await app.json<Json>(
    `/api/v1/workspace/${atlas.slug}`,
    withKey(read, { method: "DELETE" }),
  );
  assert.equal(refused.status, 403);
  assert.equal(refused.body.error, "This API key is read-only, so it cannot make changes.");

  const deleted = await app.request(`/api/v1/workspace/${atlas.slug}`, withKey(key, { method: "DELETE" }));
  assert.equal(deleted.status, 200);
  assert.equal(await deleted.text(), "OK");
  assert.deepEqual(await slugsListed(app, key), []);
  assert.equal((await app.deps.db.select().from(workspaceThreads)).length, 0);
  assert.equal((await app.deps.db.select().from(workspaceChats)).length, 0);

  const again = await app.json(`/api/v1/workspace/${atlas.slug}`, withKey(key, { method: "DELETE" }));
  assert.equal(again.status, 400);
  assert.deepEqual(again.body, { error: "Workspace atlas is not a valid workspace." });
});

Deno.test("v1 workspace/:slug/chats: the default thread's chats of every user, or one API session's, with limit and order", async () => {
  const { app, key } = await appWithKey();
  await using _app = app;
  const atlas = await newWorkspace(app, key, "Atlas");
  const other = await newWorkspace(app, key, "Other");
  const [thread] = await app.deps.db.insert(workspaceThreads).values({
    name: "T",
    slug: "t-1",
    workspaceId: atlas.id,
  }).returning();
  const response = (text: string) =>
    JSON.stringify({ text, sources: [], type: "chat", attachments: [], metrics: {} });
  let minute = 0;
  const chat = (values: Partial<typeof workspaceChats.$inferInsert> & { prompt: string }) =>
    app.deps.db.insert(workspaceChats).values({
      workspaceId: atlas.id,
      response: response(`answer to ${values.prompt}`),
      createdAt: new Date(Date.UTC(2025, 0, 1, 0, minute++)),
      ...values,
    });
  await chat({ prompt: "ui one" });
  await chat({ prompt: "api one", apiSessionId: "session-a" });
  await chat({ prompt: "ui two" });
  await chat({ prompt: "in a thread", threadId: thread.id });
  await chat({ prompt: "cleared", include: false });
  await chat({ prompt: "api cleared", apiSessionId: "session-a", include: false });
  await chat({ prompt: "other session", apiSessionId: "session-b" });
  await chat({ prompt: "elsewhere", workspaceId: other.id });
  await chat({ prompt: "ui three" });

  type Entry = { role: string; content: string; sources?: unknown[]; sentAt: number };
  const prompts = async (query: string) => {
    const answer = await app.json<{ history: Entry[] }>(
      `/api/v1/workspace/${atlas.slug}/chats${query}`,
      withKey(key),
    );
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return answer.body.history.filter((entry) => entry.role === "user").map((entry) => entry.content);
  };
  assert.deepEqual(await prompts(""), ["ui one", "ui two", "ui three"]);
  assert.deepEqual(await prompts("?orderBy=desc"), ["ui three", "ui two", "ui one"]);
  assert.deepEqual(await prompts("?limit=2"), ["ui one", "ui two"]);
  assert.deepEqual(await prompts("?limit=2&orderBy=desc"), ["ui three", "ui two"]);
  assert.deepEqual(await prompts("?limit=0"), ["ui one"], "a limit under 1 is 1, as the reference");
  assert.deepEqual(await prompts("?orderBy=sideways"), ["ui one", "ui two", "ui three"]);
  assert.deepEqual(await prompts("?apiSessionId=session-a"), ["api one", "api cleared"]);
  assert.deepEqual(await prompts("?apiSessionId=nobody"), []);

  const full = await app.json<{ history: Entry[] }>(
    `/api/v1/workspace/${atlas.slug}/chats?limit=1`,
    withKey(key),
  );
  assert.deepEqual(full.body.history.map((entry) => [entry.role, entry.content]), [
    ["user", "ui one"],
    ["assistant", "answer to ui one"],
  ]);
  assert.equal(full.body.history[0].sentAt, Date.UTC(2025, 0, 1, 0, 0) / 1000);

  const badLimit = await app.json(`/api/v1/workspace/${atlas.slug}/chats?limit=lots`, withKey(key));
  assert.equal(badLimit.status, 400);
  assert.deepEqual(badLimit.body, { error: "limit must be a whole number of chats." });
  const unknown = await app.json("/api/v1/workspace/nope/chats", withKey(key));
  assert.equal(unknown.status, 400);
  assert.deepEqual(unknown.body, { error: "Workspace nope is not a valid workspace." });

  assert.equal(
    (await app.json(
      `/api/v1/workspace/${atlas.slug}/chats`,
      withKey(
        await limitedKey(app, [atlas.id], ["read"]),
      ),
    )).status,
    200,
  );
  const chatOnly = await app.json<Json>(
    `/api/v1/workspace/${atlas.slug}/chats`,
    withKey(await limitedKey(app, [atlas.id], ["chat"])),
  );
  assert.equal(chatOnly.status, 403);
});

Deno.test("v1 update-embeddings and update-pin: add, pin, unpin and remove documents, refusing bad bodies", async () => {
  const { app, key } = await appWithKey();
  await using _app = app;
  const atlas = await newWorkspace(app, key, "Atlas");
  const location = await uploadText(app, atlas.slug, "freedonia.txt", FREEDONIA);
  const documentsKey = await limitedKey(app, [atlas.id], ["documents"]);

  const added = await app.json<{ workspace: { documents: Json[] }; message: string | null }>(
    `/api/v1/workspace/${atlas.slug}/update-embeddings`,
    withKey(documentsKey, { json: { adds: [location] } }),
  );
  assert.equal(added.status, 200, JSON.stringify(added.body));
  assert.equal(added.body.message, null);
  assert.deepEqual(added.body.workspace.documents.map((document) => document.docpath), [location]);

  const pinned = await app.json(
    `/api/v1/workspace/${atlas.slug}/update-pin`,
    withKey(documentsKey, { json: { docPath: location, pinStatus: true } }),
  );
  assert.equal(pinned.status, 200);
  assert.deepEqual(pinned.body, { message: "Pin status updated successfully" });
  const pinnedRow = async () =>
    (await app.deps.db.select().from(workspaceDocuments).where(eq(workspaceDocuments.docpath, location)))[0]
      ?.pinned;
  assert.equal(await pinnedRow(), true);
  const unpinned = await app.json(
    `/api/v1/workspace/${atlas.slug}/update-pin`,
    withKey(key, { json: { docPath: location } }),
  );
  assert.equal(unpinned.status, 200);
  assert.equal(await pinnedRow(), false, "pinStatus defaults to false");

  const pinRefusals: [string, unknown, number, Json][] = [
    [atlas.slug, { docPath: "custom-documents/nothing.json", pinStatus: true }, 404, {
      error: 'The document "custom-documents/nothing.json" is not in this workspace.',
    }],
    [atlas.slug, { docPath: "../../etc/passwd", pinStatus: true }, 400, {
      error: '"../../etc/passwd" is not a document location (expected "folder/file.json").',
    }],
    [atlas.slug, { pinStatus: true }, 400, {
      error: 'docPath must be a document location ("folder/file.json").',
    }],
    [atlas.slug, { docPath: location, pinStatus: "yes" }, 400, { error: "pinStatus must be true or false." }],
    ["nope", { docPath: location, pinStatus: true }, 400, {
      error: "Workspace nope is not a valid workspace.",
    }],
  ];
  for (const [slug, body, status, answer] of pinRefusals) {
    const refused = await app.json(`/api/v1/workspace/${slug}/update-pin`, withKey(key, { json: body }));
    assert.equal(refused.status, status, JSON.stringify(body));
    assert.deepEqual(refused.body, answer);
  }

  const embeddingRefusals: [string, unknown, Json][] = [
    [atlas.slug, { adds: "one" }, {
      workspace: null,
      message: "adds: Invalid input: expected array, received string",
    }],
    [atlas.slug, { deletes: [""] }, {
      workspace: null,
      message: "deletes.0: Too small: expected string to have >=1 characters",
    }],
    ["nope", { adds: [] }, { workspace: null, message: "Workspace nope is not a valid workspace." }],
  ];
  for (const [slug, body, answer] of embeddingRefusals) {
    const refused = await app.json(
      `/api/v1/workspace/${slug}/update-embeddings`,
      withKey(key, { json: body }),
    );
    assert.equal(refused.status, 400, JSON.stringify(body));
    assert.deepEqual(refused.body, answer);
  }

  for (
    const other of [
      (await makeApiKey(app, { scope: "read" })).key,
      await limitedKey(app, [atlas.id], ["chat"]),
    ]
  ) {
    const refused = await app.json(
      `/api/v1/workspace/${atlas.slug}/update-embeddings`,
      withKey(other, { json: { deletes: [location] } }),
    );
    assert.equal(refused.status, 403);
    const pin = await app.json(
      `/api/v1/workspace/${atlas.slug}/update-pin`,
      withKey(other, { json: { docPath: location, pinStatus: true } }),
    );
    assert.equal(pin.status, 403);
  }
  assert.equal(await pinnedRow(), false);

  const removed = await app.json<{ workspace: { documents: Json[] } }>(
    `/api/v1/workspace/${atlas.slug}/update-embeddings`,
    withKey(key, { json: { deletes: [location] } }),
  );
  assert.equal(removed.status, 200);
  assert.deepEqual(removed.body.workspace.documents, []);
});

Deno.test("v1 vector-search: the workspace's closest chunks in the reference's shape, with topN and scoreThreshold", async () => {
  const { app, key } = await appWithKey();
  await using _app = app;
  const atlas = await newWorkspace(app, key, "Atlas");
  const search = (body: unknown, slug = atlas.slug, withAKey = key) =>
    app.json<{ results: Json[]; message?: string }>(
      `/api/v1/workspace/${slug}/vector-search`,
      withKey(withAKey, { json: body }),
    );

  const empty = await search({ query: "capital" });
  assert.equal(empty.status, 200);
  assert.deepEqual(empty.body, { results: [], message: "No embeddings found for this workspace." });

  const adds = [
    await uploadText(app, atlas.slug, "freedonia.txt", FREEDONIA),
    await uploadText(
      app,
      atlas.slug,
      "baking.txt",
      "Sourdough bread needs flour, water, salt and a starter.",
    ),
  ];
  await app.json(`/api/v1/workspace/${atlas.slug}/update-embeddings`, withKey(key, { json: { adds } }));

  const found = await search({ query: "What is the capital of Freedonia?", topN: 4, scoreThreshold: 0 });
  assert.equal(found.status, 200, JSON.stringify(found.body));
  assert.equal(found.body.results.length, 2, "both documents' chunks, with no threshold");
  const [best] = found.body.results;
  assert.deepEqual(Object.keys(best).sort(), ["distance", "id", "metadata", "score", "text"]);
  assert.equal(typeof best.id, "string");
  assert.match(String(best.text), /Fredville/);
  const metadata = best.metadata as Json;
  assert.equal(metadata.title, "freedonia.txt");
  assert.equal(typeof metadata.wordCount, "number");
  assert.equal(typeof metadata.tokenCount, "number");
  assert.deepEqual(Object.keys(metadata).sort(), [
    "author",
    "chunkSource",
    "description",
    "docSource",
    "published",
    "title",
    "tokenCount",
    "url",
    "wordCount",
  ]);
  const score = best.score as number;
  assert.ok(score > 0 && score <= 1, String(score));
  assert.ok(Math.abs((best.distance as number) - (1 - score)) < 1e-9);
  assert.equal(found.body.message, undefined);

  assert.ok(score > (found.body.results[1].score as number), "best first");
  const one = await search({ query: "What is the capital of Freedonia?", topN: "1", scoreThreshold: 0 });
  assert.deepEqual(one.body.results.map((result) => result.id), [best.id]);
  const above = await search({ query: "What is the capital of Freedonia?", scoreThreshold: score + 0.0001 });
  assert.deepEqual(above.body.results, [], "nothing under the threshold");
  // Without topN and scoreThreshold, the workspace's own settings apply.
  await app.json(
    `/api/v1/workspace/${atlas.slug}/update`,
    withKey(key, { json: { topN: 1, similarityThreshold: 0 } }),
  );
  assert.equal((await search({ query: "What is the capital of Freedonia?" })).body.results.length, 1);

  const refusals: [unknown, string][] = [
    [{}, "Query parameter cannot be empty."],
    [{ query: "  " }, "Query parameter cannot be empty."],
    [{ query: "x", topN: 0 }, "topN must be at least 1."],
    [{ query: "x", topN: "lots" }, "topN must be a number."],
    [{ query: "x", scoreThreshold: 1.5 }, "scoreThreshold must be between 0 and 1."],
  ];
  for (const [body, message] of refusals) {
    const refused = await search(body);
    assert.equal(refused.status, 400, JSON.stringify(body));
    assert.deepEqual(refused.body, { message });
  }
  const unknown = await search({ query: "x" }, "nope");
  assert.equal(unknown.status, 400);
  assert.deepEqual(unknown.body, { message: "Workspace nope is not a valid workspace." });

  const readKey = await limitedKey(app, [atlas.id], ["read"]);
  assert.equal((await search({ query: "capital" }, atlas.slug, readKey)).status, 200);
  const chatKey = await limitedKey(app, [atlas.id], ["chat", "documents"]);
  assert.equal((await search({ query: "capital" }, atlas.slug, chatKey)).status, 403);
});
