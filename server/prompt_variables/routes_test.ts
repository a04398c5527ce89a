import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { workspaces } from "../../db/schema.ts";
import { configuredTestApp, createTestApp, readFrames, type TestApp } from "../testing/test_app.ts";
import { addUser, bearer, multiUserInstance } from "../testing/accounts.ts";
import { startFakeOpenAi } from "../testing/fake_openai.ts";
import { MAX_VARIABLES } from "./service.ts";

interface Variable {
  id: number | null;
  key: string;
  value: string;
  description: string | null;
  type: string;
}

const list = async (
  app: TestApp,
  init: RequestInit = {},
) => (await app.json<{ variables: Variable[] }>("/api/system/prompt-variables", init));

Deno.test("GET /api/system/prompt-variables lists the built-in variables with values, then the stored ones", async () => {
  await using app = await createTestApp();
  const answer = await list(app);
  assert.equal(answer.status, 200);
  assert.deepEqual(answer.body.variables.map((variable) => variable.key), [
    "time",
    "time_24",
    "date",
    "datetime",
    "datetime_24",
    "workspace.id",
    "workspace.name",
  ], "single-user mode has no user variables, as in the reference");
  for (const variable of answer.body.variables) {
    assert.equal(variable.id, null, "built-in variables have no id (they cannot be deleted)");
    assert.equal(typeof variable.value, "string");
    assert.equal(typeof variable.description, "string");
  }
  const date = answer.body.variables.find((variable) => variable.key === "date")!;
  assert.equal(date.type, "system");
  assert.match(date.value, /^\w+ \d{1,2}, \d{4}$/);
  const name = answer.body.variables.find((variable) => variable.key === "workspace.name")!;
  assert.deepEqual(name, {
    id: null,
    key: "workspace.name",
    value: "[Workspace name]",
    description: "Current workspace's name",
    type: "workspace",
  });

  const created = await app.json<{ success: boolean; variable: Variable & Record<string, unknown> }>(
    "/api/system/prompt-variables",
    { json: { key: "company", value: "Acme Corp", description: "Our name" } },
  );
  assert.equal(created.status, 200);
  assert.equal(created.body.success, true);
  const variable = created.body.variable;
  assert.equal(typeof variable.id, "number");
  assert.deepEqual(
    { key: variable.key, value: variable.value, description: variable.description, type: variable.type },
    { key: "company", value: "Acme Corp", description: "Our name", type: "static" },
  );
  assert.equal(variable.userId, null);
  assert.ok(!Number.isNaN(Date.parse(String(variable.createdAt))));
  assert.ok(!Number.isNaN(Date.parse(String(variable.updatedAt))));
  const after = await list(app);
  assert.deepEqual(after.body.variables.at(-1), variable);
});

Deno.test("prompt variables: anyone signed in lists them, only admins change them", async () => {
  await using app = await createTestApp();
  const admin = await multiUserInstance(app);
  const manager = await addUser(app, admin, "mia", "manager");
  const member = await addUser(app, admin, "dora", "default");

  const mine = await list(app, bearer(member.token));
  assert.equal(mine.status, 200);
  const userName = mine.body.variables.find((variable) => variable.key === "user.name");
  assert.equal(userName?.value, "dora", "multi-user mode lists the user variables with the caller's values");
  assert.equal(userName?.type, "user");
  assert.equal((await list(app)).status, 401, "no token, no list");

  const refused = { success: false, error: "You do not have permission to do that." };
  for (const session of [manager, member]) {
    const create = await app.json("/api/system/prompt-variables", {
      ...bearer(session.token),
      json: { key: "company", value: "Acme" },
    });
    assert.equal(create.status, 403);
    assert.deepEqual(create.body, refused);
  }
  const created = await app.json<{ variable: Variable }>("/api/system/prompt-variables", {
    ...bearer(admin.token),
    json: { key: "company", value: "Acme" },
  });
  assert.equal(created.status, 200);
  const id = created.body.variable.id;
  const update = await app.json(`/api/system/prompt-variables/${id}`, {
    ...bearer(manager.token),
    method: "PUT",
    json: { key: "company", value: "Other" },
  });
  assert.equal(update.status, 403);
  assert.deepEqual(update.body, refused);
  const remove = await app.json(`/api/system/prompt-variables/${id}`, {
    ...bearer(member.token),
    method: "DELETE",
  });
  assert.equal(remove.status, 403);
  assert.deepEqual(remove.body, refused);
  const stored = (await list(app, bearer(member.token))).body.variables.find((v) => v.key === "company");
  assert.equal(stored?.value, "Acme", "the refused calls changed nothing");
});

