import assert from "node:assert/strict";
import { generateSpecs } from "hono-openapi";
import { eq } from "drizzle-orm";
import { invites, users, workspaceChats } from "../../db/schema.ts";
import { addUser, bearer, login, multiUserInstance, type Session } from "../testing/accounts.ts";
import { makeApiKey, withKey } from "../testing/api_keys.ts";
import { createTestApp, type TestApp } from "../testing/test_app.ts";
import { developerApi } from "./routes.ts";

type Body = Record<string, unknown>;

/** A developer API call with a key; the body is sent as text/plain JSON, as the reference's clients do. */
function v1(app: TestApp, key: string, path: string, init: { method?: string; json?: unknown } = {}) {
  return app.json<Body>(`/api/v1${path}`, withKey(key, init as RequestInit & { json?: unknown }));
}

interface Instance {
  app: TestApp;
  admin: Session;
  full: string;
  read: string;
  limited: string;
  workspaces: { id: number; slug: string }[];
  [Symbol.asyncDispose](): Promise<void>;
}

/** A multi-user instance with an admin, two workspaces and a full, a read-only and a workspace-limited key. */
async function multiUser(env: Record<string, string> = {}): Promise<Instance> {
  const app = await createTestApp({ env });
  const admin = await multiUserInstance(app);
  const workspaces = [];
  for (const name of ["Alpha", "Beta"]) {
    const made = await app.json<{ workspace: { id: number; slug: string } }>("/api/workspace/new", {
      ...bearer(admin.token),
      json: { name },
    });
    workspaces.push({ id: made.body.workspace.id, slug: made.body.workspace.slug });
  }
  return {
    app,
    admin,
    workspaces,
    [Symbol.asyncDispose]: () => app.close(),
    full: (await makeApiKey(app, {}, admin.token)).key,
    read: (await makeApiKey(app, { scope: "read" }, admin.token)).key,
    limited: (await makeApiKey(
      app,
      { scope: "workspaces", workspaceIds: [workspaces[0].id], permissions: ["chat", "documents", "read"] },
      admin.token,
    )).key,
  };
}

Deno.test("v1 admin: is-multi-user-mode answers the mode to any key", async () => {
  await using app = await createTestApp();
  const single = (await makeApiKey(app)).key;
  assert.deepEqual((await v1(app, single, "/admin/is-multi-user-mode")).body, { isMultiUser: false });

  await using multi = await multiUser();
  for (const key of [multi.full, multi.read, multi.limited]) {
    const answer = await v1(multi.app, key, "/admin/is-multi-user-mode");
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body, { isMultiUser: true });
  }
});

Deno.test("v1 admin: on a single-user instance the multi-user calls are refused as the reference refuses them", async () => {
  await using app = await createTestApp({ env: { SIMPLE_SSO_ENABLED: "1" } });
  const key = (await makeApiKey(app)).key;
  const calls: [string, string, unknown?][] = [
    ["GET", "/admin/users"],
    ["POST", "/admin/users/new", { username: "sam", password: "password-1" }],
    ["POST", "/admin/users/1", { role: "default" }],
    ["DELETE", "/admin/users/1"],
    ["GET", "/admin/invites"],
    ["POST", "/admin/invite/new", {}],
    ["DELETE", "/admin/invite/1"],
    ["GET", "/admin/workspaces/1/users"],
    ["POST", "/admin/workspaces/1/update-users", { userIds: [] }],
    ["POST", "/admin/workspaces/alpha/manage-users", { userIds: [1] }],
    ["POST", "/admin/preferences", { text_splitter_chunk_size: 500 }],
  ];
  for (const [method, path, json] of calls) {
    const answer = await v1(app, key, path, { method, json });
    assert.equal(answer.status, 401, `${method} ${path}`);
    assert.equal(answer.body, "Unauthorized", `${method} ${path}`);
  }
  assert.equal(app.deps.settings.label("text_splitter_chunk_size"), undefined, "nothing changed");
  assert.equal((await app.deps.db.select().from(users)).length, 0, "no user made");

  const list = await v1(app, key, "/users");
  assert.equal(list.status, 401);
  assert.equal(list.body, "Instance is not in Multi-User mode. Permission denied.");

  const token = await v1(app, key, "/users/1/issue-auth-token");
  assert.equal(token.status, 403);
  assert.equal(token.body, "Multi-User mode is not enabled. It must be enabled to use Simple SSO.");

  const chats = await v1(app, key, "/admin/workspace-chats", { json: {} });
  assert.equal(chats.status, 200, "the chat list is answered in single-user mode too");
  assert.deepEqual(chats.body, { chats: [], hasPages: false });
});

