import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { workspaces } from "../../db/schema.ts";
import { Workspace } from "../../shared/api/workspaces.ts";
import { createTestApp } from "../testing/test_app.ts";
import { addUser, bearer, multiUserInstance } from "../testing/accounts.ts";

Deno.test("GET /api/admin/workspaces lists every workspace with the ids of its members", async () => {
  await using app = await createTestApp();
  const admin = await multiUserInstance(app);
  const dora = await addUser(app, admin, "dora", "default");
  const eve = await addUser(app, admin, "eve", "default");
  const atlas = await app.json<{ workspace: { id: number } }>("/api/admin/workspaces/new", {
    ...bearer(admin.token),
    json: { name: "Atlas" },
  });
  const beacon = await app.json<{ workspace: { id: number } }>("/api/workspace/new", {
    ...bearer(admin.token),
    json: { name: "Beacon" },
  });
  await app.json(`/api/admin/workspaces/${atlas.body.workspace.id}/update-users`, {
    ...bearer(admin.token),
    json: { userIds: [eve.user.id, dora.user.id] },
  });

  const answer = await app.json<{ workspaces: (Workspace & { userIds: number[] })[] }>(
    "/api/admin/workspaces",
    bearer(admin.token),
  );
  assert.equal(answer.status, 200);
  assert.deepEqual(
    answer.body.workspaces.map((workspace) => [workspace.name, workspace.userIds]),
    [["Atlas", [dora.user.id, eve.user.id].sort((a, b) => a - b)], ["Beacon", [admin.user.id]]],
  );
  for (const workspace of answer.body.workspaces) {
    Workspace.parse(workspace);
    assert.ok(!Number.isNaN(Date.parse(workspace.createdAt)));
  }
  assert.equal(answer.body.workspaces[1].id, beacon.body.workspace.id);
});

Deno.test("POST /api/admin/workspaces/new creates a workspace and answers {workspace, error}", async () => {
  await using app = await createTestApp();
  const admin = await multiUserInstance(app);
  const manager = await addUser(app, admin, "mia", "manager");
  const created = await app.json<{ workspace: Workspace; error: unknown }>("/api/admin/workspaces/new", {
    ...bearer(manager.token),
    json: { name: "Team notes" },
  });
  assert.equal(created.status, 200);
  assert.equal(created.body.error, null);
  Workspace.parse(created.body.workspace);
  assert.equal(created.body.workspace.slug, "team-notes");
  const [row] = await app.deps.db.select().from(workspaces).where(eq(workspaces.slug, "team-notes"));
  assert.equal(row.name, "Team notes");

  for (
    const [json, error] of [[{}, "name cannot be null"], [{ name: "  " }, "name cannot be null"]] as const
  ) {
    const refused = await app.json("/api/admin/workspaces/new", { ...bearer(admin.token), json });
    assert.equal(refused.status, 400);
    assert.deepEqual(refused.body, { workspace: null, error });
  }
});

Deno.test("DELETE /api/admin/workspaces/:id removes the workspace; unknown and bad ids are refused", async () => {
  await using app = await createTestApp();
  const admin = await multiUserInstance(app);
  const created = await app.json<{ workspace: { id: number; slug: string } }>("/api/admin/workspaces/new", {
    ...bearer(admin.token),
    json: { name: "Atlas" },
  });
  const id = created.body.workspace.id;
  const deleted = await app.json(`/api/admin/workspaces/${id}`, { ...bearer(admin.token), method: "DELETE" });
  assert.equal(deleted.status, 200);
  assert.deepEqual(deleted.body, { success: true, error: null });
  assert.equal((await app.deps.db.select().from(workspaces)).length, 0);
  assert.equal(
    (await app.json(`/api/workspace/${created.body.workspace.slug}`, bearer(admin.token))).status,
    404,
  );

  const again = await app.json(`/api/admin/workspaces/${id}`, { ...bearer(admin.token), method: "DELETE" });
  assert.equal(again.status, 404);
  assert.deepEqual(again.body, { success: false, error: "Workspace does not exist." });
  const bad = await app.json("/api/admin/workspaces/abc", { ...bearer(admin.token), method: "DELETE" });
  assert.equal(bad.status, 400);
  assert.deepEqual(bad.body, { success: false, error: '"abc" is not a workspace id.' });
});

Deno.test("admin workspace calls: multi-user mode only, admins and managers only", async () => {
  await using single = await createTestApp();
  const multiOnly = { success: false, error: "Multi-user mode is not enabled." };
  for (
    const [path, init] of [
      ["/api/admin/workspaces", {}],
      ["/api/admin/workspaces/new", { method: "POST", body: JSON.stringify({ name: "Atlas" }) }],
      ["/api/admin/workspaces/1", { method: "DELETE" }],
    ] as const
  ) {
    const answer = await single.json(path, init);
    assert.equal(answer.status, 403, path);
    assert.deepEqual(answer.body, multiOnly, path);
  }
  assert.equal((await single.deps.db.select().from(workspaces)).length, 0);

  await using app = await createTestApp();
  const admin = await multiUserInstance(app);
  const member = await addUser(app, admin, "dora", "default");
  const created = await app.json<{ workspace: { id: number } }>("/api/admin/workspaces/new", {
    ...bearer(admin.token),
    json: { name: "Atlas" },
  });
  const refused = { success: false, error: "You do not have permission to do that." };
  const list = await app.json("/api/admin/workspaces", bearer(member.token));
  assert.equal(list.status, 403);
  assert.deepEqual(list.body, refused);
  const create = await app.json("/api/admin/workspaces/new", {
    ...bearer(member.token),
    json: { name: "Mine" },
  });
  assert.equal(create.status, 403);
  const remove = await app.json(`/api/admin/workspaces/${created.body.workspace.id}`, {
    ...bearer(member.token),
    method: "DELETE",
  });
  assert.equal(remove.status, 403);
  assert.deepEqual(remove.body, refused);
  assert.equal((await app.deps.db.select().from(workspaces)).length, 1, "nothing created or deleted");
  assert.equal((await app.json("/api/admin/workspaces")).status, 401);
});
