import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { users } from "../../db/schema.ts";
import { User } from "../../shared/api/auth.ts";
import { UserList } from "../../shared/api/admin.ts";
import { createTestApp } from "../testing/test_app.ts";
import { addUser, bearer, login, multiUserInstance } from "../testing/accounts.ts";

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]);

Deno.test("admin calls answer 403 in single-user mode", async () => {
  await using app = await createTestApp();
  const answer = await app.json("/api/admin/users");
  assert.equal(answer.status, 403);
  assert.equal(answer.body.error, "Multi-user mode is not enabled.");
});

Deno.test("a default user is refused every manager and admin call", async () => {
  await using app = await createTestApp();
  const admin = await multiUserInstance(app);
  const member = await addUser(app, admin, "member", "default");
  const calls: [string, string, unknown?][] = [
    ["GET", "/api/admin/users"],
    ["POST", "/api/admin/users/new", { username: "sneaky", password: "sneaky-password", role: "admin" }],
    ["POST", `/api/admin/user/${admin.user.id}`, { role: "default" }],
    ["DELETE", `/api/admin/user/${admin.user.id}`],
    ["GET", "/api/admin/invites"],
    ["POST", "/api/admin/invite/new", { workspaceIds: [] }],
    ["POST", "/api/system/update-env", { LLMProvider: "generic-openai" }],
    ["POST", "/api/system/update-password", { usePassword: true, newPassword: "password-123" }],
    ["POST", "/api/system/enable-multi-user", { username: "x", password: "y" }],
    ["POST", "/api/workspace/new", { name: "Mine" }],
  ];
  for (const [method, path, body] of calls) {
    const answer = await app.json(path, { ...bearer(member.token), method, json: body });
    assert.equal(answer.status, 403, `${method} ${path}`);
  }
  const rows = await app.deps.db.select().from(users);
  assert.equal(rows.length, 2, "nothing was created");
  assert.equal(rows.find((row) => row.id === admin.user.id)?.role, "admin");
});

Deno.test("managers act on managers and default users only, never on admins, and create no accounts", async () => {
  await using app = await createTestApp();
  const admin = await multiUserInstance(app);
  const manager = await addUser(app, admin, "boss", "manager");
  const asManager = (path: string, init: RequestInit & { json?: unknown } = {}) =>
    app.json(path, { ...bearer(manager.token), ...init });

  const list = await asManager("/api/admin/users");
  assert.equal(UserList.parse(list.body).users.length, 2);
  assert.ok(!JSON.stringify(list.body).includes("argon2"), "no password hash leaves the server");
  for (const role of ["admin", "default"]) {
    const byManager = await asManager("/api/admin/users/new", {
      json: { username: `new-${role}`, password: "second-password", role },
    });
    assert.equal(byManager.status, 403, "only an admin creates users");
    assert.deepEqual(byManager.body, { user: null, error: "You do not have permission to do that." });
  }
  const created = await app.json("/api/admin/users/new", {
    ...bearer(admin.token),
    json: { username: "worker", password: "worker-password", role: "default" },
  });
  assert.equal(created.status, 200);
  const worker = User.parse(created.body.user);

  const onAdmin = await asManager(`/api/admin/user/${admin.user.id}`, { json: { suspended: true } });
  assert.equal(onAdmin.status, 403);
  assert.equal(onAdmin.body.error, "Cannot perform that action on user.");
  assert.equal((await asManager(`/api/admin/user/${admin.user.id}`, { method: "DELETE" })).status, 403);
  const promote = await asManager(`/api/admin/user/${worker.id}`, { json: { role: "admin" } });
  assert.equal(promote.body.error, "Invalid role selection for user.");
  const resetByManager = await asManager(`/api/admin/user/${worker.id}`, {
    json: { password: "changed-password" },
  });
  assert.equal(resetByManager.status, 403);
  assert.equal(resetByManager.body.error, "Only an admin can reset passwords.");
  assert.equal((await asManager(`/api/admin/user/${worker.id}`, { json: { role: "manager" } })).status, 200);
  assert.equal((await asManager(`/api/admin/user/${worker.id}`, { method: "DELETE" })).status, 200);

  const resetByAdmin = await app.json(`/api/admin/user/${manager.user.id}`, {
    ...bearer(admin.token),
    json: { password: "boss-new-password" },
  });
  assert.equal(resetByAdmin.status, 200);
  await login(app, "boss", "boss-new-password");
});