Deno.test("v1 admin: users are listed without password hashes, to full and read-only keys", async () => {
  await using multi = await multiUser();
  await addUser(multi.app, multi.admin, "dora", "default");
  for (const key of [multi.full, multi.read]) {
    const answer = await v1(multi.app, key, "/admin/users");
    assert.equal(answer.status, 200);
    const listed = answer.body.users as Body[];
    assert.deepEqual(listed.map((user) => [user.username, user.role]), [["admin", "admin"], [
      "dora",
      "default",
    ]]);
    for (const user of listed) {
      assert.ok(!("password" in user) && !("tokenVersion" in user), JSON.stringify(user));
    }
    const summary = await v1(multi.app, key, "/users");
    assert.equal(summary.status, 200);
    assert.deepEqual(summary.body, {
      users: [
        { id: multi.admin.user.id, username: "admin", role: "admin" },
        { id: listed[1].id, username: "dora", role: "default" },
      ],
    });
  }
  const limited = await v1(multi.app, multi.limited, "/admin/users");
  assert.equal(limited.status, 403);
  assert.match(
    String(limited.body.error),
    /^This API key is limited to the workspaces "alpha", so it cannot/,
  );
});

Deno.test("v1 admin: POST /admin/users/new makes a user who can log in, and refuses bad bodies naming the field", async () => {
  await using multi = await multiUser();
  const { app, full } = multi;
  const made = await v1(app, full, "/admin/users/new", {
    json: { username: "sample-sam", password: "hunter2-long", role: "manager" },
  });
  assert.equal(made.status, 200);
  const user = made.body.user as Body;
  assert.equal(made.body.error, null);
  assert.equal(user.username, "sample-sam");
  assert.equal(user.role, "manager");
  assert.ok(!("password" in user));
  const [row] = await app.deps.db.select().from(users).where(eq(users.username, "sample-sam"));
  assert.notEqual(row.password, "hunter2-long", "the password is stored hashed");
  assert.equal((await login(app, "sample-sam", "hunter2-long")).user.role, "manager");

  const defaulted = await v1(app, full, "/admin/users/new", {
    json: { username: "plain", password: "password-1" },
  });
  assert.equal((defaulted.body.user as Body).role, "default");

  const refusals: [unknown, number, RegExp][] = [
    [{ password: "password-1" }, 400, /^username: /],
    [{ username: "Bad Name!", password: "password-1" }, 400, /^username: /],
    [{ username: "newbie", password: "x" }, 400, /^password: /],
    [{ username: "newbie", password: "password-1", role: "boss" }, 400, /^role: /],
    [{ username: "newbie", password: "password-1", dailyMessageLimit: 0 }, 400, /^dailyMessageLimit: /],
    ["not json", 400, /not valid JSON/],
    [{ username: "sample-sam", password: "password-1" }, 409, /./],
  ];
  for (const [json, status, error] of refusals) {
    const answer = await v1(app, full, "/admin/users/new", { json });
    assert.equal(answer.status, status, JSON.stringify(json));
    assert.equal(answer.body.user, null);
    assert.match(String(answer.body.error), error, JSON.stringify(json));
  }
  assert.equal((await app.deps.db.select().from(users)).length, 3, "admin, sample-sam and plain only");

  const byRead = await v1(app, multi.read, "/admin/users/new", {
    json: { username: "x1", password: "password-1" },
  });
  assert.equal(byRead.status, 403);
  assert.equal(byRead.body.error, "This API key is read-only, so it cannot make changes.");
});