Deno.test("prompt variables refuse bad input with the reference's sentences", async () => {
  await using app = await createTestApp();
  const post = (json: unknown) => app.json("/api/system/prompt-variables", { json });
  const cases: [unknown, number, string][] = [
    [{ value: "x" }, 400, "Key and value are required"],
    [{ key: "company" }, 400, "Key and value are required"],
    [{ key: "company", value: "   " }, 400, "Key and value are required"],
    [{ key: "my key", value: "x" }, 400, "Key must contain only letters, numbers and underscores"],
    [{ key: "user.name2", value: "x" }, 400, "Key must contain only letters, numbers and underscores"],
    [{ key: "ab", value: "x" }, 400, "Key must be at least 3 characters"],
    [{ key: "k".repeat(256), value: "x" }, 400, "Key must be less than 255 characters"],
    [{ key: 12345, value: "x" }, 400, "Key must be a string"],
    [{ key: "company", value: 5 }, 400, "Value must be text"],
    [{ key: "company", value: "x".repeat(20_001) }, 400, "Value must be at most 20000 characters"],
    [{ key: "company", value: "x", description: 7 }, 400, "Description must be text"],
    [{ key: "date", value: "x" }, 409, "{date} is a built-in variable; choose another key."],
    [[], 400, "Key and value are required"],
  ];
  for (const [json, status, error] of cases) {
    const answer = await post(json);
    assert.equal(answer.status, status, JSON.stringify(json).slice(0, 80));
    assert.deepEqual(answer.body, { success: false, error }, JSON.stringify(json).slice(0, 80));
  }
  const malformed = await app.json("/api/system/prompt-variables", { method: "POST", body: "{not json" });
  assert.equal(malformed.status, 400);
  assert.match(String(malformed.body.error), /^The request body is not valid JSON/);

  assert.equal((await post({ key: "company", value: "Acme" })).status, 200);
  const twice = await post({ key: "company", value: "Other" });
  assert.equal(twice.status, 409);
  assert.deepEqual(twice.body, {
    success: false,
    error: 'A variable with the key "company" already exists.',
  });
  const variables = (await list(app)).body.variables.filter((variable) => variable.id !== null);
  assert.deepEqual(variables.map((variable) => [variable.key, variable.value]), [["company", "Acme"]]);
});

