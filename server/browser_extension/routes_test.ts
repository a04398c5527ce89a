import assert from "node:assert/strict";
import { count, eq } from "drizzle-orm";
import { browserExtensionKeys, documents, eventLogs, users, workspaceDocuments } from "../../db/schema.ts";
import { ProviderError } from "../errors.ts";
import { addUser, bearer, multiUserInstance, type Session } from "../testing/accounts.ts";
import { createTestApp, type TestApp } from "../testing/test_app.ts";

type Body = Record<string, unknown> & {
  success?: boolean;
  error?: string | null;
  apiKey?: string | null;
  // deno-lint-ignore no-explicit-any
  apiKeys?: any[];
  // deno-lint-ignore no-explicit-any
  workspaces?: any[];
};

const keyed = (key: string, init: RequestInit & { json?: unknown } = {}) => ({
  ...init,
  headers: { ...init.headers as Record<string, string>, Authorization: `Bearer ${key}` },
});

async function newKey(app: TestApp, session?: Session): Promise<string> {
  const made = await app.json<Body>("/api/browser-extension/api-keys/new", {
    method: "POST",
    ...(session ? bearer(session.token) : {}),
  });
  assert.equal(made.status, 200, JSON.stringify(made.body));
  assert.match(String(made.body.apiKey), /^brx-[0-9A-Z]{7}(-[0-9A-Z]{7}){3}$/);
  assert.equal(made.body.error, null);
  return String(made.body.apiKey);
}

async function workspace(app: TestApp, name: string, session?: Session) {
  const made = await app.json<{ workspace: { id: number; slug: string } }>("/api/workspace/new", {
    json: { name },
    ...(session ? bearer(session.token) : {}),
  });
  assert.equal(made.status, 200);
  return made.body.workspace;
}

const rowCount = async (app: TestApp, table: typeof documents | typeof workspaceDocuments) =>
  (await app.deps.db.select({ value: count() }).from(table))[0].value;

const events = async (app: TestApp) =>
  (await app.deps.db.select().from(eventLogs)).map((row) => ({ event: row.event, userId: row.userId }));

Deno.test("browser extension keys: made, listed masked with their creator, revoked; only admins may", async () => {
  await using app = await createTestApp();
  const admin = await multiUserInstance(app);
  const manager = await addUser(app, admin, "mia", "manager");
  const dora = await addUser(app, admin, "dora", "default");

  for (const [who, session] of [["manager", manager], ["default", dora]] as const) {
    for (
      const [method, path] of [
        ["GET", "/api/browser-extension/api-keys"],
        ["POST", "/api/browser-extension/api-keys/new"],
        ["DELETE", "/api/browser-extension/api-keys/1"],
      ]
    ) {
      const answer = await app.json<Body>(path, { method, ...bearer(session.token) });
      assert.equal(answer.status, 403, `${who} ${method} ${path}`);
      assert.equal(answer.body.error, "You do not have permission to do that.");
    }
  }
  const anonymous = await app.json<Body>("/api/browser-extension/api-keys");
  assert.equal(anonymous.status, 401);

  const key = await newKey(app, admin);
  const list = await app.json<Body>("/api/browser-extension/api-keys", bearer(admin.token));
  assert.equal(list.status, 200);
  assert.equal(list.body.success, true);
  assert.equal(list.body.apiKeys!.length, 1);
  const [listed] = list.body.apiKeys!;
  assert.equal(listed.user_id, admin.user.id);
  assert.equal(listed.user.username, "admin");
  assert.equal(listed.key, `brx-${key.slice(4, 8)}…${key.slice(-4)}`);
  assert.ok(!JSON.stringify(list.body).includes(key), "the list never holds the key");
  const [stored] = await app.deps.db.select().from(browserExtensionKeys);
  assert.notEqual(stored.secretHash, key, "only a hash is stored");

  const bad = await app.json<Body>("/api/browser-extension/api-keys/abc", {
    method: "DELETE",
    ...bearer(admin.token),
  });
  assert.equal(bad.status, 400);
  assert.match(String(bad.body.error), /\.$/);
  const revoked = await app.json<Body>(`/api/browser-extension/api-keys/${listed.id}`, {
    method: "DELETE",
    ...bearer(admin.token),
  });
  assert.deepEqual([revoked.status, revoked.body.success], [200, true]);
  const again = await app.json<Body>(`/api/browser-extension/api-keys/${listed.id}`, {
    method: "DELETE",
    ...bearer(admin.token),
  });
  assert.equal(again.status, 404);
  assert.equal(again.body.error, "That browser extension key does not exist.");
  const check = await app.json<Body>("/api/browser-extension/check", keyed(key));
  assert.equal(check.status, 403, "a revoked key no longer works");
  assert.deepEqual(check.body, { error: "No valid API key found." });

  const logged = (await events(app)).filter((row) => row.event.startsWith("browser_extension_key_"));
  assert.deepEqual(logged, [
    { event: "browser_extension_key_created", userId: admin.user.id },
    { event: "browser_extension_key_deleted", userId: admin.user.id },
  ]);
});