Deno.test("v1 admin: POST /admin/users/:id updates a user; the last admin cannot be demoted, suspended or deleted", async () => {
  await using multi = await multiUser();
  const { app, full, admin } = multi;
  const dora = await addUser(app, admin, "dora", "default");

  const renamed = await v1(app, full, `/admin/users/${dora.user.id}`, {
    json: { username: "dora-2", password: "new-password-9", suspended: 0, ignored: "field" },
  });
  assert.equal(renamed.status, 200);
  assert.deepEqual(renamed.body, { success: true, error: null });
  await login(app, "dora-2", "new-password-9");
  assert.equal((await app.json("/api/workspaces", bearer(dora.token))).status, 401, "old session voided");

  const promoted = await v1(app, full, `/admin/users/${dora.user.id}`, { json: { role: "admin" } });
  assert.equal(promoted.status, 200);
  const [doraRow] = await app.deps.db.select().from(users).where(eq(users.id, dora.user.id));
  assert.equal(doraRow.role, "admin");

  // With two admins, one may be demoted; then the other is the last.
  assert.equal(
    (await v1(app, full, `/admin/users/${dora.user.id}`, { json: { role: "default" } })).status,
    200,
  );
  for (const json of [{ role: "default" }, { suspended: 1 }, { suspended: true }]) {
    const answer = await v1(app, full, `/admin/users/${admin.user.id}`, { json });
    assert.equal(answer.status, 400, JSON.stringify(json));
    assert.deepEqual(answer.body, {
      success: false,
      error: "No system admins will remain if you do this. Update failed.",
    });
  }
  const deleteLast = await v1(app, full, `/admin/users/${admin.user.id}`, { method: "DELETE" });
  assert.equal(deleteLast.status, 400);
  assert.equal(deleteLast.body.error, "No system admins will remain if you do this. Update failed.");

  const bad: [string, unknown, number, RegExp][] = [
    [`/admin/users/${dora.user.id}`, { role: "boss" }, 400, /^role: /],
    [`/admin/users/${dora.user.id}`, { password: "x" }, 400, /^password: /],
    [`/admin/users/${dora.user.id}`, { suspended: "yes" }, 400, /^suspended: /],
    [`/admin/users/${dora.user.id}`, { username: "admin" }, 409, /./],
    ["/admin/users/9999", { role: "default" }, 404, /^User not found\.$/],
    ["/admin/users/abc", { role: "default" }, 400, /"abc" is not a user id\./],
  ];
  for (const [path, json, status, error] of bad) {
    const answer = await v1(app, full, path, { json });
    assert.equal(answer.status, status, `${path} ${JSON.stringify(json)}`);
    assert.equal(answer.body.success, false);
    assert.match(String(answer.body.error), error);
  }
  assert.equal((await v1(app, multi.read, `/admin/users/${dora.user.id}`, { json: {} })).status, 403);
});

Deno.test("v1 admin: DELETE /admin/users/:id deletes a user; unknown ids are 404", async () => {
  await using multi = await multiUser();
  const { app, full, admin } = multi;
  const dora = await addUser(app, admin, "dora", "default");
  const deleted = await v1(app, full, `/admin/users/${dora.user.id}`, { method: "DELETE" });
  assert.equal(deleted.status, 200);
  assert.deepEqual(deleted.body, { success: true, error: null });
  assert.equal((await app.deps.db.select().from(users).where(eq(users.id, dora.user.id))).length, 0);
  assert.equal((await v1(app, full, `/admin/users/${dora.user.id}`, { method: "DELETE" })).status, 404);
  assert.equal((await v1(app, full, "/admin/users/x", { method: "DELETE" })).status, 400);
  assert.equal(
    (await v1(app, multi.read, `/admin/users/${admin.user.id}`, { method: "DELETE" })).status,
    403,
  );
});

