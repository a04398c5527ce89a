import assert from "node:assert/strict";
import { passwordProblem, RULES, usernameProblem } from "./validation.ts";

Deno.test("usernameProblem() names the first rule a username breaks: length, then characters", () => {
  assert.equal(usernameProblem(""), "users.validation.usernameTooShort");
  assert.equal(usernameProblem("a"), "users.validation.usernameTooShort");
  assert.equal(usernameProblem("ab"), null);
  assert.equal(usernameProblem("a".repeat(64)), null);
  assert.equal(usernameProblem("a".repeat(65)), "users.validation.usernameTooLong");
  for (const bad of ["Alice", "al ice", "al.ice", "alicé", "al@ice"]) {
    assert.equal(usernameProblem(bad), "users.validation.usernameCharacters", bad);
  }
  for (const good of ["alice", "al_ice", "al-ice", "a1", "0_-"]) {
    assert.equal(usernameProblem(good), null, good);
  }
  assert.equal(usernameProblem("A"), "users.validation.usernameTooShort", "length is checked first");
});

Deno.test("passwordProblem() holds a password to 8 to 256 characters", () => {
  assert.equal(passwordProblem(""), "users.validation.passwordTooShort");
  assert.equal(passwordProblem("1234567"), "users.validation.passwordTooShort");
  assert.equal(passwordProblem("12345678"), null);
  assert.equal(passwordProblem("x".repeat(256)), null);
  assert.equal(passwordProblem("x".repeat(257)), "users.validation.passwordTooLong");
});

Deno.test("RULES gives the i18n texts the limits the rules check", () => {
  assert.deepEqual(RULES, { usernameMin: 2, usernameMax: 64, passwordMin: 8, passwordMax: 256 });
});
