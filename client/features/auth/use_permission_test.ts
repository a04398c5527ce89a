import assert from "node:assert/strict";
import type { StoredUser } from "../../lib/auth.ts";
import { managesWhile } from "./use_can_manage.ts";
import { decisionAllows, storedUserAllows } from "./use_permission.ts";

const as = (role: StoredUser["role"]): StoredUser => ({ id: 1, username: role, role });

Deno.test("decisionAllows() refuses a visitor who is not signed in or must finish onboarding", () => {
  assert.equal(decisionAllows({ state: "unauthenticated" }, "workspace:manage"), false);
  assert.equal(decisionAllows({ state: "needsOnboarding" }, "workspace:manage"), false);
});

Deno.test("decisionAllows() lets the owner of an instance without accounts do everything", () => {
  for (const permission of ["workspace:manage", "settings:manage"] as const) {
    assert.equal(decisionAllows({ state: "authenticated", multiUser: false, user: null }, permission), true);
  }
});

Deno.test("decisionAllows() asks the role in multi-user mode, as the server does", () => {
  const signedIn = (user: StoredUser | null) => ({ state: "authenticated" as const, multiUser: true, user });
  assert.equal(decisionAllows(signedIn(as("admin")), "settings:manage"), true);
  assert.equal(decisionAllows(signedIn(as("manager")), "settings:manage"), false);
  assert.equal(decisionAllows(signedIn(as("manager")), "workspace:manage"), true);
  assert.equal(decisionAllows(signedIn(as("default")), "workspace:manage"), false);
  assert.equal(decisionAllows(signedIn(null), "workspace:manage"), false, "no user: nothing allowed");
});

Deno.test("storedUserAllows() decides by the stored role when the check failed, and allows without a user", () => {
  assert.equal(storedUserAllows(null, "settings:manage"), true);
  assert.equal(storedUserAllows(as("admin"), "settings:manage"), true);
  assert.equal(storedUserAllows(as("manager"), "settings:manage"), false);
  assert.equal(storedUserAllows(as("default"), "workspace:manage"), false);
});

Deno.test("managesWhile() shows managing controls until the permission is known to be refused", () => {
  assert.equal(managesWhile(null), true);
  assert.equal(managesWhile(true), true);
  assert.equal(managesWhile(false), false);
});
