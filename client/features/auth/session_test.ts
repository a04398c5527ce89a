import assert from "node:assert/strict";
import { formLogin, loginCredentials, safeRedirect, validLogin } from "./session.ts";

const ORIGIN = "http://127.0.0.1:3001";

Deno.test("safeRedirect() keeps a path of this site with its query and fragment", () => {
  assert.equal(safeRedirect("/workspace/notes?x=1#top", ORIGIN), "/workspace/notes?x=1#top");
  assert.equal(safeRedirect("/", ORIGIN), "/");
  assert.equal(safeRedirect("/settings/../workspace/a", ORIGIN), "/workspace/a");
});

Deno.test("open redirect: safeRedirect() refuses every target the browser would take off this site", () => {
  const hostile = [
    "//attacker.test",
    "/\\attacker.test",
    "\\/attacker.test",
    "/\t/attacker.test", // a tab is dropped by the URL parser: "//attacker.test"
    "/\n/attacker.test", // so is a newline (what "?redirectTo=/%0A/attacker.test" decodes to)
    "/\r\n/attacker.test",
    "/\\\\attacker.test",
    "/.//attacker.test", // dot segments resolve to "//attacker.test"
    "/..//attacker.test",
    "/a/..//attacker.test",
    "/./\\attacker.test",
    " //attacker.test",
    "https://attacker.test/",
    "javascript:alert(1)",
    "attacker.test",
    "",
    null,
    undefined,
  ];
  for (const target of hostile) assert.equal(safeRedirect(target, ORIGIN), "/", JSON.stringify(target));
});

const USER = {
  id: 1,
  username: "admin",
  pfpFilename: null,
  role: "admin" as const,
  suspended: 0,
  seen_recovery_codes: true,
  createdAt: "2026-01-01T00:00:00.000Z",
  lastUpdatedAt: "2026-01-01T00:00:00.000Z",
  dailyMessageLimit: null,
  bio: "",
  preferredLanguage: "en",
};
const VALID = { valid: true, user: USER, token: "tok", message: null };

Deno.test("validLogin() accepts a valid answer with a token", () => {
  assert.deepEqual(validLogin(VALID, "fallback"), VALID);
  assert.deepEqual(validLogin({ ...VALID, user: null, recoveryCodes: ["a", "b"] }, "fallback"), {
    ...VALID,
    user: null,
    recoveryCodes: ["a", "b"],
  });
});

Deno.test("validLogin() throws the server's message, a text body, else the fallback", () => {
  assert.throws(
    () =>
      validLogin({ ...VALID, valid: false, token: null, message: "[001] Invalid login credentials." }, "f"),
    {
      message: "[001] Invalid login credentials.",
    },
  );
  assert.throws(() => validLogin({ ...VALID, token: null }, "fallback"), { message: "fallback" });
  assert.throws(() => validLogin({ ...VALID, valid: false, message: null }, "fallback"), {
    message: "fallback",
  });
  assert.throws(() => validLogin("  Too many requests \n", "fallback"), { message: "Too many requests" });
  for (const body of [null, "", "   ", { valid: "yes" }, 42]) {
    assert.throws(() => validLogin(body, "fallback"), { message: "fallback" }, JSON.stringify(body));
  }
});

Deno.test("loginCredentials() sends the password alone in single-user mode, else the trimmed username too", () => {
  assert.deepEqual(loginCredentials("single", "ignored", " pw "), { password: " pw " });
  assert.deepEqual(loginCredentials("multi", "  dora ", " pw "), { username: "dora", password: " pw " });
});

Deno.test("formLogin() needs the user in multi-user mode only", () => {
  const noUser = { ...VALID, user: null };
  assert.deepEqual(formLogin("single", noUser, "fallback"), noUser);
  assert.throws(() => formLogin("multi", noUser, "fallback"), { message: "fallback" });
  assert.throws(() => formLogin("multi", { ...noUser, message: "No user." }, "fallback"), {
    message: "No user.",
  });
  assert.deepEqual(formLogin("multi", VALID, "fallback"), VALID);
  assert.throws(() => formLogin("single", { ...VALID, valid: false }, "fallback"), { message: "fallback" });
});
