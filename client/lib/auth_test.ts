import assert from "node:assert/strict";
import { json, MemoryStorage, stubFetch, stubStorage } from "../testing/stubs.ts";
import {
  AUTH_RECHECK_MS,
  type AuthEnvironment,
  browserEnvironment,
  checkAuth,
  clearSession,
  guardAllows,
  readSession,
  resetToken,
  type StoredUser,
  storeSession,
  updateStoredUser,
} from "./auth.ts";
import { STORAGE_KEYS } from "./storage.ts";

const NOW = 1_700_000_000_000;
const ADMIN: StoredUser = { id: 1, username: "admin", role: "admin" };
const OPEN = { MultiUserMode: false, RequiresAuth: false, LLMProvider: "openai", VectorDB: "lancedb" };
const MULTI = { ...OPEN, MultiUserMode: true, RequiresAuth: true };

function environment(
  setup: Awaited<ReturnType<AuthEnvironment["setup"]>>,
  options: { token?: string; user?: unknown; checkedAt?: number; tokenValid?: boolean; fresh?: StoredUser } =
    {},
) {
  const store = new MemoryStorage();
  if (options.token) store.setItem(STORAGE_KEYS.token, options.token);
  if (options.user !== undefined) {
    store.setItem(
      STORAGE_KEYS.user,
      typeof options.user === "string" ? options.user : JSON.stringify(options.user),
    );
  }
  if (options.checkedAt !== undefined) store.setItem(STORAGE_KEYS.authTimestamp, String(options.checkedAt));
  const calls: string[] = [];
  const env: AuthEnvironment = {
    setup: () => Promise.resolve(setup),
    checkToken: () => {
      calls.push("check-token");
      return Promise.resolve(options.tokenValid ?? true);
    },
    refreshUser: () => {
      calls.push("refresh-user");
      return Promise.resolve(options.fresh ?? null);
    },
    store,
    now: () => NOW,
  };
  return { env, store, calls };
}

Deno.test("checkAuth() lets everyone into a configured open instance and sends an unconfigured one to onboarding", async () => {
  assert.deepEqual(await checkAuth(environment(OPEN).env), {
    state: "authenticated",
    multiUser: false,
    user: null,
  });
  assert.deepEqual(await checkAuth(environment({ ...OPEN, LLMProvider: null }).env), {
    state: "needsOnboarding",
  });
  assert.deepEqual(await checkAuth(environment({ ...OPEN, VectorDB: null }).env), {
    state: "needsOnboarding",
  });
});

Deno.test("checkAuth() in multi-user mode clears a session without a user, token or readable user", async () => {
  for (
    const options of [{ token: "t" }, { user: ADMIN, checkedAt: NOW }, { token: "t", user: "{not json" }]
  ) {
    const { env, store } = environment(MULTI, { ...options, checkedAt: NOW });
    assert.deepEqual(await checkAuth(env), { state: "unauthenticated" });
    assert.equal(store.length, 0, JSON.stringify(options));
  }
});

Deno.test("checkAuth() trusts a session checked within 5 minutes and checks an older one again", async () => {
  const recent = environment(MULTI, { token: "t", user: ADMIN, checkedAt: NOW - AUTH_RECHECK_MS });
  assert.deepEqual(await checkAuth(recent.env), { state: "authenticated", multiUser: true, user: ADMIN });
  assert.deepEqual(recent.calls, []);

  const renamed = { ...ADMIN, username: "root" };
  const old = environment(MULTI, {
    token: "t",
    user: ADMIN,
    checkedAt: NOW - AUTH_RECHECK_MS - 1,
    fresh: renamed,
  });
  assert.deepEqual(await checkAuth(old.env), { state: "authenticated", multiUser: true, user: renamed });
  assert.deepEqual(old.calls, ["check-token", "refresh-user"]);
  assert.deepEqual(readSession(old.store), { token: "t", user: renamed, checkedAt: NOW });
});

Deno.test("checkAuth() forgets a refused token; single-user mode checks the token only", async () => {
  const refused = environment(MULTI, { token: "t", user: ADMIN, tokenValid: false });
  assert.deepEqual(await checkAuth(refused.env), { state: "unauthenticated" });
  assert.equal(refused.store.length, 0);

  const password = { ...OPEN, RequiresAuth: true };
  assert.deepEqual(await checkAuth(environment(password).env), { state: "unauthenticated" });
  const single = environment(password, { token: "t" });
  assert.deepEqual(await checkAuth(single.env), { state: "authenticated", multiUser: false, user: null });
  assert.deepEqual(single.calls, ["check-token"]);
});

Deno.test("guardAllows() follows docs/api-compat.md#page-routes-and-page-guards", () => {
  const as = (role: StoredUser["role"]) => ({ ...ADMIN, role });
  assert.equal(guardAllows("admin", true, as("admin")), true);
  assert.equal(guardAllows("admin", true, as("manager")), false);
  assert.equal(guardAllows("adminOrManager", true, as("manager")), true);
  assert.equal(guardAllows("adminOrManager", true, as("default")), false);
  assert.equal(guardAllows("any", true, as("default")), true);
  assert.equal(guardAllows("admin", false, null), true, "without multi-user mode everyone passes");
  assert.equal(guardAllows("adminOrManager", false, null), true);
});

Deno.test("checkAuth() forgets a multi-user session whose user the server no longer knows", async () => {
  const gone = environment(MULTI, { token: "t", user: ADMIN, checkedAt: NOW - AUTH_RECHECK_MS - 1 });
  assert.deepEqual(await checkAuth(gone.env), { state: "unauthenticated" });
  assert.deepEqual(gone.calls, ["check-token", "refresh-user"]);
  assert.equal(gone.store.length, 0);
});

