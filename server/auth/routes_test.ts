import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { eventLogs, passwordResetTokens, recoveryCodes, users, workspaceChats } from "../../db/schema.ts";
import { LoginAnswer } from "../../shared/api/auth.ts";
import { createTestApp, genericOpenAiSettings, readFrames } from "../testing/test_app.ts";
import { addUser, bearer, login, multiUserInstance } from "../testing/accounts.ts";
import { startFakeOpenAi } from "../testing/fake_openai.ts";
import { signSession } from "./jwt.ts";

Deno.test("single-user password: set, required, checked, changed and removed", async () => {
  await using app = await createTestApp();
  const short = await app.json("/api/system/update-password", {
    json: { usePassword: true, newPassword: "short" },
  });
  assert.equal(short.status, 400);
  assert.equal(short.body.error, "Password must be at least 8 characters.");

  const set = await app.json<{ success: boolean; token: string }>("/api/system/update-password", {
    json: { usePassword: true, newPassword: "correct horse" },
  });
  assert.equal(set.status, 200);
  assert.equal(set.body.success, true);
  const setup = await app.json<{ results: Record<string, unknown> }>("/api/setup-complete");
  assert.equal(setup.body.results.RequiresAuth, true);
  assert.equal(setup.body.results.MultiUserMode, false);
  assert.ok(!("GenericOpenAiKey" in setup.body.results), "before login only the login screen's fields");
  assert.deepEqual((await app.json("/api/workspaces")).body, { error: "No auth token found." });

  const wrong = await app.json("/api/request-token", { json: { password: "wrong horse" } });
  assert.equal(wrong.status, 401);
  assert.deepEqual(wrong.body, {
    user: null,
    valid: false,
    token: null,
    message: "[003] Invalid password provided",
  });
  const right = await app.json<{ token: string; valid: boolean; user: null }>("/api/request-token", {
    json: { password: "correct horse" },
  });
  assert.equal(right.status, 200);
  LoginAnswer.parse(right.body);
  assert.equal(right.body.user, null);
  assert.equal((await app.json("/api/workspaces", bearer(right.body.token))).status, 200);
  assert.equal((await app.json("/api/system/check-token", bearer(right.body.token))).status, 200);
  const full = await app.json<{ results: Record<string, unknown> }>(
    "/api/setup-complete",
    bearer(right.body.token),
  );
  assert.ok("GenericOpenAiKey" in full.body.results, "an authenticated owner sees all settings");
  const claims = JSON.parse(atob(right.body.token.split(".")[1]));
  assert.deepEqual(Object.keys(claims).sort(), ["exp", "iat", "sub", "ver"], "the token holds no password");

  const changed = await app.json<{ token: string }>("/api/system/update-password", {
    ...bearer(right.body.token),
    json: { usePassword: true, newPassword: "battery staple" },
  });
  assert.equal(changed.status, 200);
  const old = await app.json("/api/workspaces", bearer(right.body.token));
  assert.equal(old.status, 401, "a new password voids the older tokens");
  assert.equal((await app.json("/api/workspaces", bearer(changed.body.token))).status, 200);

  const removed = await app.json("/api/system/update-password", {
    ...bearer(changed.body.token),
    json: { usePassword: false, newPassword: "" },
  });
  assert.equal(removed.status, 200);
  assert.equal((await app.json("/api/workspaces")).status, 200, "the instance is open again");
  const stored = await app.deps.db.select().from(eventLogs);
  assert.ok(stored.some((row) => row.event === "failed_login_invalid_password"));
  assert.ok(stored.some((row) => row.event === "login_event"));
});

Deno.test("enable-multi-user creates the first admin and hands over the single-user chats", async () => {
  await using llm = startFakeOpenAi();
  await using app = await createTestApp();
  await app.json("/api/system/update-env", { json: genericOpenAiSettings(llm.baseURL) });
  await app.json("/api/workspace/new", { json: { name: "Before" } });
  await readFrames(
    await app.request("/api/workspace/before/stream-chat", { method: "POST", body: '{"message":"hi"}' }),
  );

  const bad = await app.json("/api/system/enable-multi-user", {
    json: { username: "A B", password: "admin-password" },
  });
  assert.equal(bad.status, 400);
  assert.equal(
    bad.body.error,
    "Username can only contain lowercase letters, numbers, underscores and hyphens.",
  );
  const admin = await multiUserInstance(app);
  assert.equal(admin.user.role, "admin");
  assert.equal(admin.recoveryCodes?.length, 4);
  const [chat] = await app.deps.db.select().from(workspaceChats);
  assert.equal(chat.userId, admin.user.id);
  const again = await app.json("/api/system/enable-multi-user", {
    ...bearer(admin.token),
    json: { username: "other", password: "other-password" },
  });
  assert.equal(again.status, 400);
  assert.equal(again.body.error, "Multi-user mode is already enabled.");
  assert.deepEqual((await app.json("/api/system/multi-user-mode")).body, { multiUserMode: true });
  const history = await app.json<{ history: unknown[] }>("/api/workspace/before/chats", bearer(admin.token));
  assert.equal(history.body.history.length, 2, "the admin keeps the earlier conversation");
});