Deno.test("the extension's calls: a missing, wrong or revoked key is refused; a key sees its owner's workspaces", async () => {
  await using app = await createTestApp();
  const admin = await multiUserInstance(app);
  const atlas = await workspace(app, "Atlas", admin);
  await workspace(app, "Bay", admin);
  const key = await newKey(app, admin);

  for (
    const authorization of [
      undefined,
      "Bearer ",
      "Bearer brx-WRONG",
      "Bearer not-a-brx-key",
      `Bearer ${admin.token}`,
    ]
  ) {
    for (const path of ["check", "workspaces"]) {
      const answer = await app.json<Body>(`/api/browser-extension/${path}`, {
        headers: authorization ? { Authorization: authorization } : {},
      });
      assert.equal(answer.status, 403, `${authorization} ${path}`);
      assert.deepEqual(answer.body, { error: "No valid API key found." });
    }
    const upload = await app.json<Body>("/api/browser-extension/upload-content", {
      headers: authorization ? { Authorization: authorization } : {},
      json: { textContent: "Hello.", metadata: { title: "T" } },
    });
    assert.equal(upload.status, 403);
  }
  assert.equal(await rowCount(app, documents), 0, "nothing stored by refused calls");

  const check = await app.json<Body>("/api/browser-extension/check", keyed(key));
  assert.equal(check.status, 200, JSON.stringify(check.body));
  assert.equal(check.body.connected, true);
  assert.equal(typeof check.body.apiKeyId, "number");
  assert.deepEqual(check.body.workspaces!.map((row) => row.name), ["Atlas", "Bay"]);
  const list = await app.json<Body>("/api/browser-extension/workspaces", keyed(key));
  assert.deepEqual(list.body.workspaces!.map((row) => row.id), check.body.workspaces!.map((row) => row.id));
  assert.equal(list.body.workspaces![0].id, atlas.id);

  // The key acts as its owner: demoted to a default user, it sees only the workspaces it is a member of (the
  // ones it made, not Cove) and may not store documents; suspended, it gets 401.
  const ada = await addUser(app, admin, "ada", "admin");
  await workspace(app, "Cove", ada);
  const before = await app.json<Body>("/api/browser-extension/workspaces", keyed(key));
  assert.deepEqual(before.body.workspaces!.map((row) => row.name), ["Atlas", "Bay", "Cove"]);
  const demoted = await app.json(`/api/admin/user/${admin.user.id}`, {
    json: { role: "default" },
    ...bearer(ada.token),
  });
  assert.equal(demoted.status, 200, JSON.stringify(demoted.body));
  const narrowed = await app.json<Body>("/api/browser-extension/workspaces", keyed(key));
  assert.deepEqual(narrowed.body.workspaces!.map((row) => row.name), ["Atlas", "Bay"]);
  const refused = await app.json<Body>(
    "/api/browser-extension/upload-content",
    keyed(key, { json: { textContent: "Hello.", metadata: { title: "T" } } }),
  );
  assert.equal(refused.status, 403);
  assert.equal(refused.body.error, "You do not have permission to do that.");
  await app.deps.db.update(users).set({ suspended: 1 }).where(eq(users.id, admin.user.id));
  const suspended = await app.json<Body>("/api/browser-extension/check", keyed(key));
  assert.equal(suspended.status, 401);
  assert.deepEqual(suspended.body, { error: "User is suspended from system." });

  // Disconnecting from the extension revokes its own key.
  const other = await newKey(
    app,
    (await app.json<{ token: string }>("/api/request-token", {
      json: { username: "ada", password: "ada-password" },
    })).body as unknown as Session,
  );
  const gone = await app.json<Body>("/api/browser-extension/disconnect", keyed(other, { method: "DELETE" }));
  assert.deepEqual([gone.status, gone.body.success], [200, true]);
  assert.equal((await app.json("/api/browser-extension/check", keyed(other))).status, 403);
});