Deno.test("v1 admin: invitations are made with workspaces, listed to full keys only, and disabled", async () => {
  await using multi = await multiUser();
  const { app, full, workspaces } = multi;
  const made = await v1(app, full, "/admin/invite/new", { json: { workspaceIds: [workspaces[0].id] } });
  assert.equal(made.status, 200);
  const invite = made.body.invite as Body;
  assert.equal(made.body.error, null);
  assert.equal(invite.status, "pending");
  assert.deepEqual(invite.workspaceIds, [workspaces[0].id]);
  assert.equal(invite.createdBy, null, "an API key has no user to be the creator");

  const bare = await app.json<Body>("/api/v1/admin/invite/new", withKey(full, { method: "POST" }));
  assert.equal(bare.status, 200, "the body is optional");
  assert.deepEqual((bare.body.invite as Body).workspaceIds, []);

  for (
    const [json, error] of [
      [{ workspaceIds: [9999] }, /^Cannot find the workspace 9999\.$/],
      [{ workspaceIds: "1" }, /^workspaceIds: /],
      [{ workspaceIds: [-1] }, /^workspaceIds\.0: /],
    ] as const
  ) {
    const answer = await v1(app, full, "/admin/invite/new", { json });
    assert.equal(answer.status, 400, JSON.stringify(json));
    assert.equal(answer.body.invite, null);
    assert.match(String(answer.body.error), error);
  }

  const listed = await v1(app, full, "/admin/invites");
  assert.equal(listed.status, 200);
  const newest = bare.body.invite as Body;
  assert.deepEqual((listed.body.invites as Body[]).map((row) => row.id), [newest.id, invite.id]);
  const byRead = await v1(app, multi.read, "/admin/invites");
  assert.equal(byRead.status, 403, "invite codes are secrets");
  assert.equal(
    byRead.body.error,
    "This API key is read-only, so it cannot do this: only a full-access key can.",
  );

  const disabled = await v1(app, full, `/admin/invite/${invite.id}`, { method: "DELETE" });
  assert.equal(disabled.status, 200);
  assert.deepEqual(disabled.body, { success: true, error: null });
  const [row] = await app.deps.db.select().from(invites).where(eq(invites.id, Number(invite.id)));
  assert.equal(row.status, "disabled");
  const lookup = await app.json(`/api/invite/${invite.code}`);
  assert.equal(lookup.status, 410, "the code no longer works");

  const unknown = await v1(app, full, "/admin/invite/9999", { method: "DELETE" });
  assert.equal(unknown.status, 404);
  assert.deepEqual(unknown.body, { success: false, error: "Invite not found." });
  assert.equal((await v1(app, full, "/admin/invite/abc", { method: "DELETE" })).status, 400);
  assert.equal((await v1(app, multi.read, "/admin/invite/new", { json: {} })).status, 403);
});

Deno.test("v1 admin: a workspace's members are listed and replaced by id", async () => {
  await using multi = await multiUser();
  const { app, full, admin, workspaces: [alpha] } = multi;
  const dora = await addUser(app, admin, "dora", "default");
  const eve = await addUser(app, admin, "eve", "default");

  const set = await v1(app, full, `/admin/workspaces/${alpha.id}/update-users`, {
    json: { userIds: [dora.user.id, eve.user.id] },
  });
  assert.equal(set.status, 200);
  assert.deepEqual(set.body, { success: true, error: null });
  const listed = await v1(app, multi.read, `/admin/workspaces/${alpha.id}/users`);
  assert.equal(listed.status, 200);
  assert.deepEqual((listed.body.users as Body[]).map((user) => [user.userId, user.username, user.role]), [
    [dora.user.id, "dora", "default"],
    [eve.user.id, "eve", "default"],
  ]);
  const seen = async () =>
    (await app.json<{ workspaces: { slug: string }[] }>("/api/workspaces", bearer(dora.token))).body
      .workspaces
      .map((workspace) => workspace.slug);
  assert.deepEqual(await seen(), [alpha.slug], "a member sees the workspace");

  const replaced = await v1(app, full, `/admin/workspaces/${alpha.id}/update-users`, {
    json: { userIds: [] },
  });
  assert.equal(replaced.status, 200);
  assert.deepEqual((await v1(app, full, `/admin/workspaces/${alpha.id}/users`)).body, { users: [] });
  assert.deepEqual(await seen(), [], "and no longer once removed");

  const refusals: [string, string, unknown, number, RegExp][] = [
    [
      "POST",
      `/admin/workspaces/${alpha.id}/update-users`,
      { userIds: [9999] },
      400,
      /^Cannot find the user 9999\.$/,
    ],
    ["POST", `/admin/workspaces/${alpha.id}/update-users`, { userIds: "all" }, 400, /^userIds: /],
    ["POST", `/admin/workspaces/${alpha.id}/update-users`, {}, 400, /^userIds: /],
    ["POST", "/admin/workspaces/9999/update-users", { userIds: [] }, 404, /^Workspace does not exist\.$/],
    ["GET", "/admin/workspaces/9999/users", undefined, 404, /^Workspace does not exist\.$/],
    ["GET", "/admin/workspaces/abc/users", undefined, 400, /is not a workspace id\./],
  ];
  for (const [method, path, json, status, error] of refusals) {
    const answer = await v1(app, full, path, { method, json });
    assert.equal(answer.status, status, `${method} ${path}`);
    assert.match(String(answer.body.error), error, `${method} ${path}`);
  }
  const byRead = await v1(app, multi.read, `/admin/workspaces/${alpha.id}/update-users`, {
    json: { userIds: [] },
  });
  assert.equal(byRead.status, 403);
});

