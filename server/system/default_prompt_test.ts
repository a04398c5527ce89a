import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { workspaces } from "../../db/schema.ts";
import { DEFAULT_SYSTEM_PROMPT } from "../../shared/api/workspaces.ts";
import { configuredTestApp, createTestApp, readFrames } from "../testing/test_app.ts";
import { addUser, bearer, multiUserInstance } from "../testing/accounts.ts";
import { startFakeOpenAi } from "../testing/fake_openai.ts";

const PATH = "/api/system/default-system-prompt";

Deno.test("GET /api/system/default-system-prompt answers the built-in prompt until an admin sets one", async () => {
  await using app = await createTestApp();
  const before = await app.json(PATH);
  assert.equal(before.status, 200);
  assert.deepEqual(before.body, {
    success: true,
    defaultSystemPrompt: DEFAULT_SYSTEM_PROMPT,
    saneDefaultSystemPrompt: DEFAULT_SYSTEM_PROMPT,
  });

  const saved = await app.json(PATH, {
    json: { defaultSystemPrompt: "  You are the Acme helper. {date}  " },
  });
  assert.equal(saved.status, 200);
  assert.deepEqual(saved.body, { success: true, message: "Default system prompt updated successfully." });
  const after = await app.json(PATH);
  assert.equal(after.body.defaultSystemPrompt, "You are the Acme helper. {date}", "stored trimmed");
  assert.equal(after.body.saneDefaultSystemPrompt, DEFAULT_SYSTEM_PROMPT);

  for (const reset of ["", "   ", DEFAULT_SYSTEM_PROMPT, null]) {
    await app.json(PATH, { json: { defaultSystemPrompt: "Something else" } });
    const answer = await app.json(PATH, { json: { defaultSystemPrompt: reset } });
    assert.equal(answer.status, 200);
    assert.equal((await app.json(PATH)).body.defaultSystemPrompt, DEFAULT_SYSTEM_PROMPT, `reset by ${reset}`);
    assert.equal(
      app.deps.settings.label("default_system_prompt"),
      undefined,
      "nothing stored for the built-in",
    );
  }
});

Deno.test("POST /api/system/default-system-prompt refuses bad input and anyone but an admin", async () => {
  await using app = await createTestApp();
  const admin = await multiUserInstance(app);
  const manager = await addUser(app, admin, "mia", "manager");
  const member = await addUser(app, admin, "dora", "default");

  const read = await app.json(PATH, bearer(member.token));
  assert.equal(read.status, 200, "anyone signed in reads it");
  assert.equal(read.body.defaultSystemPrompt, DEFAULT_SYSTEM_PROMPT);
  assert.equal((await app.json(PATH)).status, 401);

  const refused = "You do not have permission to do that.";
  for (const session of [manager, member]) {
    const answer = await app.json(PATH, { ...bearer(session.token), json: { defaultSystemPrompt: "Mine" } });
    assert.equal(answer.status, 403);
    assert.deepEqual(answer.body, { success: false, message: refused, error: refused });
  }
  const notText = await app.json(PATH, { ...bearer(admin.token), json: { defaultSystemPrompt: 42 } });
  assert.equal(notText.status, 400);
  assert.deepEqual(notText.body, {
    success: false,
    message: "defaultSystemPrompt must be text.",
    error: "defaultSystemPrompt must be text.",
  });
  const long = await app.json(PATH, {
    ...bearer(admin.token),
    json: { defaultSystemPrompt: "x".repeat(20_001) },
  });
  assert.equal(long.status, 400);
  assert.equal(long.body.message, "The default system prompt must be at most 20000 characters.");
  // A body without the field (an empty object, JSON null, a bare number) is a mistake, not a reset.
  await app.json(PATH, { ...bearer(admin.token), json: { defaultSystemPrompt: "Kept" } });
  for (const body of ["{}", "null", "42", "[]"]) {
    const missing = await app.json(PATH, { ...bearer(admin.token), method: "POST", body });
    assert.equal(missing.status, 400, body);
    assert.equal(missing.body.message, "defaultSystemPrompt must be text.", body);
    assert.equal((await app.json(PATH, bearer(admin.token))).body.defaultSystemPrompt, "Kept", body);
  }
  await app.json(PATH, { ...bearer(admin.token), json: { defaultSystemPrompt: null } });
  const malformed = await app.json(PATH, { ...bearer(admin.token), method: "POST", body: "{" });
  assert.equal(malformed.status, 400);
  assert.match(String(malformed.body.message), /^The request body is not valid JSON/);
  assert.equal((await app.json(PATH, bearer(admin.token))).body.defaultSystemPrompt, DEFAULT_SYSTEM_PROMPT);
});

Deno.test("the saved default is the prompt of new workspaces and of chats in workspaces without their own", async () => {
  await using llm = startFakeOpenAi();
  await using app = await configuredTestApp({ llm: llm.baseURL });
  await app.json(PATH, { json: { defaultSystemPrompt: "You are the Acme helper for {workspace.name}." } });

  const created = await app.json<{ workspace: { slug: string; id: number; openAiPrompt: string } }>(
    "/api/workspace/new",
    { json: { name: "Atlas" } },
  );
  assert.equal(created.body.workspace.openAiPrompt, "You are the Acme helper for {workspace.name}.");

  const { slug, id } = created.body.workspace;
  await app.deps.db.update(workspaces).set({ openAiPrompt: null }).where(eq(workspaces.id, id));
  await app.json(PATH, { json: { defaultSystemPrompt: "Changed later: {workspace.name}." } });
  const response = await app.request(`/api/workspace/${slug}/stream-chat`, {
    method: "POST",
    body: JSON.stringify({ message: "Hello" }),
  });
  await readFrames(response);
  assert.equal(llm.chatRequests.at(-1)!.messages[0].content, "Changed later: Atlas.");
});