Deno.test("the extension's upload lands a document; embed-content embeds it into a workspace the key may see", async () => {
  await using app = await createTestApp({ env: { MAX_UPLOAD_MB: "1" } });
  const atlas = await workspace(app, "Atlas");
  const key = await newKey(app);

  const saved = await app.json<Body>(
    "/api/browser-extension/upload-content",
    keyed(key, {
      json: {
        textContent: "The harbour opens at seven.",
        metadata: { title: "Harbour", url: "https://example.org/h" },
      },
    }),
  );
  assert.deepEqual([saved.status, saved.body], [200, { success: true }]);
  const [row] = await app.deps.db.select().from(documents);
  assert.equal(row.title, "harbour.txt");
  assert.equal(await rowCount(app, workspaceDocuments), 0, "upload-content only stores");

  const embedded = await app.json<Body>(
    "/api/browser-extension/embed-content",
    keyed(key, {
      json: {
        workspaceId: String(atlas.id),
        textContent: "Tides turn twice a day.",
        metadata: { title: "" },
      },
    }),
  );
  assert.deepEqual([embedded.status, embedded.body], [200, { success: true }], JSON.stringify(embedded.body));
  const docs = await app.json<{ workspace: { documents: { docpath: string }[] } }>(
    `/api/workspace/${atlas.slug}`,
  );
  assert.equal(docs.body.workspace.documents.length, 1);
  assert.equal(await rowCount(app, documents), 2);

  const cases: [unknown, number, RegExp][] = [
    [{ workspaceId: 999, textContent: "x", metadata: { title: "x" } }, 404, /^Workspace not found\.$/],
    [{ workspaceId: "abc", textContent: "x", metadata: { title: "x" } }, 400, /workspaceId must be the id/],
    [{ workspaceId: atlas.id, textContent: "", metadata: { title: "x" } }, 400, /textContent must be/],
    ["{not json", 400, /not valid JSON/],
  ];
  for (const [json, status, error] of cases) {
    const answer = await app.json<Body>("/api/browser-extension/embed-content", keyed(key, { json }));
    assert.equal(answer.status, status, JSON.stringify(answer.body));
    assert.equal(answer.body.success, false);
    assert.match(String(answer.body.error), error);
  }
  const huge = await app.json<Body>(
    "/api/browser-extension/upload-content",
    keyed(key, { json: { textContent: "a".repeat(2 * 1024 * 1024), metadata: { title: "Big" } } }),
  );
  assert.equal(huge.status, 413);
  assert.match(String(huge.body.error), /too large.*\.$/);
  assert.equal(await rowCount(app, documents), 2, "refused pages are not stored");

  const logged = (await events(app)).map((entry) => entry.event);
  assert.equal(logged.filter((name) => name === "document_uploaded").length, 2);
  assert.ok(logged.includes("workspace_documents_added"));
});

Deno.test("embed-content whose embedding fails leaves nothing behind and answers a sentence", async () => {
  await using app = await createTestApp({
    providers: {
      embedder: () => {
        throw new ProviderError("The embedder is down.");
      },
    },
  });
  const atlas = await workspace(app, "Atlas");
  const key = await newKey(app);
  const answer = await app.json<Body>(
    "/api/browser-extension/embed-content",
    keyed(key, { json: { workspaceId: atlas.id, textContent: "Words.", metadata: { title: "W" } } }),
  );
  assert.equal(answer.status, 502);
  assert.equal(
    answer.body.error,
    'The page could not be embedded into the workspace "Atlas" (The embedder is down).',
  );
  assert.equal(await rowCount(app, documents), 0);
});

Deno.test("the extension's calls come from its own origin: not refused by the origin guard, CORS for extensions", async () => {
  await using app = await createTestApp();
  const key = await newKey(app);
  const origin = "chrome-extension://abcdefghijklmnopabcdefghijklmnop";
  const preflight = await app.request("/api/browser-extension/upload-content", {
    method: "OPTIONS",
    headers: { Origin: origin, "Access-Control-Request-Method": "POST" },
  });
  assert.equal(preflight.status, 204);
  assert.equal(preflight.headers.get("access-control-allow-origin"), origin);
  const saved = await app.request("/api/browser-extension/upload-content", {
    method: "POST",
    headers: { Origin: origin, Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
    body: JSON.stringify({ textContent: "From the extension.", metadata: { title: "Ext" } }),
  });
  assert.equal(saved.status, 200, await saved.clone().text());
  assert.equal(saved.headers.get("access-control-allow-origin"), origin);
  // A web site gets no CORS answer, and the screen's calls keep the origin guard.
  const site = await app.request("/api/browser-extension/check", {
    headers: { Origin: "http://127.0.0.1:9", Authorization: `Bearer ${key}` },
  });
  assert.equal(site.headers.get("access-control-allow-origin"), null);
  // A web page cannot make the extension's calls through a visitor's browser, even with a key.
  const fromSite = await app.request("/api/browser-extension/upload-content", {
    method: "POST",
    headers: { Origin: "https://evil.test", Authorization: `Bearer ${key}` },
    body: JSON.stringify({ textContent: "Planted.", metadata: { title: "Planted" } }),
  });
  assert.equal(fromSite.status, 403);
  assert.match((await fromSite.json()).error, /^Requests from other web sites are refused/);
  assert.equal(await rowCount(app, documents), 1, "only the extension's page was stored");
  const screen = await app.request("/api/browser-extension/api-keys/new", {
    method: "POST",
    headers: { Origin: origin },
  });
  assert.equal(screen.status, 403);
});
