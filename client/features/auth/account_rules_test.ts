import assert from "node:assert/strict";
import { accountProblems, initials } from "./account_rules.ts";

Deno.test("initials() takes the username's first two characters, else AA", () => {
  assert.equal(initials("dora"), "do");
  assert.equal(initials("  x "), "x");
  assert.equal(initials(""), "AA");
  assert.equal(initials("   "), "AA");
  assert.equal(initials(null), "AA");
  assert.equal(initials(undefined), "AA");
});

Deno.test("accountProblems() checks the username by the server's rules, with its messages", () => {
  assert.deepEqual(accountProblems("dora", ""), { username: null, password: null });
  assert.deepEqual(accountProblems("  dora  ", ""), { username: null, password: null }, "trimmed first");
  assert.equal(accountProblems("d", "").username, "Username must be at least 2 characters.");
  assert.equal(
    accountProblems("Dora", "").username,
    "Username can only contain lowercase letters, numbers, underscores and hyphens.",
  );
  assert.equal(accountProblems("d".repeat(65), "").username, "Username must be at most 64 characters.");
});

Deno.test("accountProblems() checks a new password only when one was typed", () => {
  assert.equal(accountProblems("dora", "").password, null, "empty: the password stays");
  assert.equal(accountProblems("dora", "short").password, "Password must be at least 8 characters.");
  assert.equal(accountProblems("dora", "x".repeat(257)).password, "Password must be at most 256 characters.");
  assert.equal(accountProblems("dora", "long enough").password, null);
});

Deno.test("the hand-written account checks answer as the server's schemas do", async () => {
  const { Password, Username } = await import("../../../shared/api/auth.ts");
  const { passwordProblem, usernameProblem } = await import("./account_rules.ts");
  const first = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
    result.success ? null : result.error?.issues[0]?.message ?? null;
  const names = [
    "",
    " ",
    "d",
    "do",
    " dora ",
    "Dora",
    "d-o_r4",
    "d".repeat(64),
    "d".repeat(65),
    "D".repeat(65),
    "a b",
  ];
  for (const name of names) assert.equal(usernameProblem(name), first(Username.safeParse(name)), name);
  const passwords = ["", "short", "x".repeat(8), " ".repeat(8), "x".repeat(256), "x".repeat(257)];
  for (const password of passwords) {
    assert.equal(passwordProblem(password), first(Password.safeParse(password)), password);
  }
});
