import assert from "node:assert/strict";
import { apiKeys } from "../../db/schema.ts";
import { addUser, bearer, multiUserInstance } from "../testing/accounts.ts";
import { makeApiKey, withKey } from "../testing/api_keys.ts";
import { createTestApp } from "../testing/test_app.ts";
import { maskApiKey, newApiKey } from "./service.ts";

const KEY_SHAPE = /^[0-9A-HJKMNP-TV-Z]{7}(-[0-9A-HJKMNP-TV-Z]{7}){3}$/;

Deno.test("a new API key has the reference's shape, 140 random bits, and masks to its ends", () => {
  const keys = new Set(Array.from({ length: 200 }, newApiKey));
  assert.equal(keys.size, 200);
  for (const key of keys) assert.match(key, KEY_SHAPE);
  assert.equal(maskApiKey("ABCDEFG-HJKMNPQ-RSTVWXY-Z012345"), "ABCD…2345");
});

Deno.test("API keys: made once in full, then listed masked; the database holds only a hash; deleted keys stop at once", async () => {
  await using app = await createTestApp();
  const made = await app.json<{ apiKey: Record<string, unknown>; error: null }>(
    "/api/system/generate-api-key",
    {
      json: { name: "n8n" },
    },
  );
  assert.equal(made.status, 200);
  const key = made.body.apiKey.secret as string;
  assert.match(key, KEY_SHAPE);
  assert.equal(made.body.apiKey.name, "n8n");
  assert.equal(made.body.apiKey.scope, "admin");

  const listed = await app.json<{ apiKeys: Record<string, unknown>[] }>("/api/system/api-keys");
  assert.equal(listed.body.apiKeys.length, 1);
  assert.equal(listed.body.apiKeys[0].secret, maskApiKey(key));
  assert.equal(listed.body.apiKeys[0].lastUsedAt, null);
  assert.ok(!JSON.stringify(listed.body).includes(key));

  const rows = await app.deps.db.select().from(apiKeys);
  assert.equal(rows.length, 1);
  assert.ok(!JSON.stringify(rows).includes(key), "the key itself is not stored");
  assert.match(rows[0].secretHash, /^[0-9a-f]{64}$/);

  assert.deepEqual((await app.json("/api/v1/auth", withKey(key))).body, { authenticated: true });
  const used = await app.json<{ apiKeys: Record<string, unknown>[] }>("/api/system/api-keys");
  assert.equal(typeof used.body.apiKeys[0].lastUsedAt, "string");

  const deleted = await app.json(`/api/system/api-key/${made.body.apiKey.id}`, { method: "DELETE" });
  assert.equal(deleted.status, 200);
  const after = await app.json("/api/v1/auth", withKey(key));
  assert.equal(after.status, 403);
  assert.deepEqual(after.body, { error: "No valid api key found." });
  assert.equal(
    (await app.json(`/api/system/api-key/${made.body.apiKey.id}`, { method: "DELETE" })).status,
    404,
  );
});

Deno.test("API keys: bad bodies are refused naming the field, and nothing is stored", async () => {
  await using app = await createTestApp();
  const cases: [unknown, RegExp][] = [
    [{ scope: "owner" }, /^scope must be "admin", "read" or "workspaces"\.$/],
    [
      { scope: "workspaces" },
      /^workspaceIds must name at least one workspace for a key limited to workspaces\.$/,
    ],
    [{ scope: "workspaces", workspaceIds: [999] }, /^permissions must list at least one of /],
    [
      { scope: "workspaces", workspaceIds: [999], permissions: ["chat"] },
      /^workspaceIds names 999, which is not a workspace id\.$/,
    ],
    [{ scope: "workspaces", workspaceIds: [1], permissions: ["delete"] }, /^permissions must be a list/],
    [{ rateLimit: 0 }, /^rateLimit must be at least 1 request per minute\.$/],
    [{ name: "x".repeat(101) }, /^name must be at most 100 characters\.$/],
    ["{", /^The request body is not valid JSON/],
  ];
  for (const [body, message] of cases) {
    const answer = await app.json<{ apiKey: null; error: string }>("/api/system/generate-api-key", {
      json: body,
    });
    assert.equal(answer.status, 400, JSON.stringify(body));
    assert.equal(answer.body.apiKey, null);
    assert.match(answer.body.error, message);
  }
  assert.equal((await app.deps.db.select().from(apiKeys)).length, 0);
});

Deno.test("API keys in multi-user mode: admins only, on both families; a manager and a default user are refused", async () => {
  await using app = await createTestApp();
  const admin = await multiUserInstance(app);
  const made = await makeApiKey(app, { name: "ci" }, admin.token);
  const listed = await app.json<{ apiKeys: { createdBy: { username: string } }[] }>(
    "/api/admin/api-keys",
    bearer(admin.token),
  );
  assert.equal(listed.body.apiKeys[0].createdBy.username, admin.user.username);
  for (const role of ["manager", "default"]) {
    const session = { body: await addUser(app, admin, `${role}-user`, role as "manager" | "default") };
    for (const path of ["/api/admin/api-keys", "/api/system/api-keys"]) {
      assert.equal((await app.json(path, bearer(session.body.token))).status, 403, `${role} ${path}`);
    }
    const deleted = await app.json(`/api/admin/delete-api-key/${made.id}`, {
      ...bearer(session.body.token),
      method: "DELETE",
    });
    assert.equal(deleted.status, 403);
  }
  // A key is not a session, and a session is not a key.
  assert.equal((await app.json("/api/system/api-keys", bearer(made.key))).status, 401);
  assert.equal((await app.json("/api/v1/auth", bearer(admin.token))).status, 403);
  assert.equal((await app.json("/api/v1/auth", withKey(made.key))).status, 200);
});

Deno.test("a key with a rate limit gets 429 with Retry-After past it; another key is not counted with it", async () => {
  await using app = await createTestApp();
  const limited = await makeApiKey(app, { rateLimit: 2 });
  const free = await makeApiKey(app);
  assert.equal((await app.request("/api/v1/auth", withKey(limited.key))).status, 200);
  assert.equal((await app.request("/api/v1/auth", withKey(limited.key))).status, 200);
  const refused = await app.request("/api/v1/auth", withKey(limited.key));
  assert.equal(refused.status, 429);
  assert.ok(Number(refused.headers.get("Retry-After")) >= 1);
  assert.match(
    (await refused.json()).error,
    /^Too many requests with this API key: its limit is 2 a minute\./,
  );
  for (let i = 0; i < 5; i++) {
    assert.equal((await app.request("/api/v1/auth", withKey(free.key))).status, 200);
  }
});