Deno.test("the last admin cannot be demoted, suspended or deleted, and nobody deletes or suspends themselves", async () => {
  await using app = await createTestApp();
  const admin = await multiUserInstance(app);
  const asAdmin = (path: string, init: RequestInit & { json?: unknown } = {}) =>
    app.json(path, { ...bearer(admin.token), ...init });
  const demote = await asAdmin(`/api/admin/user/${admin.user.id}`, { json: { role: "manager" } });
  assert.equal(demote.status, 400);
  assert.equal(demote.body.error, "No system admins will remain if you do this. Update failed.");
  assert.equal(
    (await asAdmin(`/api/admin/user/${admin.user.id}`, { json: { suspended: true } })).body.error,
    "You cannot suspend yourself.",
  );
  assert.equal(
    (await asAdmin(`/api/admin/user/${admin.user.id}`, { method: "DELETE" })).body.error,
    "You cannot delete yourself.",
  );
  const second = await addUser(app, admin, "second", "admin");
  const demoteFirst = await app.json(`/api/admin/user/${admin.user.id}`, {
    ...bearer(second.token),
    json: { role: "manager" },
  });
  assert.equal(demoteFirst.status, 200, "with another admin left it works");
  const demoteLast = await app.json(`/api/admin/user/${second.user.id}`, {
    ...bearer(second.token),
    json: { role: "default" },
  });
  assert.equal(demoteLast.body.error, "No system admins will remain if you do this. Update failed.");
  assert.equal(
    (await asAdmin(`/api/admin/user/999`, { json: { bio: "x" } })).status,
    401,
    "the demoted admin's token is void",
  );
});

Deno.test("user input is validated, and usernames are unique", async () => {
  await using app = await createTestApp();
  const admin = await multiUserInstance(app);
  const create = (body: unknown) => app.json("/api/admin/users/new", { ...bearer(admin.token), json: body });
  assert.equal(
    (await create({ username: "a", password: "long-enough" })).body.error,
    "Username must be at least 2 characters.",
  );
  assert.equal(
    (await create({ username: "Has Space", password: "long-enough" })).body.error,
    "Username can only contain lowercase letters, numbers, underscores and hyphens.",
  );
  assert.equal(
    (await create({ username: "okname", password: "short" })).body.error,
    "Password must be at least 8 characters.",
  );
  assert.equal((await create({ username: "admin", password: "long-enough" })).status, 409);
  assert.equal((await create({ username: "okname", password: "long-enough", role: "owner" })).status, 400);
  const badId = await app.json("/api/admin/user/abc", { ...bearer(admin.token), json: { bio: "x" } });
  assert.equal(badId.status, 400);
});

Deno.test("POST /api/system/user changes only the caller's own allowed fields", async () => {
  await using app = await createTestApp();
  const admin = await multiUserInstance(app);
  const member = await addUser(app, admin, "member", "default");
  const smuggled = await app.json("/api/system/user", {
    ...bearer(member.token),
    json: { role: "admin", id: admin.user.id, suspended: 0, username: "renamed" },
  });
  assert.equal(smuggled.status, 200);
  const [row] = await app.deps.db.select().from(users).where(eq(users.id, member.user.id));
  assert.equal(row.role, "default", "a role in the body is ignored");
  assert.equal(row.username, "renamed");
  const [adminRow] = await app.deps.db.select().from(users).where(eq(users.id, admin.user.id));
  assert.equal(adminRow.username, "admin", "another user's id in the body is ignored");
  const nothing = await app.json("/api/system/user", { ...bearer(member.token), json: { role: "admin" } });
  assert.equal(nothing.status, 400);
  assert.equal(nothing.body.error, "No updates provided");
  const taken = await app.json("/api/system/user", { ...bearer(member.token), json: { username: "admin" } });
  assert.equal(taken.status, 409);

  const changed = await app.json<{ token: string }>("/api/system/user", {
    ...bearer(member.token),
    json: { password: "a-new-password", preferredLanguage: "en" },
  });
  assert.equal(changed.status, 200);
  assert.equal((await app.json("/api/workspaces", bearer(member.token))).status, 401, "older sessions end");
  assert.equal(
    (await app.json("/api/workspaces", bearer(changed.body.token))).status,
    200,
    "this one goes on",
  );
  await login(app, "renamed", "a-new-password");
  const badLanguage = await app.json("/api/system/user", {
    ...bearer(changed.body.token),
    json: { preferredLanguage: "xx" },
  });
  assert.equal(badLanguage.status, 400);
  const portuguese = await app.json<{ success: boolean }>("/api/system/user", {
    ...bearer(changed.body.token),
    json: { preferredLanguage: "pt-BR" },
  });
  assert.deepEqual(
    [portuguese.status, portuguese.body.success],
    [200, true],
    "every interface language is one",
  );
  const [saved] = await app.deps.db.select().from(users).where(eq(users.username, "renamed"));
  assert.equal(saved.preferredLanguage, "pt-BR");
});