Deno.test("multi-user login: the reference's messages, recovery codes once, suspension", async () => {
  await using app = await createTestApp();
  const admin = await multiUserInstance(app);
  for (const code of admin.recoveryCodes ?? []) assert.match(code, /^[0-9a-f-]{36}$/);
  const second = await login(app, "admin", "admin-password");
  assert.equal(second.recoveryCodes, undefined, "codes are shown once");
  const hashes = await app.deps.db.select().from(recoveryCodes);
  assert.equal(hashes.length, 4);
  assert.ok(hashes.every((row) => row.codeHash.startsWith("$argon2id$")));
  const [stored] = await app.deps.db.select().from(users).where(eq(users.username, "admin"));
  assert.ok(stored.password.startsWith("$argon2id$"), "passwords are argon2id hashes");

  const unknown = await app.json("/api/request-token", {
    json: { username: "nobody", password: "whatever-1" },
  });
  assert.equal(unknown.status, 401);
  assert.equal(unknown.body.message, "[001] Invalid login credentials.");
  const wrong = await app.json("/api/request-token", {
    json: { username: "admin", password: "wrong-password" },
  });
  assert.equal(wrong.status, 401);
  assert.equal(wrong.body.message, unknown.body.message, "an unknown user and a wrong password answer alike");
  const empty = await app.json("/api/request-token", { json: {} });
  assert.equal(empty.status, 401);

  const member = await addUser(app, admin, "member", "default");
  await app.json(`/api/admin/user/${member.user.id}`, { ...bearer(admin.token), json: { suspended: true } });
  const suspended = await app.json("/api/request-token", {
    json: { username: "member", password: "member-password" },
  });
  assert.equal(suspended.status, 403);
  assert.equal(suspended.body.message, "[004] Account suspended by admin.");
  const stale = await app.json("/api/workspaces", bearer(member.token));
  assert.equal(stale.status, 401, "a suspension voids the user's sessions");

  const refreshed = await app.json<{ user: { username: string } }>(
    "/api/system/refresh-user",
    bearer(admin.token),
  );
  assert.equal(refreshed.body.user.username, "admin");
  const events = (await app.deps.db.select().from(eventLogs)).map((row) => row.event);
  for (
    const event of [
      "login_event",
      "failed_login_invalid_username",
      "failed_login_invalid_password",
      "failed_login_account_suspended",
      "user_created",
      "user_updated",
    ]
  ) {
    assert.ok(events.includes(event), event);
  }
});

Deno.test("session tokens: tampered, expired, foreign and outdated ones are refused", async () => {
  await using app = await createTestApp();
  const admin = await multiUserInstance(app);
  const member = await addUser(app, admin, "member", "default");
  const tampered = admin.token.slice(0, -4) + (admin.token.endsWith("AAAA") ? "BBBB" : "AAAA");
  assert.deepEqual((await app.json("/api/workspaces", bearer(tampered))).body, {
    error: "Invalid auth token.",
  });
  const expired = await signSession(app.deps.keys.jwt, { sub: String(admin.user.id), ver: 0 }, "-1s");
  assert.equal((await app.json("/api/workspaces", bearer(expired))).status, 401);
  const foreign = await signSession(new Uint8Array(64), { sub: String(admin.user.id), ver: 0 });
  assert.equal((await app.json("/api/workspaces", bearer(foreign))).status, 401);
  const noneAlgorithm = `${btoa('{"alg":"none"}')}.${btoa(`{"sub":"${admin.user.id}","ver":0}`)}.`;
  assert.equal((await app.json("/api/workspaces", bearer(noneAlgorithm))).status, 401);

  await app.json(`/api/admin/user/${member.user.id}`, { ...bearer(admin.token), json: { role: "manager" } });
  assert.equal(
    (await app.json("/api/workspaces", bearer(member.token))).status,
    401,
    "a role change voids sessions",
  );
  const manager = await login(app, "member", "member-password");
  assert.equal(manager.user.role, "manager");
  assert.equal((await app.json("/api/admin/users", bearer(manager.token))).status, 200);
});