Deno.test("v1 admin: manage-users adds members by slug, or replaces them with reset", async () => {
  await using multi = await multiUser();
  const { app, full, admin, workspaces: [alpha] } = multi;
  const dora = await addUser(app, admin, "dora", "default");
  const eve = await addUser(app, admin, "eve", "default");
  const path = `/admin/workspaces/${alpha.slug}/manage-users`;
  const names = (body: Body) => (body.users as Body[]).map((user) => user.username);

  const added = await v1(app, full, path, { json: { userIds: [dora.user.id, 9999] } });
  assert.equal(added.status, 200);
  assert.equal(added.body.success, true);
  assert.equal(added.body.error, null);
  assert.deepEqual(names(added.body), ["admin", "dora"], "unknown ids are skipped; the creator stays");

  const more = await v1(app, full, path, { json: { userIds: [String(eve.user.id)] } });
  assert.equal(more.status, 200, "ids may be numeric text, as the reference reads them");
  assert.deepEqual(names(more.body), ["admin", "dora", "eve"], "existing members stay");

  const reset = await v1(app, full, path, { json: { userIds: [eve.user.id], reset: true } });
  assert.equal(reset.status, 200);
  assert.deepEqual(names(reset.body), ["eve"]);

  const none = await v1(app, full, path, { json: { userIds: [9999] } });
  assert.equal(none.status, 404);
  assert.equal(none.body.success, false);
  assert.equal(none.body.error, "No valid user IDs provided.");
  assert.deepEqual(names(none.body), ["eve"], "the members, unchanged");

  const unknown = await v1(app, full, "/admin/workspaces/nowhere/manage-users", {
    json: { userIds: [eve.user.id] },
  });
  assert.equal(unknown.status, 404);
  assert.deepEqual(unknown.body, { success: false, error: "Workspace nowhere not found.", users: [] });

  for (
    const [json, error] of [
      [{}, /^userIds: /],
      [{ userIds: ["one"] }, /^userIds\.0: must be a whole number\.$/],
      [{ userIds: [1], reset: "yes" }, /^reset: /],
    ] as const
  ) {
    const answer = await v1(app, full, path, { json });
    assert.equal(answer.status, 400, JSON.stringify(json));
    assert.equal(answer.body.success, false);
    assert.match(String(answer.body.error), error);
  }
  const byRead = await v1(app, multi.read, path, { json: { userIds: [dora.user.id] } });
  assert.equal(byRead.status, 403);
  const byLimited = await v1(app, multi.limited, path, { json: { userIds: [dora.user.id] } });
  assert.equal(byLimited.status, 403, "a workspace-limited key cannot manage members, even of its workspace");
});