Deno.test("profile pictures: upload, read only by the owner, remove; non-images refused", async () => {
  await using app = await createTestApp();
  const admin = await multiUserInstance(app);
  const member = await addUser(app, admin, "member", "default");
  const upload = (bytes: Uint8Array<ArrayBuffer>, name: string) => {
    const form = new FormData();
    form.append("file", new File([bytes], name));
    return app.json("/api/system/upload-pfp", { ...bearer(member.token), method: "POST", body: form });
  };
  const svg = await upload(new TextEncoder().encode('<svg onload="alert(1)"/>'), "x.png");
  assert.equal(svg.status, 400);
  assert.equal(svg.body.error, "The file is not a PNG, JPEG, GIF or WebP image.");
  assert.equal((await upload(PNG, "me.png")).status, 200);
  const own = await app.request(`/api/system/pfp/${member.user.id}`, bearer(member.token));
  assert.equal(own.status, 200);
  assert.equal(own.headers.get("content-type"), "image/png");
  assert.deepEqual(new Uint8Array(await own.arrayBuffer()), PNG);
  const others = await app.request(`/api/system/pfp/${member.user.id}`, bearer(admin.token));
  assert.equal(others.status, 204);
  const [row] = await app.deps.db.select().from(users).where(eq(users.id, member.user.id));
  assert.match(row.pfpFilename ?? "", /^[0-9a-f-]{36}\.png$/, "stored under a generated name");
  const removed = await app.json("/api/system/remove-pfp", { ...bearer(member.token), method: "DELETE" });
  assert.equal(removed.status, 200);
  assert.equal((await app.request(`/api/system/pfp/${member.user.id}`, bearer(member.token))).status, 204);
  const pictures = [...Deno.readDirSync(`${app.storageDir}/assets/pfp`)];
  assert.equal(pictures.length, 0, "the file is removed too");
  const big = new Uint8Array(5 * 1024 * 1024 + 10);
  big.set(PNG);
  assert.equal((await upload(big, "big.png")).status, 413);
});

Deno.test("a user's daily message limit ends further chats with the reference's message", async () => {
  const { startFakeOpenAi } = await import("../testing/fake_openai.ts");
  const { genericOpenAiSettings, readFrames } = await import("../testing/test_app.ts");
  await using llm = startFakeOpenAi();
  await using app = await createTestApp();
  await app.json("/api/system/update-env", { json: genericOpenAiSettings(llm.baseURL) });
  const admin = await multiUserInstance(app);
  const member = await addUser(app, admin, "member", "default");
  const workspace = await app.json<{ workspace: { id: number } }>("/api/workspace/new", {
    ...bearer(admin.token),
    json: { name: "Quota" },
  });
  await app.json(`/api/admin/workspaces/${workspace.body.workspace.id}/update-users`, {
    ...bearer(admin.token),
    json: { userIds: [member.user.id] },
  });
  await app.json(`/api/admin/user/${member.user.id}`, {
    ...bearer(admin.token),
    json: { dailyMessageLimit: 1 },
  });
  const session = await login(app, "member", "member-password");
  const chat = () =>
    app.request("/api/workspace/quota/stream-chat", {
      method: "POST",
      ...bearer(session.token),
      body: '{"message":"hi"}',
    });
  assert.equal((await readFrames(await chat())).at(-1)?.type, "finalizeResponseStream");
  const refused = await readFrames(await chat());
  assert.equal(refused.length, 1);
  assert.equal(refused[0].error, "You have met your maximum 24 hour chat quota of 1 chats. Try again later.");
  const byAdmin = await app.request("/api/workspace/quota/stream-chat", {
    method: "POST",
    ...bearer(admin.token),
    body: '{"message":"hi"}',
  });
  assert.equal((await readFrames(byAdmin)).at(-1)?.type, "finalizeResponseStream", "admins have no limit");
});

Deno.test("an id in a path is decimal digits: 0x1, 1e0, +1 or 1.0 name no object instead of object 1", async () => {
  await using app = await createTestApp();
  const admin = await multiUserInstance(app);
  const made = await app.json<{ workspace: { id: number } }>("/api/admin/workspaces/new", {
    ...bearer(admin.token),
    json: { name: "Harbour" },
  });
  assert.equal(made.status, 200);
  const id = made.body.workspace.id;
  for (const odd of ["0x1", "1e0", "+1", "1.0", "%201", "01", "9007199254740993"]) {
    const value = odd.replace(/1$/, String(id)).replace(/^0x1$/, `0x${id.toString(16)}`);
    const deleted = await app.json(`/api/admin/workspaces/${value}`, {
      ...bearer(admin.token),
      method: "DELETE",
    });
    assert.equal(deleted.status, 400, value);
    assert.match(String(deleted.body.error), /is not a workspace id\.$/, value);
    const renamed = await app.json(`/api/admin/user/${value}`, {
      ...bearer(admin.token),
      json: { bio: "Changed" },
    });
    assert.equal(renamed.status, 400, value);
  }
  const still = await app.json<{ workspaces: { id: number }[] }>(
    "/api/admin/workspaces",
    bearer(admin.token),
  );
  assert.deepEqual(still.body.workspaces.map((row) => row.id), [id]);
  const me = await app.json<{ users: { id: number; bio: string }[] }>(
    "/api/admin/users",
    bearer(admin.token),
  );
  assert.equal(me.body.users.find((user) => user.id === admin.user.id)?.bio, "");
});