Deno.test("login and recovery are rate limited per address and username, and per address", async () => {
  await using app = await createTestApp();
  await multiUserInstance(app);
  const address = (host: string) => ({ remoteAddr: { hostname: host, port: 1, transport: "tcp" } });
  const attempt = (host: string, password: string, username = "admin") =>
    app.request(
      "/api/request-token",
      { method: "POST", body: JSON.stringify({ username, password }) },
      address(host),
    );
  for (let guess = 0; guess < 10; guess++) {
    const answer = await attempt("127.0.0.66", `guess-${guess}`);
    assert.equal(answer.status, 401);
    await answer.body?.cancel();
  }
  const limited = await attempt("127.0.0.66", "admin-password");
  assert.equal(limited.status, 429);
  const body = await limited.json();
  assert.match(String(body.message), /^Too many attempts\. Try again in \d+ minutes?\.$/);
  assert.equal(body.valid, false);
  // The stranger's guesses do not lock the admin out: from the admin's own address the login works.
  const owner = await attempt("127.0.0.1", "admin-password");
  assert.equal(owner.status, 200, "a stranger cannot lock a user out");
  await owner.body?.cancel();

  for (let attempt = 0; attempt < 30; attempt++) {
    await app.request("/api/request-token", {
      method: "POST",
      body: JSON.stringify({ username: `user${attempt}`, password: "whatever-password" }),
    }, address("127.0.0.9"));
  }
  const perAddress = await app.request("/api/request-token", {
    method: "POST",
    body: JSON.stringify({ username: "someone", password: "whatever-password" }),
  }, address("127.0.0.9"));
  assert.equal(perAddress.status, 429);
  const elsewhere = await app.request("/api/request-token", {
    method: "POST",
    body: JSON.stringify({ username: "someone", password: "whatever-password" }),
  }, address("127.0.0.10"));
  assert.equal(elsewhere.status, 401, "another address is not affected");

  for (let attempt = 0; attempt < 5; attempt++) {
    await app.json("/api/system/recover-account", { json: { username: "admin", recoveryCodes: [] } });
  }
  const recovery = await app.json("/api/system/recover-account", {
    json: { username: "admin", recoveryCodes: [] },
  });
  assert.equal(recovery.status, 429);
  const ownRecovery = await app.request("/api/system/recover-account", {
    method: "POST",
    body: JSON.stringify({ username: "admin", recoveryCodes: [] }),
  }, address("127.0.0.1"));
  assert.equal(ownRecovery.status, 400, "recovery from the user's own address is still open");
  await ownRecovery.body?.cancel();
});

Deno.test("account recovery: two codes give a reset token; wrong, reused and expired ones are refused", async () => {
  await using app = await createTestApp();
  const admin = await multiUserInstance(app);
  const codes = admin.recoveryCodes!;
  const recover = (recoveryCodes: string[]) =>
    app.json<{ success: boolean; resetToken?: string; error?: string }>("/api/system/recover-account", {
      json: { username: "admin", recoveryCodes },
    });

  const wrong = await recover([codes[0], crypto.randomUUID()]);
  assert.equal(wrong.status, 400);
  assert.equal(wrong.body.error, "Invalid recovery codes.");
  assert.equal((await recover([codes[0], codes[0]])).status, 400, "one code twice is one code");
  assert.equal((await recover([codes[0]])).status, 400);
  const other = await app.json("/api/system/recover-account", {
    json: { username: "ghost", recoveryCodes: codes.slice(0, 2) },
  });
  assert.equal(other.status, 400);

  const ok = await recover([` ${codes[1]} `, codes[3], ""]);
  assert.equal(ok.status, 200);
  const resetToken = ok.body.resetToken!;
  const reset = (body: Record<string, unknown>) => app.json("/api/system/reset-password", { json: body });
  const mismatch = await reset({
    token: resetToken,
    newPassword: "new-password-1",
    confirmPassword: "new-password-2",
  });
  assert.equal(mismatch.status, 400);
  assert.equal(mismatch.body.error, "Passwords do not match");
  const tooShort = await reset({ token: resetToken, newPassword: "short", confirmPassword: "short" });
  assert.equal(tooShort.body.error, "Password must be at least 8 characters.");
  const badToken = await reset({
    token: "nope",
    newPassword: "new-password-1",
    confirmPassword: "new-password-1",
  });
  assert.equal(badToken.body.error, "Invalid or expired reset token.");

  const done = await reset({
    token: resetToken,
    newPassword: "new-password-1",
    confirmPassword: "new-password-1",
  });
  assert.equal(done.status, 200);
  assert.deepEqual(done.body, { success: true, message: "Password reset successful" });
  assert.equal(
    (await app.json("/api/workspaces", bearer(admin.token))).status,
    401,
    "older sessions are void",
  );
  const again = await reset({
    token: resetToken,
    newPassword: "new-password-2",
    confirmPassword: "new-password-2",
  });
  assert.equal(again.status, 400, "a reset token works once");
  assert.equal((await recover([codes[0], codes[2]])).status, 400, "used codes are gone after a reset");
  const fresh = await login(app, "admin", "new-password-1");
  assert.equal(fresh.recoveryCodes?.length, 4, "the next login hands out new codes");

  const next = await recover(fresh.recoveryCodes!.slice(0, 2));
  await app.deps.db.update(passwordResetTokens).set({ expiresAt: new Date(Date.now() - 1000) });
  const expired = await reset({
    token: next.body.resetToken,
    newPassword: "new-password-3",
    confirmPassword: "new-password-3",
  });
  assert.equal(expired.status, 400, "reset tokens expire");
});

