import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { SignJWT } from "jose";
import { passwordResetTokens, users } from "../../db/schema.ts";
import { AUTH_MESSAGES } from "../../shared/api/auth.ts";
import { createTestApp, type TestApp } from "../../server/testing/test_app.ts";
import { addUser, bearer, login, multiUserInstance, type Session } from "../../server/testing/accounts.ts";
import { signSession } from "../../server/auth/jwt.ts";
import { databaseBytes, from } from "./support.ts";

const INVALID = AUTH_MESSAGES.invalidCredentials;
const failedLogin = (message: string) => ({ user: null, valid: false, token: null, message });

function loginFrom(app: TestApp, address: string, body: unknown) {
  return app.request("/api/request-token", {
    method: "POST",
    body: typeof body === "string" ? body : JSON.stringify(body),
  }, from(address)).then(async (response) => ({ status: response.status, body: await response.json() }));
}

/** Whether a token opens a call that needs a session; the refusal's message when it does not. */
async function session(app: TestApp, token: string): Promise<{ status: number; error?: string }> {
  const answer = await app.json<{ error?: string }>("/api/system/check-token", bearer(token));
  return { status: answer.status, error: answer.body.error };
}

const base64url = (value: unknown) =>
  btoa(typeof value === "string" ? value : JSON.stringify(value)).replace(/=+$/, "").replace(/\+/g, "-")
    .replace(/\//g, "_");

Deno.test("security: logins answer alike for unknown users and wrong passwords, and are rate limited", async (t) => {
  await using app = await createTestApp();
  const admin = await multiUserInstance(app);
  await addUser(app, admin, "bob", "default", "bob-password");

  await t.step("[authentication] a wrong password answers exactly the generic 401 message", async () => {
    const answer = await loginFrom(app, "10.0.0.1", { username: "bob", password: "not-bobs-password" });
    assert.equal(answer.status, 401);
    assert.deepEqual(answer.body, failedLogin(INVALID));
  });

  await t.step(
    "[authentication] an unknown username answers the same status and body as a wrong password",
    async () => {
      const answer = await loginFrom(app, "10.0.0.2", {
        username: "nobody-here",
        password: "whatever-password",
      });
      assert.equal(answer.status, 401);
      assert.deepEqual(answer.body, failedLogin(INVALID));
    },
  );

  await t.step(
    "[authentication] missing, empty or non-text credentials answer the same message, never a 500",
    async () => {
      const bodies: unknown[] = [
        {},
        { username: "bob" },
        { username: "bob", password: "" },
        { username: ["bob"], password: "bob-password" },
        { username: "bob", password: { $ne: "" } },
        { username: { toString: "bob" }, password: ["bob-password"] },
        [],
        null,
        '"bob"',
      ];
      for (const [index, body] of bodies.entries()) {
        const answer = await loginFrom(app, `10.0.1.${index}`, body);
        assert.equal(answer.status, 401, JSON.stringify(body));
        assert.deepEqual(answer.body, failedLogin(INVALID), JSON.stringify(body));
      }
    },
  );

  await t.step(
    "[authentication] a username differing only in case or spaces is the same account, not a bypass",
    async () => {
      const answer = await loginFrom(app, "10.0.0.3", { username: "  BOB ", password: "wrong-password" });
      assert.deepEqual(answer.body, failedLogin(INVALID));
      const right = await loginFrom(app, "10.0.0.3", { username: "  BOB ", password: "bob-password" });
      assert.equal(right.status, 200);
      assert.equal(right.body.user.username, "bob");
    },
  );

  await t.step(
    "[authentication] ten failures from one address lock that address out of that account, even with the right password",
    async () => {
      for (let attempt = 0; attempt < 10; attempt++) {
        const answer = await loginFrom(app, "192.0.2.10", {
          username: "bob",
          password: `guess-${attempt}-xx`,
        });
        assert.equal(answer.status, 401);
      }
      const locked = await loginFrom(app, "192.0.2.10", { username: "bob", password: "bob-password" });
      assert.equal(locked.status, 429);
      assert.deepEqual(locked.body, failedLogin("Too many attempts. Try again in 15 minutes."));
    },
  );

  await t.step(
    "[authentication] a stranger's failures do not lock out the user signing in from another address",
    async () => {
      const owner = await loginFrom(app, "198.51.100.7", { username: "bob", password: "bob-password" });
      assert.equal(owner.status, 200);
      assert.equal(owner.body.valid, true);
    },
  );

  await t.step(
    "[authentication] the locked address may still sign in to another account (the lock is per address and username)",
    async () => {
      const other = await loginFrom(app, "192.0.2.10", { username: "admin", password: "admin-password" });
      assert.equal(other.status, 200);
    },
  );

  await t.step(
    "[authentication] an address trying many usernames is stopped after 30 attempts in 5 minutes",
    async () => {
      for (let attempt = 0; attempt < 30; attempt++) {
        const answer = await loginFrom(app, "203.0.113.50", {
          username: `user-${attempt}`,
          password: "password-1",
        });
        assert.equal(answer.status, 401, `attempt ${attempt + 1}`);
      }
      const blocked = await loginFrom(app, "203.0.113.50", { username: "admin", password: "admin-password" });
      assert.equal(blocked.status, 429);
      assert.deepEqual(blocked.body, failedLogin("Too many attempts. Try again in 5 minutes."));
      const elsewhere = await loginFrom(app, "203.0.113.51", {
        username: "admin",
        password: "admin-password",
      });
      assert.equal(elsewhere.status, 200, "another address is not blocked");
    },
  );

  await t.step(
    "[authentication] X-Forwarded-For is not believed without TRUST_PROXY: rotating it does not escape the limit",
    async () => {
      const answer = await app.request("/api/request-token", {
        method: "POST",
        headers: { "X-Forwarded-For": "8.8.8.8" },
        body: JSON.stringify({ username: "admin", password: "admin-password" }),
      }, from("203.0.113.50"));
      assert.equal(answer.status, 429);
      assert.deepEqual(await answer.json(), failedLogin("Too many attempts. Try again in 5 minutes."));
    },
  );

  await t.step(
    "[authentication] a successful login clears that address's failures for the account",
    async () => {
      for (let attempt = 0; attempt < 9; attempt++) {
        await loginFrom(app, "192.0.2.20", { username: "bob", password: `guess-${attempt}-xx` });
      }
      assert.equal(
        (await loginFrom(app, "192.0.2.20", { username: "bob", password: "bob-password" })).status,
        200,
      );
      for (let attempt = 0; attempt < 9; attempt++) {
        await loginFrom(app, "192.0.2.20", { username: "bob", password: `guess-${attempt}-yy` });
      }
      assert.equal(
        (await loginFrom(app, "192.0.2.20", { username: "bob", password: "bob-password" })).status,
        200,
      );
    },
  );
});

Deno.test("security: single-user instance password logins are rate limited per address", async (t) => {
  await using app = await createTestApp();
  const set = await app.json("/api/system/update-password", {
    json: { usePassword: true, newPassword: "instance-password" },
  });
  assert.equal(set.status, 200);

  await t.step(
    "[authentication] thirty wrong instance passwords from one address block it, with the right one too",
    async () => {
      for (let attempt = 0; attempt < 30; attempt++) {
        const answer = await loginFrom(app, "192.0.2.30", { password: `wrong-${attempt}-password` });
        assert.equal(answer.status, 401);
        assert.deepEqual(answer.body, failedLogin(AUTH_MESSAGES.invalidInstancePassword));
      }
      const blocked = await loginFrom(app, "192.0.2.30", { password: "instance-password" });
      assert.equal(blocked.status, 429);
      assert.deepEqual(blocked.body, failedLogin("Too many attempts. Try again in 5 minutes."));
    },
  );

  await t.step(
    "[authentication] the owner on another address still signs in with the instance password",
    async () => {
      const answer = await loginFrom(app, "198.51.100.30", { password: "instance-password" });
      assert.equal(answer.status, 200);
      assert.equal(typeof answer.body.token, "string");
    },
  );
});

Deno.test("security: session tokens that are forged, expired or outdated are refused", async (t) => {
  await using app = await createTestApp();
  const admin = await multiUserInstance(app);
  const bob = await addUser(app, admin, "bob", "default");
  const key = app.deps.keys.jwt;
  assert.deepEqual(await session(app, bob.token), { status: 200, error: undefined });

  await t.step("[authentication] a token whose signature was changed is refused", async () => {
    const [head, payload, signature] = bob.token.split(".");
    const flipped = signature[0] === "A" ? `B${signature.slice(1)}` : `A${signature.slice(1)}`;
    assert.deepEqual(await session(app, `${head}.${payload}.${flipped}`), {
      status: 401,
      error: "Invalid auth token.",
    });
  });

  await t.step(
    "[authentication] a token whose claims were changed to another user (admin) is refused",
    async () => {
      const [head, payload, signature] = bob.token.split(".");
      const claims = JSON.parse(atob(payload.replace(/-/g, "+").replace(/_/g, "/")));
      const forged = `${head}.${base64url({ ...claims, sub: String(admin.user.id) })}.${signature}`;
      assert.deepEqual(await session(app, forged), { status: 401, error: "Invalid auth token." });
    },
  );

  await t.step('[authentication] an unsigned token (alg "none") is refused', async () => {
    const claims = {
      sub: String(admin.user.id),
      ver: 0,
      iat: Math.floor(Date.now() / 1000),
      exp: 9999999999,
    };
    for (const alg of ["none", "None", "NONE"]) {
      const unsigned = `${base64url({ alg, typ: "JWT" })}.${base64url(claims)}.`;
      assert.deepEqual(await session(app, unsigned), { status: 401, error: "Invalid auth token." }, alg);
    }
  });

  await t.step(
    "[authentication] a token signed with the instance key but another algorithm (HS512) is refused",
    async () => {
      const token = await new SignJWT({ ver: 0 }).setProtectedHeader({ alg: "HS512" }).setSubject(
        String(admin.user.id),
      )
        .setIssuedAt().setExpirationTime("1h").sign(key);
      assert.deepEqual(await session(app, token), { status: 401, error: "Invalid auth token." });
    },
  );

  await t.step("[authentication] a token signed with another key is refused", async () => {
    const other = crypto.getRandomValues(new Uint8Array(64));
    const token = await signSession(other, { sub: String(admin.user.id), ver: 0 });
    assert.deepEqual(await session(app, token), { status: 401, error: "Invalid auth token." });
  });

  await t.step("[authentication] an expired token is refused", async () => {
    const token = await new SignJWT({ ver: 0 }).setProtectedHeader({ alg: "HS256" }).setSubject(
      String(bob.user.id),
    )
      .setIssuedAt(Math.floor(Date.now() / 1000) - 7200).setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(key);
    assert.deepEqual(await session(app, token), { status: 401, error: "Invalid auth token." });
  });

  await t.step(
    "[authentication] a validly signed token naming no user, or a non-numeric subject, is refused",
    async () => {
      for (const sub of ["9999", "0", "-1", "1.5", "instance", "admin", ""]) {
        const token = await signSession(key, { sub, ver: 0 });
        const answer = await session(app, token);
        assert.equal(answer.status, 401, sub);
        assert.match(answer.error ?? "", /^Invalid auth (token|for user)\.$/, sub);
      }
    },
  );

  await t.step(
    "[authentication] garbage Authorization values are refused with a message, never a 500",
    async () => {
      const values = [
        "Bearer",
        "Bearer null",
        "Bearer undefined",
        "Bearer a.b.c",
        "Bearer ....",
        `Bearer ${"x".repeat(20_000)}`,
        "Bearer eyJhbGciOiJIUzI1NiJ9",
        `Bearer ${bob.token}x`,
        bob.token,
        "Basic YWRtaW46YWRtaW4tcGFzc3dvcmQ=",
      ];
      for (const value of values) {
        const answer = await app.request("/api/system/check-token", { headers: { Authorization: value } });
        assert.equal(answer.status, 401, value.slice(0, 40));
        const body = await answer.json();
        assert.ok(
          ["No auth token found.", "Invalid auth token."].includes(body.error),
          `${value.slice(0, 40)}: ${body.error}`,
        );
      }
    },
  );

  await t.step("[authentication] a token of a deleted user is refused", async () => {
    const carol = await addUser(app, admin, "carol", "default");
    assert.equal(
      (await app.json(`/api/admin/user/${carol.user.id}`, { ...bearer(admin.token), method: "DELETE" }))
        .status,
      200,
    );
    assert.deepEqual(await session(app, carol.token), { status: 401, error: "Invalid auth for user." });
  });

  await t.step(
    "[authentication] a token of a suspended user is refused, also one signed after the suspension",
    async () => {
      const dave = await addUser(app, admin, "dave", "default");
      const suspended = await app.json(`/api/admin/user/${dave.user.id}`, {
        ...bearer(admin.token),
        json: { suspended: 1 },
      });
      assert.equal(suspended.status, 200);
      assert.deepEqual(await session(app, dave.token), { status: 401, error: "Invalid auth for user." });
      const [row] = await app.deps.db.select().from(users).where(eq(users.id, dave.user.id));
      const fresh = await signSession(key, { sub: String(dave.user.id), ver: row.tokenVersion });
      assert.deepEqual(await session(app, fresh), { status: 401, error: "User is suspended from system" });
      const relogin = await loginFrom(app, "10.9.0.1", { username: "dave", password: "dave-password" });
      assert.equal(relogin.status, 403);
      assert.deepEqual(relogin.body, failedLogin(AUTH_MESSAGES.suspended));
    },
  );

  await t.step(
    "[authentication] changing one's own password voids the older token; the new one works",
    async () => {
      const erin = await addUser(app, admin, "erin", "default");
      const changed = await app.json<{ token: string }>("/api/system/user", {
        ...bearer(erin.token),
        json: { password: "a-new-erin-password" },
      });
      assert.equal(changed.status, 200);
      assert.deepEqual(await session(app, erin.token), { status: 401, error: "Invalid auth for user." });
      assert.equal((await session(app, changed.body.token)).status, 200);
    },
  );

  await t.step(
    "[authentication] an admin resetting a user's password or role voids that user's tokens",
    async () => {
      const fred = await addUser(app, admin, "fred", "default");
      await app.json(`/api/admin/user/${fred.user.id}`, {
        ...bearer(admin.token),
        json: { password: "reset-by-admin" },
      });
      assert.deepEqual(await session(app, fred.token), { status: 401, error: "Invalid auth for user." });
      const again = await login(app, "fred", "reset-by-admin");
      await app.json(`/api/admin/user/${fred.user.id}`, {
        ...bearer(admin.token),
        json: { role: "manager" },
      });
      assert.deepEqual(await session(app, again.token), { status: 401, error: "Invalid auth for user." });
    },
  );
});

Deno.test("security: single-user tokens stop working when the password changes or accounts are turned on", async (t) => {
  await using app = await createTestApp();
  const first = await app.json<{ token: string }>("/api/system/update-password", {
    json: { usePassword: true, newPassword: "instance-password" },
  });
  const original = first.body.token;

  await t.step(
    "[authentication] a single-user token after the instance password changed is refused",
    async () => {
      const changed = await app.json<{ token: string }>("/api/system/update-password", {
        ...bearer(original),
        json: { usePassword: true, newPassword: "another-instance-password" },
      });
      assert.equal(changed.status, 200);
      assert.deepEqual(await session(app, original), { status: 401, error: "Invalid auth credentials." });
      assert.equal((await session(app, changed.body.token)).status, 200);
    },
  );

  await t.step(
    "[authentication] a single-user token used after multi-user mode is enabled is refused",
    async () => {
      const current = (await login(app, "", "another-instance-password")).token;
      const enabled = await app.json("/api/system/enable-multi-user", {
        ...bearer(current),
        json: { username: "admin", password: "admin-password" },
      });
      assert.equal(enabled.status, 200);
      assert.deepEqual(await session(app, current), { status: 401, error: "Invalid auth token." });
      const workspaces = await app.json("/api/workspaces", bearer(current));
      assert.equal(workspaces.status, 401);
    },
  );

  await t.step(
    "[authentication] a multi-user token cannot pose as the single-user instance session",
    async () => {
      const forged = await signSession(app.deps.keys.jwt, {
        sub: "instance",
        ver: app.deps.settings.instanceTokenVersion,
      });
      assert.deepEqual(await session(app, forged), { status: 401, error: "Invalid auth token." });
    },
  );
});

Deno.test("security: recovery codes, reset tokens and invitations cannot be guessed, reused or stretched", async (t) => {
  await using app = await createTestApp();
  const admin = await multiUserInstance(app);
  const bob: Session = await addUser(app, admin, "bob", "default");
  const codes = bob.recoveryCodes!;
  assert.equal(codes.length, 4);
  const recover = (address: string, body: unknown) =>
    app.request("/api/system/recover-account", { method: "POST", body: JSON.stringify(body) }, from(address))
      .then(async (response) => ({ status: response.status, body: await response.json() }));
  const invalidRecovery = {
    success: false,
    error: AUTH_MESSAGES.invalidRecovery,
    message: AUTH_MESSAGES.invalidRecovery,
  };

  await t.step(
    "[authentication] a JSON null or non-object body to the public calls is their ordinary refusal, not a 500",
    async () => {
      for (const body of ["null", "[]", '"bob"', "42"]) {
        const recovered = await recover("10.1.9.9", body === "null" ? null : JSON.parse(body));
        assert.equal(recovered.status, 400, body);
        assert.deepEqual(recovered.body, invalidRecovery, body);
        const reset = await app.json("/api/system/reset-password", { json: body });
        assert.equal(reset.status, 400, body);
        assert.equal(reset.body.message, "Password must be at least 8 characters.", body);
      }
    },
  );

  await t.step("[authentication] wrong recovery codes are refused with one message", async () => {
    const answer = await recover("10.1.0.1", {
      username: "bob",
      recoveryCodes: [crypto.randomUUID(), crypto.randomUUID()],
    });
    assert.equal(answer.status, 400);
    assert.deepEqual(answer.body, invalidRecovery);
  });

  await t.step("[authentication] one right code sent twice does not count as two codes", async () => {
    const answer = await recover("10.1.0.2", {
      username: "bob",
      recoveryCodes: [codes[0], codes[0], ` ${codes[0]} `],
    });
    assert.equal(answer.status, 400);
    assert.deepEqual(answer.body, invalidRecovery);
  });

  await t.step(
    "[authentication] right codes for another username, or an unknown one, are refused alike",
    async () => {
      for (const username of ["admin", "nobody"]) {
        const answer = await recover("10.1.0.3", { username, recoveryCodes: codes.slice(0, 2) });
        assert.equal(answer.status, 400, username);
        assert.deepEqual(answer.body, invalidRecovery, username);
      }
    },
  );

  await t.step("[authentication] recovery is limited to 5 tries per address and username", async () => {
    for (let attempt = 0; attempt < 5; attempt++) {
      await recover("192.0.2.40", {
        username: "admin",
        recoveryCodes: [crypto.randomUUID(), crypto.randomUUID()],
      });
    }
    const blocked = await recover("192.0.2.40", {
      username: "admin",
      recoveryCodes: [crypto.randomUUID(), crypto.randomUUID()],
    });
    assert.equal(blocked.status, 429);
    assert.match(blocked.body.message, /^Too many attempts\. Try again in 15 minutes\.$/);
  });

  let resetToken = "";
  let fresh: Session | null = null;
  await t.step(
    "[authentication] two right codes give a reset token, once; the same codes do not work again",
    async () => {
      const answer = await recover("10.1.0.4", { username: "bob", recoveryCodes: codes.slice(0, 2) });
      assert.equal(answer.status, 200);
      resetToken = answer.body.resetToken;
      assert.match(resetToken, /^\S{20,}$/);
      const reset = await app.json("/api/system/reset-password", {
        json: { token: resetToken, newPassword: "bob-recovered", confirmPassword: "bob-recovered" },
      });
      assert.equal(reset.status, 200);
      const reused = await recover("10.1.0.5", { username: "bob", recoveryCodes: codes.slice(2, 4) });
      assert.equal(reused.status, 400, "every old code is void after a reset");
      assert.deepEqual(reused.body, invalidRecovery);
    },
  );

  await t.step("[authentication] a reset token works once: used again it is refused", async () => {
    const again = await app.json("/api/system/reset-password", {
      json: { token: resetToken, newPassword: "bob-hijacked", confirmPassword: "bob-hijacked" },
    });
    assert.equal(again.status, 400);
    assert.equal(again.body.message, AUTH_MESSAGES.invalidResetToken);
    fresh = await login(app, "bob", "bob-recovered");
  });

  await t.step("[authentication] a made-up, empty or non-text reset token is refused", async () => {
    for (const token of ["", "x", crypto.randomUUID(), { $gt: "" }, ["a"], null, "%", "' OR 1=1 --"]) {
      const answer = await app.json("/api/system/reset-password", {
        json: { token, newPassword: "new-password-1", confirmPassword: "new-password-1" },
      });
      assert.equal(answer.status, 400, JSON.stringify(token));
      assert.equal(answer.body.message, AUTH_MESSAGES.invalidResetToken, JSON.stringify(token));
    }
  });

  await t.step("[authentication] an expired reset token is refused", async () => {
    const answer = await recover("10.1.0.6", {
      username: "bob",
      recoveryCodes: fresh!.recoveryCodes!.slice(0, 2),
    });
    assert.equal(answer.status, 200);
    await app.deps.db.update(passwordResetTokens).set({ expiresAt: new Date(Date.now() - 1000) });
    const expired = await app.json("/api/system/reset-password", {
      json: { token: answer.body.resetToken, newPassword: "too-late-pass", confirmPassword: "too-late-pass" },
    });
    assert.equal(expired.status, 400);
    assert.equal(expired.body.message, AUTH_MESSAGES.invalidResetToken);
    await login(app, "bob", "bob-recovered");
  });

  await t.step("[authentication] a password reset voids the tokens issued before it", async () => {
    const before = await login(app, "bob", "bob-recovered");
    const mine = before.recoveryCodes ?? [];
    assert.equal(mine.length, 0, "codes are handed out once per reset");
    const [row] = await app.deps.db.select().from(users).where(eq(users.id, bob.user.id));
    assert.ok(row.tokenVersion >= 1);
    assert.deepEqual(await session(app, bob.token), { status: 401, error: "Invalid auth for user." });
  });

  const createInvite = async () => {
    const created = await app.json<{ invite: { id: number; code: string } }>("/api/admin/invite/new", {
      ...bearer(admin.token),
      json: { workspaceIds: [] },
    });
    assert.equal(created.status, 200);
    return created.body.invite;
  };

  await t.step("[authentication] a used invitation cannot create a second account", async () => {
    const invite = await createInvite();
    const first = await app.json(`/api/invite/${invite.code}`, {
      json: { username: "invited-one", password: "invited-password" },
    });
    assert.equal(first.status, 200);
    const second = await app.json(`/api/invite/${invite.code}`, {
      json: { username: "invited-two", password: "invited-password" },
    });
    assert.equal(second.status, 410);
    assert.deepEqual(second.body, { invite: null, error: "Invite is no longer valid." });
    assert.equal(
      (await app.json("/api/request-token", {
        json: { username: "invited-two", password: "invited-password" },
      })).status,
      401,
    );
  });

  await t.step("[authentication] a deleted invitation cannot be looked up or accepted", async () => {
    const invite = await createInvite();
    assert.equal(
      (await app.json(`/api/admin/invite/${invite.id}`, { ...bearer(admin.token), method: "DELETE" })).status,
      200,
    );
    const looked = await app.json(`/api/invite/${invite.code}`);
    assert.equal(looked.status, 410);
    const accepted = await app.json(`/api/invite/${invite.code}`, {
      json: { username: "late-comer", password: "late-password" },
    });
    assert.equal(accepted.status, 410);
    assert.deepEqual(accepted.body, { invite: null, error: "Invite is no longer valid." });
  });

  await t.step(
    "[authentication] a wrong or hostile invitation code is not found, and creates nobody",
    async () => {
      for (const code of ["nope", "%25", "' OR '1'='1", "%00", "a".repeat(500)]) {
        const answer = await app.json(`/api/invite/${encodeURIComponent(code)}`, {
          json: { username: "intruder", password: "intruder-password" },
        });
        assert.equal(answer.status, 404, code);
        assert.deepEqual(answer.body, { invite: null, error: "Invite not found." }, code);
      }
      const [row] = await app.deps.db.select().from(users).where(eq(users.username, "intruder"));
      assert.equal(row, undefined);
    },
  );

  await t.step(
    "[authentication] an invitation makes a default user whatever role the body asks for",
    async () => {
      const invite = await createInvite();
      const answer = await app.json(`/api/invite/${invite.code}`, {
        json: { username: "climber", password: "climber-password", role: "admin", suspended: 0 },
      });
      assert.equal(answer.status, 200);
      const climber = await login(app, "climber", "climber-password");
      assert.equal(climber.user.role, "default");
    },
  );
});

Deno.test("security: passwords, recovery codes, tokens and keys are stored hashed or encrypted", async (t) => {
  await using app = await createTestApp();
  const password = "Plain-Admin-Secret-7391";
  const admin = await multiUserInstance(app, password);
  const bobPassword = "Plain-Bob-Secret-5521";
  const bob = await addUser(app, admin, "bob", "default", bobPassword);
  const saved = await app.json("/api/system/update-env", {
    ...bearer(admin.token),
    json: { GenericOpenAiKey: "sk-plain-generic-key-4411", ChromaApiKey: "chroma-plain-key-8812" },
  });
  assert.equal(saved.status, 200);
  const recovered = await app.json<{ resetToken: string }>("/api/system/recover-account", {
    json: { username: "bob", recoveryCodes: bob.recoveryCodes!.slice(0, 2) },
  });
  assert.equal(recovered.status, 200);
  const stored = await databaseBytes(app);

  await t.step("[authentication] no password appears in clear in the database file", () => {
    for (const secret of [password, bobPassword]) assert.ok(!stored.includes(secret), secret);
    const [row] = stored.match(/\$argon2id\$v=19\$[^\s"]{20,}/) ?? [];
    assert.ok(row, "passwords are argon2id hashes");
  });

  await t.step("[authentication] no recovery code appears in clear in the database file", () => {
    for (const code of [...admin.recoveryCodes!, ...bob.recoveryCodes!]) {
      assert.ok(!stored.includes(code), code);
    }
  });

  await t.step("[authentication] the password reset token is stored as a hash", () => {
    assert.ok(!stored.includes(recovered.body.resetToken));
  });

  await t.step("[authentication] session tokens and the JWT key are not in the database", async () => {
    for (const token of [admin.token, bob.token]) assert.ok(!stored.includes(token.split(".")[2]));
    const key = (await Deno.readTextFile(`${app.storageDir}/keys/jwt.key`)).trim();
    assert.ok(!stored.includes(key));
  });

  await t.step("[authentication] provider API keys are stored encrypted, not in clear", () => {
    for (const secret of ["sk-plain-generic-key-4411", "chroma-plain-key-8812"]) {
      assert.ok(!stored.includes(secret), secret);
    }
    assert.ok(stored.includes("enc:v1:"), "the secrets are there, encrypted");
  });

  await t.step("[authentication] the key files are readable by the server's user only", async () => {
    for (const name of ["jwt.key", "settings.key"]) {
      const info = await Deno.stat(`${app.storageDir}/keys/${name}`);
      assert.equal((info.mode ?? 0) & 0o077, 0, name);
    }
    assert.equal(((await Deno.stat(`${app.storageDir}/lectern.db`)).mode ?? 0) & 0o077, 0);
  });
});