Deno.test("v1 admin: workspace-chats pages every chat, the newest first, 20 a page", async () => {
  await using multi = await multiUser();
  const { app, full, admin, workspaces: [alpha, beta] } = multi;
  const response = (text: string) => JSON.stringify({ text, sources: [], type: "chat", attachments: [] });
  const rows = Array.from({ length: 25 }, (_, index) => ({
    workspaceId: index % 2 === 0 ? alpha.id : beta.id,
    prompt: `question ${index}`,
    response: response(`answer ${index}`),
    userId: index === 24 ? null : admin.user.id,
    apiSessionId: index === 24 ? "session-1" : null,
    include: index !== 23,
  }));
  await app.deps.db.insert(workspaceChats).values(rows);

  const first = await v1(app, multi.read, "/admin/workspace-chats", { json: {} });
  assert.equal(first.status, 200);
  const chats = first.body.chats as Body[];
  assert.equal(chats.length, 20);
  assert.equal(first.body.hasPages, true);
  assert.deepEqual(chats.slice(0, 3).map((chat) => chat.prompt), [
    "question 24",
    "question 23",
    "question 22",
  ]);
  assert.deepEqual(chats[0].user, { username: "API" });
  assert.deepEqual(chats[0].workspace, { name: "Alpha", slug: alpha.slug });
  assert.equal(chats[1].include, false, "hidden chats are listed too");
  assert.deepEqual(chats[1].user, { username: "admin" });
  assert.deepEqual(chats[1].workspace, { name: "Beta", slug: beta.slug });
  assert.equal(chats[0].api_session_id, "session-1");
  assert.equal(chats[1].user_id, admin.user.id);
  assert.equal(JSON.parse(String(chats[2].response)).text, "answer 22");

  const second = await v1(app, full, "/admin/workspace-chats", { json: { offset: 1 } });
  assert.deepEqual((second.body.chats as Body[]).map((chat) => chat.prompt), [
    "question 4",
    "question 3",
    "question 2",
    "question 1",
    "question 0",
  ]);
  assert.equal(second.body.hasPages, false);
  const bare = await app.json<Body>("/api/v1/admin/workspace-chats", withKey(full, { method: "POST" }));
  assert.equal((bare.body.chats as Body[]).length, 20, "no body is the first page");

  for (const offset of [-1, 1.5, "2"]) {
    const answer = await v1(app, full, "/admin/workspace-chats", { json: { offset } });
    assert.equal(answer.status, 400, JSON.stringify(offset));
    assert.match(String(answer.body.error), /^offset: /);
  }
  const limited = await v1(app, multi.limited, "/admin/workspace-chats", { json: {} });
  assert.equal(limited.status, 403, "a workspace-limited key cannot read every workspace's chats");
});

