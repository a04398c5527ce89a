import assert from "node:assert/strict";
import { createTestApp } from "../testing/test_app.ts";
import { addUser, bearer, multiUserInstance } from "../testing/accounts.ts";
import { DEFAULT_SYSTEM_PROMPT } from "../../shared/api/workspaces.ts";
import { PROMPT_HISTORY_KEPT } from "./service.ts";
import { workspacePromptHistory } from "../../db/schema.ts";

type Entry = {
  id: number;
  workspaceId: number;
  prompt: string;
  modifiedBy: number | null;
  user: { username: string } | null;
};

Deno.test("a replaced system prompt goes to the workspace's prompt history, newest first, and can be deleted", async () => {
  await using app = await createTestApp();
  const admin = await multiUserInstance(app);
  const member = await addUser(app, admin, "mira", "default");
  const workspace = (await app.json<{ workspace: { id: number; slug: string } }>("/api/workspace/new", {
    ...bearer(admin.token),
    json: { name: "Prompts" },
  })).body.workspace;
  await app.json(`/api/admin/workspaces/${workspace.id}/update-users`, {
    ...bearer(admin.token),
    json: { userIds: [member.user.id] },
  });
  const setPrompt = (openAiPrompt: string | null) =>
    app.json(`/api/workspace/${workspace.slug}/update`, { ...bearer(admin.token), json: { openAiPrompt } });
  const history = async (token = admin.token) =>
    await app.json<{ history: Entry[] }>(`/api/workspace/${workspace.slug}/prompt-history`, bearer(token));

  // The built-in prompt and an unchanged prompt are not history.
  await setPrompt(DEFAULT_SYSTEM_PROMPT);
  await setPrompt("You answer like a pirate.");
  await setPrompt("You answer like a pirate.");
  assert.deepEqual((await history()).body.history, []);
  await setPrompt("You answer like a librarian.");
  await setPrompt(null);
  const listed = await history(member.token);
  assert.equal(listed.status, 200, "a member reads the history");
  assert.deepEqual(
    listed.body.history.map(({ prompt, workspaceId, modifiedBy, user }) => ({
      prompt,
      workspaceId,
      modifiedBy,
      user,
    })),
    [
      {
        prompt: "You answer like a librarian.",
        workspaceId: workspace.id,
        modifiedBy: admin.user.id,
        user: { username: "admin" },
      },
      {
        prompt: "You answer like a pirate.",
        workspaceId: workspace.id,
        modifiedBy: admin.user.id,
        user: { username: "admin" },
      },
    ],
  );

  // A default user may read it but not delete it.
  const [newest, oldest] = listed.body.history;
  const refused = await app.json(`/api/workspace/prompt-history/${newest.id}`, {
    ...bearer(member.token),
    method: "DELETE",
  });
  assert.equal(refused.status, 403);
  assert.equal((await history()).body.history.length, 2);

  const deleted = await app.json(`/api/workspace/prompt-history/${newest.id}`, {
    ...bearer(admin.token),
    method: "DELETE",
  });
  assert.deepEqual([deleted.status, deleted.body], [200, { success: true }]);
  assert.deepEqual((await history()).body.history.map((entry) => entry.id), [oldest.id]);
  const again = await app.json(`/api/workspace/prompt-history/${newest.id}`, {
    ...bearer(admin.token),
    method: "DELETE",
  });
  assert.deepEqual([again.status, again.body], [404, {
    success: false,
    error: "That prompt history entry does not exist.",
  }]);
  const notAnId = await app.json("/api/workspace/prompt-history/abc", {
    ...bearer(admin.token),
    method: "DELETE",
  });
  assert.equal(notAnId.status, 400);

  const cleared = await app.json(`/api/workspace/${workspace.slug}/prompt-history`, {
    ...bearer(admin.token),
    method: "DELETE",
  });
  assert.deepEqual([cleared.status, cleared.body], [200, { success: true }]);
  assert.deepEqual((await history()).body.history, []);

  // A workspace the user does not belong to has no history for them.
  const other = (await app.json<{ workspace: { slug: string } }>("/api/workspace/new", {
    ...bearer(admin.token),
    json: { name: "Elsewhere" },
  })).body.workspace;
  const hidden = await app.json(`/api/workspace/${other.slug}/prompt-history`, bearer(member.token));
  assert.deepEqual([hidden.status, hidden.body], [404, { history: [], error: "Workspace does not exist." }]);
});

Deno.test("the prompt history keeps the latest entries only, and goes with its workspace", async () => {
  await using app = await createTestApp();
  const slug =
    (await app.json<{ workspace: { slug: string } }>("/api/workspace/new", { json: { name: "Busy" } })).body
      .workspace.slug;
  for (let version = 0; version <= PROMPT_HISTORY_KEPT + 5; version++) {
    await app.json(`/api/workspace/${slug}/update`, { json: { openAiPrompt: `Version ${version}` } });
  }
  const { body } = await app.json<{ history: Entry[] }>(`/api/workspace/${slug}/prompt-history`);
  assert.equal(body.history.length, PROMPT_HISTORY_KEPT);
  assert.equal(body.history[0].prompt, `Version ${PROMPT_HISTORY_KEPT + 4}`);
  assert.equal(body.history.at(-1)!.prompt, "Version 5");
  assert.equal(body.history[0].user, null, "single-user changes have no author");

  await app.request(`/api/workspace/${slug}`, { method: "DELETE" });
  const rows = await app.deps.db.select().from(workspacePromptHistory);
  assert.deepEqual(rows, []);
});

Deno.test("the instance's default prompt a new workspace is stored with is not history when it is replaced", async () => {
  await using app = await createTestApp();
  const instancePrompt = "You are this instance's librarian.";
  await app.json("/api/system/default-system-prompt", { json: { defaultSystemPrompt: instancePrompt } });
  const workspace = (await app.json<{ workspace: { slug: string; openAiPrompt: string } }>(
    "/api/workspace/new",
    { json: { name: "Defaults" } },
  )).body.workspace;
  assert.equal(workspace.openAiPrompt, instancePrompt);
  const history = async () =>
    (await app.json<{ history: Entry[] }>(`/api/workspace/${workspace.slug}/prompt-history`)).body.history;
  // The chat settings save an untouched prompt field as null: the workspace keeps following the default.
  const saved = await app.json(`/api/workspace/${workspace.slug}/update`, { json: { openAiPrompt: null } });
  assert.equal(saved.status, 200);
  assert.deepEqual(await history(), []);
  // A prompt of its own, once replaced, is kept.
  await app.json(`/api/workspace/${workspace.slug}/update`, {
    json: { openAiPrompt: "You answer briefly." },
  });
  await app.json(`/api/workspace/${workspace.slug}/update`, { json: { openAiPrompt: instancePrompt } });
  assert.deepEqual((await history()).map((entry) => entry.prompt), ["You answer briefly."]);
});
