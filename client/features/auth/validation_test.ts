import assert from "node:assert/strict";
import { PASSWORD_MIN_LENGTH, USERNAME_MIN_LENGTH, USERNAME_PATTERN, usernameProblem } from "./validation.ts";

Deno.test("usernameProblem() holds a username to the given minimum length first", () => {
  assert.equal(usernameProblem("abcde", 6), "invite.errors.usernameTooShort");
  assert.equal(usernameProblem("", 2), "invite.errors.usernameTooShort");
  assert.equal(usernameProblem("abcdef", 6), null);
  assert.equal(usernameProblem("ABC", 6), "invite.errors.usernameTooShort", "length before characters");
});

Deno.test("usernameProblem() allows lowercase letters, digits, _ and - only", () => {
  for (const bad of ["Abcdef", "abc def", "abc.def", "abcdé!"]) {
    assert.equal(usernameProblem(bad, 2), "invite.errors.usernameCharacters", bad);
  }
  assert.equal(usernameProblem("a_b-c9", 2), null);
});

Deno.test("the shared limits are those of the server", () => {
  assert.equal(USERNAME_MIN_LENGTH, 2);
  assert.equal(PASSWORD_MIN_LENGTH, 8);
  assert.equal(USERNAME_PATTERN.test("ok_1-"), true);
  assert.equal(USERNAME_PATTERN.test("Not"), false);
});
