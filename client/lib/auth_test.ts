import assert from "node:assert/strict";
import {
  AUTH_RECHECK_MS,
  type AuthEnvironment,
  checkAuth,
  guardAllows,
  readSession,
  type StoredUser,
} from "./auth.ts";
import { STORAGE_KEYS } from "./storage.ts";

class MemoryStorage implements Storage {
  #items = new Map<string, string>();
  get length() {
    return this.#items.size;
  }
  clear() {
    this.#items.clear();
  }
  getItem(key: string) {
    return this.#items.get(key) ?? null;
  }
  key(index: number) {
    return [...this.#items.keys()][index] ?? null;
  }
  removeItem(key: string) {
    this.#items.delete(key);
  }
  setItem(key: string, value: string) {
    this.#items.set(key, String(value));
  }
}

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