Deno.test("checkAuth() checks again a session stamped in the future or never stamped", async () => {
  for (const checkedAt of [NOW + 1000, undefined]) {
    const odd = environment(MULTI, { token: "t", user: ADMIN, checkedAt, fresh: ADMIN });
    assert.deepEqual(await checkAuth(odd.env), { state: "authenticated", multiUser: true, user: ADMIN });
    assert.deepEqual(odd.calls, ["check-token", "refresh-user"], String(checkedAt));
    assert.equal(readSession(odd.store).checkedAt, NOW);
  }
});

Deno.test("readSession() reads the stored session and drops a user that is not a user", () => {
  const store = new MemoryStorage();
  assert.deepEqual(readSession(store), { token: null, user: null, checkedAt: null });
  assert.deepEqual(readSession(null), { token: null, user: null, checkedAt: null });
  store.setItem(STORAGE_KEYS.token, "t");
  store.setItem(STORAGE_KEYS.user, JSON.stringify({ ...ADMIN, preferredLanguage: "en" }));
  store.setItem(STORAGE_KEYS.authTimestamp, "not a number");
  assert.deepEqual(readSession(store), {
    token: "t",
    user: { ...ADMIN, preferredLanguage: "en" },
    checkedAt: null,
  }, "other profile fields pass through");
  store.setItem(STORAGE_KEYS.user, JSON.stringify({ id: 1, username: "x", role: "superuser" }));
  assert.equal(readSession(store).user, null);
  store.setItem(STORAGE_KEYS.token, "");
  assert.equal(readSession(store).token, null, "an empty token is none");
});

Deno.test("storeSession() stores token, user and time; without a user it removes the stored one", () => {
  const store = new MemoryStorage();
  storeSession({ token: "t1", user: ADMIN }, store, NOW);
  assert.deepEqual(readSession(store), { token: "t1", user: ADMIN, checkedAt: NOW });
  storeSession({ token: "t2" }, store, NOW + 5);
  assert.deepEqual(readSession(store), { token: "t2", user: null, checkedAt: NOW + 5 });
  assert.equal(store.getItem(STORAGE_KEYS.user), null);
  storeSession({ token: "t3" }, null, NOW);
});

Deno.test("updateStoredUser() changes fields of the stored user and stores none when there is none", () => {
  const store = new MemoryStorage();
  updateStoredUser({ username: "ghost" }, store);
  assert.equal(store.length, 0);
  storeSession({ token: "t", user: ADMIN }, store, NOW);
  updateStoredUser({ username: "root", preferredLanguage: "en" }, store);
  assert.deepEqual(readSession(store).user, { ...ADMIN, username: "root", preferredLanguage: "en" });
  assert.equal(readSession(store).token, "t");
});

Deno.test("clearSession() removes user, token and time but keeps other keys", () => {
  const store = new MemoryStorage();
  storeSession({ token: "t", user: ADMIN }, store, NOW);
  store.setItem("lectern_questionnaire_completed", "true");
  clearSession(store);
  assert.deepEqual(readSession(store), { token: null, user: null, checkedAt: null });
  assert.equal(store.length, 1);
});

Deno.test("resetToken keeps the forgot-password token between the two forms", () => {
  const store = new MemoryStorage();
  assert.equal(resetToken.read(store), null);
  resetToken.store("reset-1", store);
  assert.equal(store.getItem(STORAGE_KEYS.resetToken), "reset-1");
  assert.equal(resetToken.read(store), "reset-1");
  resetToken.clear(store);
  assert.equal(resetToken.read(store), null);
});

Deno.test("browserEnvironment() reads a refused token or user as none and throws when the server fails", async () => {
  using _storage = stubStorage();
  const env = browserEnvironment();
  const answers: Record<string, Response> = {};
  using fetch = stubFetch((request) => answers[request.url]);

  answers["/api/setup-complete"] = json({
    results: { MultiUserMode: true, RequiresAuth: true, LLMProvider: "openai", VectorDB: null },
  });
  assert.deepEqual(await env.setup(), {
    MultiUserMode: true,
    RequiresAuth: true,
    LLMProvider: "openai",
    VectorDB: null,
  });

  for (const [status, valid] of [[200, true], [401, false], [403, false]] as const) {
    answers["/api/system/check-token"] = json({}, status);
    assert.equal(await env.checkToken(), valid, String(status));
  }
  answers["/api/system/check-token"] = json({ error: "boom" }, 500);
  await assert.rejects(env.checkToken(), { status: 500, message: "boom" });

  const full = {
    ...ADMIN,
    pfpFilename: null,
    suspended: 0,
    seen_recovery_codes: true,
    createdAt: "2026-01-01",
    lastUpdatedAt: "2026-01-01",
    dailyMessageLimit: null,
    bio: "",
    preferredLanguage: "en",
  };
  answers["/api/system/refresh-user"] = json({ success: true, user: full, message: null });
  assert.deepEqual(await env.refreshUser(), full);
  answers["/api/system/refresh-user"] = json({ success: false, user: null, message: "Suspended" });
  assert.equal(await env.refreshUser(), null);
  answers["/api/system/refresh-user"] = json({ error: "Invalid token" }, 401);
  assert.equal(await env.refreshUser(), null);
  answers["/api/system/refresh-user"] = json({ error: "down" }, 502);
  await assert.rejects(env.refreshUser(), { status: 502 });
  assert.ok(fetch.requests.length >= 9);
});
