import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { users } from "../../db/schema.ts";
import { signSession } from "../auth/jwt.ts";
import { LABELS } from "../settings/service.ts";
import { createTestApp, type TestApp } from "../testing/test_app.ts";
import { type ActorDeps, optionalActor, resolveActor, type SessionUser } from "./auth_guard.ts";

async function multiUser(app: TestApp) {
  await app.json("/api/workspace/new", { json: { name: "Shared" } });
  await app.deps.settings.setLabels({ [LABELS.multiUserMode]: "true" });
  const [admin] = await app.deps.db.insert(users).values({ username: "admin", password: "x", role: "admin" })
    .returning();
  const [member] = await app.deps.db.insert(users).values({
    username: "member",
    password: "x",
    role: "default",
  }).returning();
  const token = (id: number) => signSession(app.deps.keys.jwt, { sub: String(id), ver: 0 });
  return { admin, member, adminToken: await token(admin.id), memberToken: await token(member.id) };
}

const bearer = (token: string) => ({ headers: { Authorization: `Bearer ${token}` } });

Deno.test("an open single-user instance lets every visitor act as its owner", async () => {
  await using app = await createTestApp();
  assert.equal((await app.json("/api/workspaces")).status, 200);
  assert.equal((await app.json("/api/system/update-env", { json: {} })).status, 200);
});

Deno.test("multi-user mode needs a valid session token on every guarded call", async () => {
  await using app = await createTestApp();
  const { adminToken } = await multiUser(app);
  const none = await app.json("/api/workspaces");
  assert.equal(none.status, 401);
  assert.deepEqual(none.body, { error: "No auth token found." });
  const literalNull = await app.json("/api/workspaces", bearer("null"));
  assert.equal(literalNull.status, 401);
  const tampered = await app.json("/api/workspaces", bearer(adminToken.slice(0, -3) + "abc"));
  assert.equal(tampered.status, 401);
  assert.deepEqual(tampered.body, { error: "Invalid auth token." });
  const expired = await signSession(app.deps.keys.jwt, { sub: "1", ver: 0 }, "-1s");
  assert.equal((await app.json("/api/workspaces", bearer(expired))).status, 401);
  const otherKey = await signSession(new Uint8Array(64), { sub: "1", ver: 0 });
  assert.equal((await app.json("/api/workspaces", bearer(otherKey))).status, 401);
  const ghost = await signSession(app.deps.keys.jwt, { sub: "999", ver: 0 });
  assert.deepEqual((await app.json("/api/workspaces", bearer(ghost))).body, {
    error: "Invalid auth for user.",
  });

  const ok = await app.json<{ workspaces: unknown[] }>("/api/workspaces", bearer(adminToken));
  assert.equal(ok.status, 200);
  assert.equal(ok.body.workspaces.length, 1);
  assert.equal((await app.json("/api/ping")).status, 200, "ping stays public");
  const setup = await app.json<{ results: Record<string, unknown> }>("/api/setup-complete");
  assert.equal(setup.status, 200, "setup-complete stays public");
  assert.equal(setup.body.results.RequiresAuth, true);
  assert.ok(!("GenericOpenAiBasePath" in setup.body.results), "only the login screen's fields before login");
});

Deno.test("a default user is refused manager and admin calls and sees no workspace it does not belong to", async () => {
  await using app = await createTestApp();
  const { memberToken, member } = await multiUser(app);
  const settings = await app.json("/api/system/update-env", {
    ...bearer(memberToken),
    json: { LLMProvider: "generic-openai" },
  });
  assert.equal(settings.status, 403);
  assert.equal(settings.body.error, "You do not have permission to do that.");
  assert.equal(app.deps.settings.value("LLMProvider"), undefined);
  const create = await app.json("/api/workspace/new", { ...bearer(memberToken), json: { name: "Mine" } });
  assert.equal(create.status, 403);
  assert.equal(create.body.workspace, null);
  const list = await app.json<{ workspaces: unknown[] }>("/api/workspaces", bearer(memberToken));
  assert.deepEqual(list.body.workspaces, []);
  assert.equal((await app.json("/api/workspace/shared", bearer(memberToken))).status, 404);
  const chat = await app.request("/api/workspace/shared/stream-chat", {
    method: "POST",
    ...bearer(memberToken),
    body: JSON.stringify({ message: "hi" }),
  });
  assert.equal(chat.status, 404);
  await chat.body?.cancel();

  await app.deps.db.update(users).set({ suspended: 1 }).where(eq(users.id, member.id));
  const suspended = await app.json("/api/workspaces", bearer(memberToken));
  assert.equal(suspended.status, 401);
  assert.deepEqual(suspended.body, { error: "User is suspended from system" });
});

/** The guard's own dependencies, without an app: multi-user mode and one account lookup. */
function actorDeps(
  user: SessionUser | null,
  jwt: Uint8Array = crypto.getRandomValues(new Uint8Array(32)),
): ActorDeps {
  return {
    settings: { requiresAuth: true, multiUserMode: true, instanceTokenVersion: 0 },
    keys: { jwt },
    findUser: (id) => Promise.resolve(user && user.id === id ? user : null),
  };
}

Deno.test("resolveActor() asks its account lookup for the user a token names, and checks what it returns", async () => {
  const member: SessionUser = { id: 7, role: "manager", tokenVersion: 2, suspended: 0 };
  const deps = actorDeps(member);
  const header = async (sub: string, ver: number) =>
    `Bearer ${await signSession(deps.keys.jwt, { sub, ver })}`;
  assert.deepEqual(await resolveActor(deps, await header("7", 2)), {
    userId: 7,
    role: "manager",
    multiUser: true,
  });
  await assert.rejects(resolveActor(deps, await header("8", 2)), { message: "Invalid auth for user." });
  await assert.rejects(resolveActor(deps, await header("7", 1)), { message: "Invalid auth for user." });
  const suspended = actorDeps({ ...member, suspended: 1 }, deps.keys.jwt);
  await assert.rejects(resolveActor(suspended, await header("7", 2)), {
    message: "User is suspended from system",
  });
  assert.equal(await optionalActor(suspended, await header("7", 2)), null);
});
