import assert from "node:assert/strict";
import { createTestApp } from "../testing/test_app.ts";
import { addUser, bearer, multiUserInstance } from "../testing/accounts.ts";

type Answer = {
  workspaces: { slug: string; name: string }[];
  threads: { slug: string; name: string; workspace: { slug: string; name: string } }[];
};

Deno.test("workspace search finds workspace and thread names, loosely, in single-user mode", async () => {
  await using app = await createTestApp();
  const atlas =
    (await app.json<{ workspace: { slug: string } }>("/api/workspace/new", { json: { name: "Atlas Notes" } }))
      .body.workspace.slug;
  await app.json("/api/workspace/new", { json: { name: "Recipes" } });
  const thread =
    (await app.json<{ thread: { slug: string } }>(`/api/workspace/${atlas}/thread/new`, { json: {} }))
      .body.thread.slug;
  await app.json(`/api/workspace/${atlas}/thread/${thread}/update`, { json: { name: "Mountain passes" } });

  const search = (searchTerm: unknown) => app.json<Answer>("/api/workspace/search", { json: { searchTerm } });
  const byName = await search("ATLAS");
  assert.equal(byName.status, 200);
  assert.deepEqual(byName.body, { workspaces: [{ slug: atlas, name: "Atlas Notes" }], threads: [] });
  // A typo still finds the thread, with its workspace.
  assert.deepEqual((await search("mountain pases")).body, {
    workspaces: [],
    threads: [{ slug: thread, name: "Mountain passes", workspace: { slug: atlas, name: "Atlas Notes" } }],
  });
  // A typo in one word of a longer name, and the start of a word.
  assert.deepEqual(
    (await search("atlsa")).body.workspaces,
    [],
    "two edits in a five-letter word are too many",
  );
  assert.deepEqual((await search("mountian")).body.threads.map((found) => found.name), ["Mountain passes"]);
  assert.deepEqual((await search("nptes")).body.workspaces.map((found) => found.name), ["Atlas Notes"]);
  assert.deepEqual((await search("moun pass")).body.threads.map((found) => found.name), ["Mountain passes"]);
  assert.deepEqual((await search("recipes atlas")).body.workspaces, [], "every word of the term must match");
  assert.deepEqual((await search("at")).body, { workspaces: [], threads: [] }, "two letters find nothing");
  assert.deepEqual((await search("%")).body, { workspaces: [], threads: [] });
  const tooLong = await search("x".repeat(201));
  assert.equal(tooLong.status, 400);
  assert.match(JSON.stringify(tooLong.body), /The search term is too long: at most 200 characters/);
  const notText = await search({ $ne: null });
  assert.equal(notText.status, 400);
  assert.match(JSON.stringify(notText.body), /searchTerm must be text/);
});

Deno.test("workspace search shows a user only the workspaces they belong to and their own threads", async () => {
  await using app = await createTestApp();
  const admin = await multiUserInstance(app);
  const ada = await addUser(app, admin, "ada", "default");
  const bob = await addUser(app, admin, "bob", "default");
  const shared = (await app.json<{ workspace: { id: number; slug: string } }>("/api/workspace/new", {
    ...bearer(admin.token),
    json: { name: "Shared research" },
  })).body.workspace;
  await app.json("/api/workspace/new", { ...bearer(admin.token), json: { name: "Secret research" } });
  await app.json(`/api/admin/workspaces/${shared.id}/update-users`, {
    ...bearer(admin.token),
    json: { userIds: [ada.user.id, bob.user.id] },
  });
  for (const [session, name] of [[ada, "Research of Ada"], [bob, "Research of Bob"]] as const) {
    const thread = (await app.json<{ thread: { slug: string } }>(`/api/workspace/${shared.slug}/thread/new`, {
      ...bearer(session.token),
      json: {},
    })).body.thread.slug;
    await app.json(`/api/workspace/${shared.slug}/thread/${thread}/update`, {
      ...bearer(session.token),
      json: { name },
    });
  }
  const search = async (token: string) =>
    (await app.json<Answer>("/api/workspace/search", { ...bearer(token), json: { searchTerm: "research" } }))
      .body;
  const forAda = await search(ada.token);
  assert.deepEqual(forAda.workspaces.map((workspace) => workspace.name), ["Shared research"]);
  assert.deepEqual(forAda.threads.map((thread) => thread.name), ["Research of Ada"]);
  const forAdmin = await search(admin.token);
  assert.deepEqual(forAdmin.workspaces.map((workspace) => workspace.name), [
    "Secret research",
    "Shared research",
  ]);
  assert.deepEqual(forAdmin.threads, [], "an admin's search lists the admin's own threads only");
  const anonymous = await app.json("/api/workspace/search", { json: { searchTerm: "research" } });
  assert.equal(anonymous.status, 401);
});
