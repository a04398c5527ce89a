import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { eventLogs, oidcIdentities, users, workspaceUsers } from "../../db/schema.ts";
import { createTestApp, type TestApp } from "../testing/test_app.ts";
import { bearer, login, multiUserInstance, type Session } from "../testing/accounts.ts";
import { type FakeOidc, startFakeOidc } from "../testing/fake_oidc.ts";

/** An instance in multi-user mode whose admin turned OIDC login on against the fake provider. */
async function oidcInstance(
  app: TestApp,
  fake: FakeOidc,
  extra: Record<string, string> = {},
): Promise<Session> {
  const admin = await multiUserInstance(app);
  const saved = await app.json("/api/system/update-env", {
    ...bearer(admin.token),
    json: {
      OidcEnabled: "true",
      OidcIssuer: fake.issuer,
      OidcClientId: fake.clientId,
      OidcClientSecret: fake.clientSecret,
      OidcGroupsClaim: "groups",
      ...extra,
    },
  });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
  return admin;
}

interface Flow {
  /** Where the callback sent the browser: `/sso/oidc?token=…` or `/sso/oidc?error=…`. */
  landing: URL;
  /** The redeemed session, when the login went through. */
  session?: { status: number; body: Record<string, unknown> };
}

/**
 * A browser's login: Lectern's start redirect (with its cookie), the provider's authorization redirect, the
 * callback with that cookie, then the landing page's redeem call.
 */
async function loginFlow(app: TestApp, options: { dropCookie?: boolean } = {}): Promise<Flow> {
  const start = await app.request("/api/auth/oidc/login?redirectTo=/workspace/x");
  assert.equal(start.status, 302);
  const cookie = start.headers.get("set-cookie")?.split(";")[0] ?? "";
  assert.match(start.headers.get("set-cookie") ?? "", /HttpOnly/i);
  const authorize = await fetch(start.headers.get("location")!, { redirect: "manual" });
  await authorize.body?.cancel();
  assert.equal(authorize.status, 302);
  const callback = new URL(authorize.headers.get("location")!);
  const answer = await app.request(`${callback.pathname}${callback.search}`, {
    headers: options.dropCookie ? {} : { cookie },
  });
  assert.equal(answer.status, 302);
  const landing = new URL(answer.headers.get("location")!, "http://localhost");
  const token = landing.searchParams.get("token");
  if (!token) return { landing };
  const session = await app.json(`/api/request-token/sso/oidc?token=${encodeURIComponent(token)}`);
  return { landing, session };
}

async function lastRefusal(app: TestApp): Promise<string> {
  const rows = await app.deps.db.select().from(eventLogs).where(eq(eventLogs.event, "failed_login_oidc"));
  return String(JSON.parse(rows.at(-1)?.metadata ?? "{}").reason ?? "");
}

Deno.test("OIDC login: code flow with PKCE creates the user, maps groups to role and workspaces, once", async () => {
  await using fake = await startFakeOidc({
    identity: { sub: "sub-42", claims: { preferred_username: "Alice", groups: ["staff", "editors"] } },
  });
  await using app = await createTestApp();
  const admin = await oidcInstance(app, fake, {
    OidcRoleMapping: "editors = manager\nstaff = default",
    OidcWorkspaceMapping: "staff = handbook",
    OidcButtonLabel: "Company SSO",
  });
  const created = await app.json("/api/workspace/new", {
    ...bearer(admin.token),
    json: { name: "Handbook" },
  });
  assert.equal(created.status, 200);

  const setup = await app.json<{ results: Record<string, unknown> }>("/api/setup-complete");
  assert.equal(setup.body.results.OidcLogin, "Company SSO");
  assert.equal(setup.body.results.PasswordLogin, true);

  const flow = await loginFlow(app);
  assert.equal(flow.landing.pathname, "/sso/oidc");
  assert.equal(flow.landing.searchParams.get("redirectTo"), "/workspace/x");
  assert.equal(flow.session?.status, 200, JSON.stringify(flow.session?.body));
  const user = flow.session!.body.user as { username: string; role: string; id: number };
  assert.equal(user.username, "alice");
  assert.equal(user.role, "manager", "the highest mapped role of the groups");
  const token = String(flow.session!.body.token);
  assert.equal((await app.json("/api/system/check-token", bearer(token))).status, 200);

  // The authorization request used PKCE S256, a state and a nonce, and the client secret never left for it.
  const authorization = fake.authorizations.at(-1)!;
  assert.equal(authorization.get("code_challenge_method"), "S256");
  assert.ok(authorization.get("state") && authorization.get("nonce"));
  assert.ok(!authorization.has("client_secret"));
  assert.ok(fake.tokenRequests.at(-1)!.get("code_verifier"));

  const [identity] = await app.deps.db.select().from(oidcIdentities).where(
    eq(oidcIdentities.userId, user.id),
  );
  assert.equal(identity.issuer, fake.issuer);
  assert.equal(identity.subject, "sub-42");
  const memberships = await app.deps.db.select().from(workspaceUsers).where(
    eq(workspaceUsers.userId, user.id),
  );
  assert.equal(memberships.length, 1, "staff joins the handbook workspace");

  // The one-time token is gone once redeemed.
  const again = await app.json(`/api/request-token/sso/oidc?token=${flow.landing.searchParams.get("token")}`);
  assert.equal(again.status, 401);

  // A second login finds the same user by issuer and subject, even when the username claim changed.
  fake.identity = { sub: "sub-42", claims: { preferred_username: "alice-renamed", groups: ["staff"] } };
  const second = await loginFlow(app);
  const secondUser = second.session!.body.user as { id: number; role: string };
  assert.equal(secondUser.id, user.id);
  assert.equal(secondUser.role, "default", "the mapping is applied at each login");
  const count = await app.deps.db.select().from(users);
  assert.equal(count.length, 2, "admin and alice only");
});

