import assert from "node:assert/strict";
import { createTestApp } from "../testing/test_app.ts";
import { addUser, bearer, multiUserInstance } from "../testing/accounts.ts";
import { HUB_NOT_CONNECTED } from "./community_hub.ts";

const emptyShelf = { items: [], hasMore: false, totalCount: 0 };

Deno.test("the Community Hub calls answer as a hub that is not connected", async () => {
  await using app = await createTestApp();
  const settings = await app.json("/api/community-hub/settings");
  assert.equal(settings.status, 200);
  assert.deepEqual(settings.body, { success: true, connectionKey: null });
  const explore = await app.json("/api/community-hub/explore");
  assert.equal(explore.status, 200);
  assert.deepEqual(explore.body, {
    success: true,
    result: { agentSkills: emptyShelf, systemPrompts: emptyShelf, slashCommands: emptyShelf },
  });
  const items = await app.json("/api/community-hub/items");
  assert.equal(items.status, 200);
  assert.deepEqual(items.body, { success: true, createdByMe: {}, teamItems: [] });

  for (
    const [path, json] of [
      ["/api/community-hub/settings", { hub_api_key: "some-key" }],
      ["/api/community-hub/item", { importId: "allm-community-id:agent-skill:abc" }],
      ["/api/community-hub/apply", { importId: "x", options: {} }],
      ["/api/community-hub/import", { importId: "x" }],
      ["/api/community-hub/system-prompt/create", { name: "p", prompt: "x" }],
      ["/api/community-hub/agent-flow/create", { name: "f" }],
      ["/api/community-hub/slash-command/create", { command: "/x", prompt: "x" }],
    ] as const
  ) {
    const answer = await app.json(path, { json });
    assert.equal(answer.status, 501, path);
    assert.deepEqual(answer.body, { success: false, error: HUB_NOT_CONNECTED, item: null }, path);
  }
  assert.equal((await app.json("/api/community-hub/settings")).body.connectionKey, null, "no key was kept");
});

Deno.test("the Community Hub calls are for admins, as in the reference", async () => {
  await using app = await createTestApp();
  const admin = await multiUserInstance(app);
  const manager = await addUser(app, admin, "mia", "manager");
  const member = await addUser(app, admin, "dora", "default");
  assert.equal((await app.json("/api/community-hub/settings")).status, 401);
  for (const session of [manager, member]) {
    for (
      const path of ["/api/community-hub/settings", "/api/community-hub/explore", "/api/community-hub/items"]
    ) {
      const answer = await app.json(path, bearer(session.token));
      assert.equal(answer.status, 403, `${session.user.username} ${path}`);
      assert.deepEqual(answer.body, { success: false, error: "You do not have permission to do that." });
    }
    const write = await app.json("/api/community-hub/import", {
      ...bearer(session.token),
      json: { importId: "x" },
    });
    assert.equal(write.status, 403);
  }
  const allowed = await app.json("/api/community-hub/settings", bearer(admin.token));
  assert.equal(allowed.status, 200);
  assert.deepEqual(allowed.body, { success: true, connectionKey: null });
});