Deno.test("simple SSO: an admin issues a single-use token that logs the user in once", async () => {
  await using app = await createTestApp({ env: { SIMPLE_SSO_ENABLED: "1" } });
  const admin = await multiUserInstance(app);
  const member = await addUser(app, admin, "member", "default");
  const issued = await app.json<{ token: string; loginPath: string }>(
    `/api/admin/user/${member.user.id}/issue-auth-token`,
    { ...bearer(admin.token), method: "POST" },
  );
  assert.equal(issued.status, 200);
  assert.equal(issued.body.loginPath, `/sso/simple?token=${encodeURIComponent(issued.body.token)}`);
  const redeem = () =>
    app.json<{ valid: boolean; token: string; user: { username: string } }>(
      `/api/request-token/sso/simple?token=${encodeURIComponent(issued.body.token)}`,
    );
  const first = await redeem();
  assert.equal(first.status, 200);
  assert.equal(first.body.user.username, "member");
  assert.equal((await app.json("/api/workspaces", bearer(first.body.token))).status, 200);
  const second = await redeem();
  assert.equal(second.status, 401, "single use");
  assert.match(
    String((second.body as unknown as { message: string }).message),
    /^\[001\] An error occurred while validating the token/,
  );
  const byManager = await app.json(`/api/admin/user/${member.user.id}/issue-auth-token`, {
    ...bearer(member.token),
    method: "POST",
  });
  assert.equal(byManager.status, 403);
});

Deno.test("simple SSO answers 403 with a plain message when it is not enabled", async () => {
  await using app = await createTestApp();
  const admin = await multiUserInstance(app);
  const response = await app.request("/api/request-token/sso/simple?token=abc");
  assert.equal(response.status, 403);
  assert.equal(await response.text(), "Simple SSO is not enabled on this instance.");
  const issue = await app.json(`/api/admin/user/${admin.user.id}/issue-auth-token`, {
    ...bearer(admin.token),
    method: "POST",
  });
  assert.equal(issue.status, 403);
});

Deno.test("GET /api/setup-complete tells admins whether simple SSO is on, and nobody before login", async () => {
  await using app = await createTestApp({ env: { SIMPLE_SSO_ENABLED: "1", SIMPLE_SSO_NO_LOGIN: "1" } });
  // Credential logins are off, so the admin's session is the one enabling multi-user mode answers with.
  const enabled = await app.json<{ token: string }>("/api/system/enable-multi-user", {
    json: { username: "admin", password: "admin-password" },
  });
  const full = await app.json<{ results: Record<string, unknown> }>(
    "/api/setup-complete",
    bearer(enabled.body.token),
  );
  assert.equal(full.body.results.SimpleSSOEnabled, true);
  assert.equal(full.body.results.SimpleSSONoLogin, true);
  const anonymous = await app.json<{ results: Record<string, unknown> }>("/api/setup-complete");
  assert.ok(!("SimpleSSOEnabled" in anonymous.body.results), "not part of the login screen's fields");
  assert.ok(!("SimpleSSONoLogin" in anonymous.body.results));

  await using off = await createTestApp();
  const offAdmin = await multiUserInstance(off);
  const offSetup = await off.json<{ results: Record<string, unknown> }>(
    "/api/setup-complete",
    bearer(offAdmin.token),
  );
  assert.equal(offSetup.body.results.SimpleSSOEnabled, false);
  assert.equal(offSetup.body.results.SimpleSSONoLogin, false);
});

Deno.test("SIMPLE_SSO_NO_LOGIN turns off username and password login", async () => {
  await using app = await createTestApp({ env: { SIMPLE_SSO_ENABLED: "1", SIMPLE_SSO_NO_LOGIN: "1" } });
  await app.json("/api/system/enable-multi-user", {
    json: { username: "admin", password: "admin-password" },
  });
  const answer = await app.json("/api/request-token", {
    json: { username: "admin", password: "admin-password" },
  });
  assert.equal(answer.status, 403);
  assert.equal(answer.body.message, "[005] Login via credentials has been disabled by the administrator.");
});
