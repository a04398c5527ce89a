import assert from "node:assert/strict";
import { createTestApp, type TestApp } from "../testing/test_app.ts";
import { addUser, bearer, multiUserInstance } from "../testing/accounts.ts";
import { makeApiKey, withKey } from "../testing/api_keys.ts";

const BLOCKED = { success: false, error: "Workspace deletion is blocked by the system administrator." };
const NEEDS_NAME = {
  success: false,
  error: "Workspace deletion protection is on: type the workspace's name to delete it.",
};

async function workspace(app: TestApp, token: string, name: string): Promise<{ id: number; slug: string }> {
  const made = await app.json<{ workspace: { id: number; slug: string } }>("/api/workspace/new", {
    ...bearer(token),
    json: { name },
  });
  assert.equal(made.status, 200);
  return made.body.workspace;
}

Deno.test("deletion protection: only admins delete, with the name typed; the developer API deletes none", async () => {
  await using app = await createTestApp({ env: { WORKSPACE_DELETION_PROTECTION: "1" } });
  const admin = await multiUserInstance(app);
  const manager = await addUser(app, admin, "mia", "manager");
  const atlas = await workspace(app, admin.token, "Atlas Notes");

  const setup = await app.json<{ results: Record<string, unknown> }>(
    "/api/setup-complete",
    bearer(admin.token),
  );
  assert.equal(setup.body.results.WorkspaceDeletionProtection, true);

  const byManager = await app.json(`/api/workspace/${atlas.slug}?confirm=Atlas%20Notes`, {
    ...bearer(manager.token),
    method: "DELETE",
  });
  assert.equal(byManager.status, 403);
  assert.deepEqual(byManager.body, BLOCKED);

  for (const path of [`/api/workspace/${atlas.slug}`, `/api/admin/workspaces/${atlas.id}?confirm=Atlas`]) {
    const unconfirmed = await app.json(path, { ...bearer(admin.token), method: "DELETE" });
    assert.equal(unconfirmed.status, 400, path);
    assert.deepEqual(unconfirmed.body, NEEDS_NAME);
  }

  const { key } = await makeApiKey(app, {}, admin.token);
  const byKey = await app.json(`/api/v1/workspace/${atlas.slug}`, withKey(key, { method: "DELETE" }));
  assert.equal(byKey.status, 403);
  assert.deepEqual(byKey.body, BLOCKED);
  assert.equal(
    (await app.json(`/api/workspace/${atlas.slug}`, bearer(admin.token))).status,
    200,
    "still there",
  );

  const deleted = await app.json(
    `/api/admin/workspaces/${atlas.id}?confirm=${encodeURIComponent("Atlas Notes")}`,
    {
      ...bearer(admin.token),
      method: "DELETE",
    },
  );
  assert.equal(deleted.status, 200);
  const other = await workspace(app, admin.token, "Birds");
  const bySlug = await app.json(`/api/workspace/${other.slug}?confirm=Birds`, {
    ...bearer(admin.token),
    method: "DELETE",
  });
  assert.deepEqual(bySlug.body, { success: true, error: null });
});

Deno.test("without deletion protection a manager deletes a workspace as before", async () => {
  await using app = await createTestApp();
  const admin = await multiUserInstance(app);
  const manager = await addUser(app, admin, "mia", "manager");
  const atlas = await workspace(app, admin.token, "Atlas");
  const setup = await app.json<{ results: Record<string, unknown> }>(
    "/api/setup-complete",
    bearer(admin.token),
  );
  assert.equal(setup.body.results.WorkspaceDeletionProtection, false);
  const deleted = await app.json(`/api/workspace/${atlas.slug}`, {
    ...bearer(manager.token),
    method: "DELETE",
  });
  assert.deepEqual(deleted.body, { success: true, error: null });
});