Deno.test("v1 admin: preferences take the UI's labels and rules and refuse any other label", async () => {
  await using multi = await multiUser();
  const { app, full } = multi;
  const saved = await v1(app, full, "/admin/preferences", {
    json: { text_splitter_chunk_size: 600, text_splitter_chunk_overlap: 50 },
  });
  assert.equal(saved.status, 200);
  assert.deepEqual(saved.body, { success: true, error: null });
  assert.equal(app.deps.settings.label("text_splitter_chunk_size"), "600");
  assert.equal(app.deps.settings.label("text_splitter_chunk_overlap"), "50");

  // The appearance labels follow the same rules as the UI's (shared/api/appearance.ts).
  const email = await v1(app, full, "/admin/preferences", { json: { support_email: "help@example.com" } });
  assert.equal(email.status, 200);
  assert.equal(app.deps.settings.label("support_email"), "help@example.com");
  const badLink = await v1(app, full, "/admin/preferences", {
    json: { footer_data: JSON.stringify([{ icon: "Globe", url: "javascript:alert(1)" }]) },
  });
  assert.equal(badLink.status, 400);
  assert.match(String(badLink.body.error), /http:\/\/ or https:\/\//);

  const unknown = await v1(app, full, "/admin/preferences", { json: { agent_search_provider: "serpapi" } });
  assert.equal(unknown.status, 400);
  assert.equal(unknown.body.success, false);
  assert.match(String(unknown.body.error), /agent_search_provider/);

  const overlap = await v1(app, full, "/admin/preferences", { json: { text_splitter_chunk_overlap: 600 } });
  assert.equal(overlap.status, 400, "the overlap must stay below the size");
  const wrongType = await v1(app, full, "/admin/preferences", { json: { text_splitter_chunk_size: "big" } });
  assert.equal(wrongType.status, 400);
  assert.match(String(wrongType.body.error), /^text_splitter_chunk_size: /);
  assert.equal(app.deps.settings.label("text_splitter_chunk_size"), "600", "refusals change nothing");
  assert.equal(app.deps.settings.label("text_splitter_chunk_overlap"), "50");

  const byRead = await v1(app, multi.read, "/admin/preferences", { json: { text_splitter_chunk_size: 500 } });
  assert.equal(byRead.status, 403);
});

Deno.test("v1 users: issue-auth-token gives a single-use sign-in link, to full keys only", async () => {
  await using multi = await multiUser({ SIMPLE_SSO_ENABLED: "1" });
  const { app, full, admin } = multi;
  const dora = await addUser(app, admin, "dora", "default");
  const issued = await v1(app, full, `/users/${dora.user.id}/issue-auth-token`);
  assert.equal(issued.status, 200);
  const token = String(issued.body.token);
  assert.equal(issued.body.loginPath, `/sso/simple?token=${encodeURIComponent(token)}`);
  const redeemed = await app.json<{ user: { username: string } }>(
    `/api/request-token/sso/simple?token=${encodeURIComponent(token)}`,
  );
  assert.equal(redeemed.status, 200);
  assert.equal(redeemed.body.user.username, "dora");

  const unknown = await v1(app, full, "/users/9999/issue-auth-token");
  assert.equal(unknown.status, 404);
  assert.deepEqual(unknown.body, { error: "User not found" });
  const badId = await v1(app, full, "/users/abc/issue-auth-token");
  assert.equal(badId.status, 400);
  assert.deepEqual(badId.body, { error: '"abc" is not a user id.' });
  for (const key of [multi.read, multi.limited]) {
    const refused = await v1(app, key, `/users/${dora.user.id}/issue-auth-token`);
    assert.equal(refused.status, 403);
    assert.match(String(refused.body.error), /^This API key /);
  }
});

Deno.test("v1 users: issue-auth-token is refused with the reference's text when simple SSO is off", async () => {
  await using multi = await multiUser();
  const answer = await v1(multi.app, multi.full, `/users/${multi.admin.user.id}/issue-auth-token`);
  assert.equal(answer.status, 403);
  assert.equal(
    answer.body,
    "Simple SSO is not enabled. It must be enabled to validate or issue temporary auth tokens.",
  );
});

Deno.test("v1 admin: the OpenAPI document describes every admin and user call with its body and answer", async () => {
  await using app = await createTestApp();
  const specs = await generateSpecs(developerApi(app.deps).app);
  const paths = specs.paths ?? {};
  const wanted: [string, "get" | "post" | "delete", boolean][] = [
    ["/admin/is-multi-user-mode", "get", false],
    ["/admin/users", "get", false],
    ["/admin/users/new", "post", true],
    ["/admin/users/{id}", "post", true],
    ["/admin/users/{id}", "delete", false],
    ["/admin/invites", "get", false],
    ["/admin/invite/new", "post", true],
    ["/admin/invite/{id}", "delete", false],
    ["/admin/workspaces/{id}/users", "get", false],
    ["/admin/workspaces/{id}/update-users", "post", true],
    ["/admin/workspaces/{workspaceSlug}/manage-users", "post", true],
    ["/admin/workspace-chats", "post", true],
    ["/admin/preferences", "post", true],
    ["/users", "get", false],
    ["/users/{id}/issue-auth-token", "get", false],
  ];
  for (const [path, method, hasBody] of wanted) {
    const operation = paths[path]?.[method];
    assert.ok(operation, `${method} ${path} is documented`);
    assert.ok(operation.summary, `${method} ${path} has a summary`);
    assert.equal(Boolean(operation.requestBody), hasBody, `${method} ${path} body`);
    const ok = operation.responses?.["200"] as { content?: unknown } | undefined;
    assert.ok(ok?.content, `${method} ${path} describes its answer`);
  }
});
