import assert from "node:assert/strict";
import { keepsReturnedSession, passwordFormState } from "./rules.ts";

Deno.test("passwordFormState() checks the password only while protection is on", () => {
  assert.deepEqual(passwordFormState(true, false, "short"), {
    problem: "users.validation.passwordTooShort",
    unchanged: false,
  });
  assert.deepEqual(passwordFormState(true, true, "long enough"), { problem: null, unchanged: false });
  assert.deepEqual(passwordFormState(false, true, "x"), { problem: null, unchanged: false }, "removing it");
});

Deno.test("passwordFormState() has nothing to save when protection stays off", () => {
  assert.deepEqual(passwordFormState(false, false, ""), { problem: null, unchanged: true });
});

Deno.test("keepsReturnedSession() keeps the session only when password login is off and one came back", () => {
  const answer = { token: "t", user: { id: 1 } };
  assert.equal(keepsReturnedSession(true, answer), true);
  assert.equal(keepsReturnedSession(false, answer), false);
  assert.equal(keepsReturnedSession(true, { token: null, user: { id: 1 } }), false);
  assert.equal(keepsReturnedSession(true, { token: "t", user: null }), false);
  assert.equal(keepsReturnedSession(true, {}), false);
});
