import assert from "node:assert/strict";
import { Invite, InviteLookup } from "../../shared/api/admin.ts";
import { createTestApp } from "../testing/test_app.ts";
import { addUser, bearer, login, multiUserInstance } from "../testing/accounts.ts";

Deno.test("invites: create with workspaces, accept once, join the workspaces as a default user", async () => {
  await using app = await createTestApp();
  const admin = await multiUserInstance(app);
  const workspace = await app.json<{ workspace: { id: number; slug: string } }>("/api/workspace/new", {
    ...bearer(admin.token),
    json: { name: "Team" },
  });
  await app.json("/api/workspace/new", { ...bearer(admin.token), json: { name: "Private" } });
  const created = await app.json<{ invite: unknown }>("/api/admin/invite/new", {
    ...bearer(admin.token),
    json: { workspaceIds: [workspace.body.workspace.id] },
  });
  const invite = Invite.parse(created.body.invite);
  assert.equal(invite.status, "pending");
  const lookup = await app.json(`/api/invite/${invite.code}`);
  assert.deepEqual(InviteLookup.parse(lookup.body), {
    invite: { code: invite.code, status: "pending" },
    error: null,
  });

  const bad = await app.json(`/api/invite/${invite.code}`, {
    json: { username: "X", password: "newcomer-password" },
  });
  assert.equal(bad.status, 400);
  const accepted = await app.json(`/api/invite/${invite.code}`, {
    json: { username: "newcomer", password: "newcomer-password", role: "admin" },
  });
  assert.equal(accepted.status, 200);
  const newcomer = await login(app, "newcomer", "newcomer-password");
  assert.equal(newcomer.user.role, "default", "a role in the body is ignored");
  const visible = await app.json<{ workspaces: { slug: string }[] }>(
    "/api/workspaces",
    bearer(newcomer.token),
  );
  assert.deepEqual(visible.body.workspaces.map((entry) => entry.slug), ["team"]);
  assert.equal((await app.json("/api/workspace/private", bearer(newcomer.token))).status, 404);

  const used = await app.json(`/api/invite/${invite.code}`);
  assert.equal(used.status, 410);
  assert.equal(used.body.error, "Invite is no longer valid.");
  const twice = await app.json(`/api/invite/${invite.code}`, {
    json: { username: "second", password: "second-password" },
  });
  assert.equal(twice.status, 410);
  const unknown = await app.json("/api/invite/not-a-code");
  assert.equal(unknown.status, 404);
  assert.deepEqual(unknown.body, { invite: null, error: "Invite not found." });

  const another = await app.json<{ invite: { id: number; code: string } }>("/api/admin/invite/new", {
    ...bearer(admin.token),
    json: {},
  });
  await app.json(`/api/admin/invite/${another.body.invite.id}`, { ...bearer(admin.token), method: "DELETE" });
  assert.equal((await app.json(`/api/invite/${another.body.invite.code}`)).status, 410);
  const list = await app.json<{ invites: { status: string }[] }>("/api/admin/invites", bearer(admin.token));
  assert.deepEqual(list.body.invites.map((entry) => entry.status).sort(), ["claimed", "disabled"]);
  const unknownWorkspace = await app.json("/api/admin/invite/new", {
    ...bearer(admin.token),
    json: { workspaceIds: [999] },
  });
  assert.equal(unknownWorkspace.status, 400);
  assert.equal(unknownWorkspace.body.error, "Cannot find the workspace 999.");
});

Deno.test("workspace members: default users see and chat only where they are members", async () => {
  await using app = await createTestApp();
  const admin = await multiUserInstance(app);
  const manager = await addUser(app, admin, "boss", "manager");
  const member = await addUser(app, admin, "member", "default");
  const created = await app.json<{ workspace: { id: number } }>("/api/workspace/new", {
    ...bearer(manager.token),
    json: { name: "Ops" },
  });
  const id = created.body.workspace.id;
  const members = await app.json<{ users: { username: string }[] }>(
    `/api/admin/workspaces/${id}/users`,
    bearer(admin.token),
  );
  assert.deepEqual(members.body.users.map((entry) => entry.username), ["boss"], "the creator is a member");
  assert.deepEqual(
    (await app.json<{ workspaces: unknown[] }>("/api/workspaces", bearer(member.token))).body.workspaces,
    [],
  );
  for (const path of ["/api/workspace/ops", "/api/workspace/ops/chats", "/api/workspace/ops/threads"]) {
    assert.equal((await app.json(path, bearer(member.token))).status, 404, path);
  }

  const update = await app.json(`/api/admin/workspaces/${id}/update-users`, {
    ...bearer(manager.token),
    json: { userIds: [member.user.id, manager.user.id] },
  });
  assert.equal(update.status, 200);
  assert.equal((await app.json("/api/workspace/ops", bearer(member.token))).status, 200);
  const upload = new FormData();
  upload.append("file", new File(["hello"], "a.txt"));
  const refused = await app.json("/api/workspace/ops/upload", {
    ...bearer(member.token),
    method: "POST",
    body: upload,
  });
  assert.equal(refused.status, 403, "members chat; they do not manage documents");
  const unknownUser = await app.json(`/api/admin/workspaces/${id}/update-users`, {
    ...bearer(admin.token),
    json: { userIds: [12345] },
  });
  assert.equal(unknownUser.status, 400);
  assert.equal((await app.json(`/api/admin/workspaces/999/users`, bearer(admin.token))).status, 404);
});