Deno.test("PUT and DELETE /api/system/prompt-variables/:id change, rename and remove a variable", async () => {
  await using app = await createTestApp();
  const first = await app.json<{ variable: Variable }>("/api/system/prompt-variables", {
    json: { key: "company", value: "Acme" },
  });
  const second = await app.json<{ variable: Variable }>("/api/system/prompt-variables", {
    json: { key: "city", value: "Paris" },
  });
  const id = first.body.variable.id;

  const updated = await app.json<{ success: boolean; variable: Variable }>(
    `/api/system/prompt-variables/${id}`,
    {
      method: "PUT",
      json: { key: "company_name", value: "Acme Corp", description: "Legal name" },
    },
  );
  assert.equal(updated.status, 200);
  assert.equal(updated.body.success, true);
  assert.equal(updated.body.variable.id, id);
  assert.equal(updated.body.variable.key, "company_name");
  assert.equal(updated.body.variable.value, "Acme Corp");
  assert.equal(updated.body.variable.description, "Legal name");

  const clash = await app.json(`/api/system/prompt-variables/${id}`, {
    method: "PUT",
    json: { key: "city", value: "x" },
  });
  assert.equal(clash.status, 409);
  assert.deepEqual(clash.body, { success: false, error: 'A variable with the key "city" already exists.' });
  const missingValue = await app.json(`/api/system/prompt-variables/${id}`, {
    method: "PUT",
    json: { key: "x" },
  });
  assert.equal(missingValue.status, 400);
  assert.deepEqual(missingValue.body, { success: false, error: "Key and value are required" });
  const unknown = await app.json("/api/system/prompt-variables/9999", {
    method: "PUT",
    json: { key: "other", value: "x" },
  });
  assert.equal(unknown.status, 404);
  assert.deepEqual(unknown.body, { success: false, error: "Variable not found" });
  const badId = await app.json("/api/system/prompt-variables/abc", {
    method: "PUT",
    json: { key: "abc", value: "x" },
  });
  assert.equal(badId.status, 400);
  assert.deepEqual(badId.body, { success: false, error: '"abc" is not a variable id.' });

  const deleted = await app.json(`/api/system/prompt-variables/${second.body.variable.id}`, {
    method: "DELETE",
  });
  assert.equal(deleted.status, 200);
  assert.deepEqual(deleted.body, { success: true });
  const again = await app.json(`/api/system/prompt-variables/${second.body.variable.id}`, {
    method: "DELETE",
  });
  assert.equal(again.status, 404);
  assert.deepEqual(again.body, {
    success: false,
    error: "System prompt variable not found or could not be deleted",
  });
  const stored = (await list(app)).body.variables.filter((variable) => variable.id !== null);
  assert.deepEqual(stored.map((variable) => variable.key), ["company_name"]);
});

Deno.test("POST /api/system/prompt-variables stops at the most variables a chat looks up", async () => {
  await using app = await createTestApp();
  const { systemPromptVariables } = await import("../../db/schema.ts");
  await app.deps.db.insert(systemPromptVariables).values(
    Array.from({ length: MAX_VARIABLES }, (_, index) => ({ key: `key_${index}`, value: "v" })),
  );
  const answer = await app.json("/api/system/prompt-variables", { json: { key: "one_more", value: "v" } });
  assert.equal(answer.status, 409);
  assert.deepEqual(answer.body, {
    success: false,
    error: `There are already ${MAX_VARIABLES} variables; delete one before adding another.`,
  });
});

Deno.test("stored variables are expanded in the system prompt of a chat, with their current value", async () => {
  await using llm = startFakeOpenAi();
  await using app = await configuredTestApp({ llm: llm.baseURL });
  const created = await app.json<{ workspace: { slug: string; id: number } }>("/api/workspace/new", {
    json: { name: "Atlas" },
  });
  const { slug, id } = created.body.workspace;
  await app.deps.db.update(workspaces).set({
    openAiPrompt: "You work for {company} in {workspace.name}. Unknown: {nothing_here}.",
  }).where(eq(workspaces.id, id));
  const variable = await app.json<{ variable: Variable }>("/api/system/prompt-variables", {
    json: { key: "company", value: "Acme {date}" },
  });

  const chat = async () => {
    const response = await app.request(`/api/workspace/${slug}/stream-chat`, {
      method: "POST",
      body: JSON.stringify({ message: "Hello" }),
    });
    await readFrames(response);
    return llm.chatRequests.at(-1)!.messages[0].content;
  };
  assert.equal(
    await chat(),
    "You work for Acme {date} in Atlas. Unknown: {nothing_here}.",
    "a value is inserted as written: its own braces are not expanded again",
  );
  await app.json(`/api/system/prompt-variables/${variable.body.variable.id}`, {
    method: "PUT",
    json: { key: "company", value: "Globex" },
  });
  assert.equal(await chat(), "You work for Globex in Atlas. Unknown: {nothing_here}.");
  await app.json(`/api/system/prompt-variables/${variable.body.variable.id}`, { method: "DELETE" });
  assert.equal(await chat(), "You work for {company} in Atlas. Unknown: {nothing_here}.");
});
