import assert from "node:assert/strict";
import type { User } from "../../../../shared/api/auth.ts";
import type { Role } from "../../../../shared/roles.ts";
import { assignableRoles, displayName, isAdmin, mayManage, rowControls } from "./permissions.ts";

let nextId = 1;
function user(role: Role, changes: Partial<User> = {}): User {
  return {
    id: nextId++,
    username: `${role}${nextId}`,
    pfpFilename: null,
    role,
    suspended: 0,
    seen_recovery_codes: true,
    createdAt: "2026-01-01T00:00:00.000Z",
    lastUpdatedAt: "2026-01-01T00:00:00.000Z",
    dailyMessageLimit: null,
    bio: "",
    preferredLanguage: "en",
    ...changes,
  };
}

Deno.test("assignableRoles() offers an admin every role and a manager all but admin, in picker order", () => {
  assert.deepEqual(assignableRoles(user("admin")), ["default", "manager", "admin"]);
  assert.deepEqual(assignableRoles(user("manager")), ["default", "manager"]);
});

Deno.test("mayManage() lets an admin manage anyone and a manager anyone but an admin", () => {
  const admin = user("admin");
  const manager = user("manager");
  for (const role of ["admin", "manager", "default"] as const) {
    assert.equal(mayManage(admin, user(role)), true);
  }
  assert.equal(mayManage(manager, user("admin")), false);
  assert.equal(mayManage(manager, user("manager")), true);
  assert.equal(mayManage(manager, user("default")), true);
  assert.equal(mayManage(user("default"), user("default")), false);
});

Deno.test("isAdmin() is true for admins only", () => {
  assert.deepEqual(["admin", "manager", "default"].map((role) => isAdmin(user(role as Role))), [
    true,
    false,
    false,
  ]);
});

Deno.test("displayName() is the username, else #id", () => {
  assert.equal(displayName(user("default", { id: 7, username: "dora" })), "dora");
  assert.equal(displayName(user("default", { id: 7, username: null })), "#7");
});

Deno.test("rowControls() offers no managing controls on one's own row", () => {
  const admin = user("admin");
  assert.deepEqual(rowControls(admin, admin, true), {
    manage: false,
    resetPassword: true,
    loginLink: false,
    adminOnlyNote: false,
  });
});

Deno.test("rowControls() gives an admin every control on another account, a login link only when issued", () => {
  const admin = user("admin");
  const other = user("default");
  assert.deepEqual(rowControls(admin, other, true), {
    manage: true,
    resetPassword: true,
    loginLink: true,
    adminOnlyNote: false,
  });
  assert.equal(rowControls(admin, other, false).loginLink, false, "simple SSO off");
  assert.equal(rowControls(admin, user("default", { suspended: 1 }), true).loginLink, false, "suspended");
});

Deno.test("rowControls() keeps a manager off admins and off passwords and login links", () => {
  const manager = user("manager");
  assert.deepEqual(rowControls(manager, user("admin"), true), {
    manage: false,
    resetPassword: false,
    loginLink: false,
    adminOnlyNote: true,
  });
  assert.deepEqual(rowControls(manager, user("default"), true), {
    manage: true,
    resetPassword: false,
    loginLink: false,
    adminOnlyNote: false,
  });
});
