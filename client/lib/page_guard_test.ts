import assert from "node:assert/strict";
import { MemoryStorage, stubDocument, stubFetch, stubLocation, stubStorage } from "../testing/stubs.ts";
import { api, onUnauthorized } from "./api.ts";
import type { AuthDecision } from "./auth.ts";
import { guardPage, pageGuard } from "./page_guard.ts";
import { STORAGE_KEYS } from "./storage.ts";

const ADMIN = { id: 1, username: "admin", role: "admin" as const };
const MANAGER = { id: 2, username: "manny", role: "manager" as const };
const DEFAULT = { id: 3, username: "dora", role: "default" as const };

/** A page with `guard` on <html>, a location that records where it is sent, and empty storage. */
function page(guard?: string) {
  const document = stubDocument(
    `<!doctype html><html${
      guard === undefined ? "" : ` data-guard="${guard}"`
    }><body><main></main></body></html>`,
  );
  const location = stubLocation("http://127.0.0.1:3001/settings/users");
  const storage = stubStorage();
  const root = document.document.documentElement;
  return {
    root,
    location,
    storage,
    [Symbol.dispose]() {
      onUnauthorized(null);
      storage();
      location();
      document();
    },
  };
}

const decided = (decision: AuthDecision) => () => Promise.resolve(decision);

Deno.test("pageGuard() reads <html data-guard>, and a missing or unknown guard counts as public", () => {
  for (const guard of ["public", "any", "adminOrManager", "admin"]) {
    using view = page(guard);
    assert.equal(pageGuard(), guard, guard);
    assert.ok(view.root);
  }
  for (const guard of [undefined, "", "superuser"]) {
    using _view = page(guard);
    assert.equal(pageGuard(), "public", String(guard));
  }
});

Deno.test("guardPage() lets a public page show without asking who the visitor is", async () => {
  using view = page("public");
  let asked = false;
  const outcome = await guardPage("public", () => {
    asked = true;
    return Promise.reject(new Error("never"));
  });
  assert.deepEqual(outcome, { proceed: true, problem: null });
  assert.equal(asked, false);
  assert.deepEqual(view.location.visits, []);
});

Deno.test("guardPage() sends the visitor to the login, onboarding or home, and keeps the page hidden", async () => {
  const cases: [AuthDecision, "any" | "admin" | "adminOrManager", string][] = [
    [{ state: "unauthenticated" }, "any", "/login"],
    [{ state: "needsOnboarding" }, "any", "/onboarding"],
    [{ state: "authenticated", multiUser: true, user: MANAGER }, "admin", "/"],
    [{ state: "authenticated", multiUser: true, user: DEFAULT }, "adminOrManager", "/"],
  ];
  for (const [decision, guard, to] of cases) {
    using view = page(guard);
    const outcome = await guardPage(guard, decided(decision));
    assert.deepEqual(outcome, { proceed: false }, `${decision.state} ${guard}`);
    assert.deepEqual(view.location.visits, [{ how: "replace", to }]);
    assert.equal(view.root.dataset.auth, undefined, "the page stays behind the spinner");
  }
});

Deno.test("guardPage() shows an allowed page and marks the visitor's role for the menus", async () => {
  const cases: [AuthDecision, string][] = [
    [{ state: "authenticated", multiUser: true, user: ADMIN }, "admin"],
    [{ state: "authenticated", multiUser: true, user: MANAGER }, "manager"],
    [{ state: "authenticated", multiUser: true, user: null }, "default"],
    [{ state: "authenticated", multiUser: false, user: null }, "owner"],
  ];
  for (const [decision, role] of cases) {
    using view = page("any");
    assert.deepEqual(await guardPage("any", decided(decision)), { proceed: true, problem: null });
    assert.equal(view.root.dataset.role, role);
    assert.equal(view.root.dataset.auth, "ok");
    assert.deepEqual(view.location.visits, []);
  }
});

Deno.test("guardPage() announces the check while it runs and removes the announcement after", async () => {
  using view = page("any");
  let answer!: (decision: AuthDecision) => void;
  const pending = guardPage("any", () => new Promise((resolve) => answer = resolve));
  const status = view.root.querySelector(".auth-status");
  assert.ok(status, "a status line is shown");
  assert.equal(status.getAttribute("role"), "status");
  assert.equal(status.textContent, "Checking your sign-in...");
  assert.equal(view.root.dataset.auth, undefined);
  answer({ state: "authenticated", multiUser: false, user: null });
  await pending;
  assert.equal(view.root.querySelector(".auth-status"), null);
});

Deno.test("guardPage() shows the page with the problem when the check cannot reach the server", async () => {
  using view = page("admin");
  const outcome = await guardPage("admin", () => Promise.reject(new Error("Cannot reach the server.")));
  assert.deepEqual(outcome, {
    proceed: true,
    problem: "Could not check your sign-in: Cannot reach the server.",
  });
  assert.equal(view.root.dataset.auth, "ok");
  assert.equal(view.root.dataset.role, undefined, "no role is assumed");
  assert.equal(view.root.querySelector(".auth-status"), null);
});

Deno.test("guardPage() makes a later 401 end the session: storage cleared, off to the login", async () => {
  using view = page("any");
  const store = new MemoryStorage();
  store.setItem(STORAGE_KEYS.token, "expired");
  store.setItem(STORAGE_KEYS.user, JSON.stringify(ADMIN));
  store.setItem(STORAGE_KEYS.authTimestamp, "1");
  using _storage = stubStorage(store);
  await guardPage("any", decided({ state: "authenticated", multiUser: true, user: ADMIN }));
  using _fetch = stubFetch(() => new Response(JSON.stringify({ error: "Invalid token" }), { status: 401 }));
  await assert.rejects(api("/workspaces"), { status: 401 });
  assert.equal(store.length, 0);
  assert.deepEqual(view.location.visits, [{ how: "replace", to: "/login" }]);
});