Deno.test("OIDC login: a group the mapping does not name never makes an admin", async () => {
  await using fake = await startFakeOidc({
    identity: {
      sub: "sub-7",
      claims: { preferred_username: "mallory", groups: ["admin", "admins", "root"] },
    },
  });
  await using app = await createTestApp();
  await oidcInstance(app, fake, { OidcRoleMapping: "lectern-admins = admin" });
  const flow = await loginFlow(app);
  assert.equal((flow.session!.body.user as { role: string }).role, "default");
});

Deno.test("OIDC login refuses a wrong state, nonce, issuer, audience, an expired, unsigned or foreign-signed ID token", async () => {
  await using fake = await startFakeOidc();
  await using app = await createTestApp();
  await oidcInstance(app, fake);
  const cases: [string, () => void, string, RegExp][] = [
    ["state", () => fake.tamper = { state: "not-the-state" }, "state", /state/i],
    ["nonce", () => fake.tamper = { nonce: "other-nonce" }, "token", /nonce/i],
    ["issuer", () => fake.tamper = { issuer: "http://127.0.0.1:1" }, "token", /iss/i],
    ["audience", () => fake.tamper = { audience: "someone-else" }, "token", /aud/i],
    ["expired", () => fake.tamper = { expired: true }, "token", /exp|timestamp/i],
    ["unsigned", () => fake.tamper = { unsigned: true }, "token", /alg|none|signature|JWS/i],
    ["foreign key", () => fake.tamper = { foreignKey: true }, "token", /signature|key|JWS/i],
  ];
  for (const [name, tamper, code, reason] of cases) {
    tamper();
    const flow = await loginFlow(app);
    assert.equal(flow.landing.searchParams.get("error"), code, `${name}: ${await lastRefusal(app)}`);
    assert.equal(flow.session, undefined, name);
    assert.match(await lastRefusal(app), reason, name);
  }
  fake.tamper = {};
  const noCookie = await loginFlow(app, { dropCookie: true });
  assert.equal(
    noCookie.landing.searchParams.get("error"),
    "state",
    "an answer without this browser's cookie",
  );
  assert.equal((await app.deps.db.select().from(oidcIdentities)).length, 0, "no identity was linked");
  const ok = await loginFlow(app);
  assert.equal(ok.session?.status, 200, "the same provider works when nothing is tampered with");
});

Deno.test("OIDC login: existing accounts, auto creation off, suspended users", async () => {
  await using fake = await startFakeOidc({ identity: { sub: "s-1", claims: { preferred_username: "bob" } } });
  await using app = await createTestApp();
  const admin = await oidcInstance(app, fake, { OidcAutoCreateUsers: "false" });
  assert.equal((await loginFlow(app)).landing.searchParams.get("error"), "no_account");
  assert.match(await lastRefusal(app), /not created on first login/);

  const made = await app.json("/api/admin/users/new", {
    ...bearer(admin.token),
    json: { username: "bob", password: "bob-password", role: "default" },
  });
  assert.equal(made.status, 200);
  assert.equal(
    (await loginFlow(app)).landing.searchParams.get("error"),
    "exists",
    "no silent takeover by name",
  );

  await app.json("/api/system/update-env", {
    ...bearer(admin.token),
    json: { OidcLinkExistingUsers: "true" },
  });
  const linked = await loginFlow(app);
  assert.equal((linked.session!.body.user as { username: string }).username, "bob");

  await app.deps.db.update(users).set({ suspended: 1 }).where(eq(users.username, "bob"));
  assert.equal((await loginFlow(app)).landing.searchParams.get("error"), "suspended");
});

Deno.test("password login can be turned off only while OIDC login is on; the settings need an admin", async () => {
  await using fake = await startFakeOidc();
  await using app = await createTestApp();
  const admin = await oidcInstance(app, fake, { PasswordLoginDisabled: "true" });
  const refused = await app.json("/api/request-token", {
    json: { username: "admin", password: "admin-password" },
  });
  assert.equal(refused.status, 403);
  assert.equal(refused.body.message, "[005] Login via credentials has been disabled by the administrator.");
  const setup = await app.json<{ results: Record<string, unknown> }>("/api/setup-complete");
  assert.equal(setup.body.results.PasswordLogin, false);

  // Secrets are never returned.
  const full = await app.json<{ results: Record<string, unknown> }>(
    "/api/setup-complete",
    bearer(admin.token),
  );
  assert.equal(full.body.results.OidcClientSecret, true);
  assert.ok(!JSON.stringify(full.body).includes(fake.clientSecret));

  // Turning OIDC off brings the password form back.
  await app.json("/api/system/update-env", { ...bearer(admin.token), json: { OidcEnabled: "false" } });
  await login(app, "admin", "admin-password");
  const redeem = await app.json("/api/request-token/sso/oidc?token=x");
  assert.equal(redeem.status, 403);
  const start = await app.request("/api/auth/oidc/login");
  assert.equal(new URL(start.headers.get("location")!, "http://x").searchParams.get("error"), "unavailable");

  const bad = await app.json("/api/system/update-env", {
    ...bearer(admin.token),
    json: { OidcRoleMapping: "staff = superuser" },
  });
  assert.equal(bad.status, 400);
  assert.match(JSON.stringify(bad.body), /role must be one of admin, manager, default/);
});
