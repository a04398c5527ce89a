// A login storm through a real listening server: 1,000 wrong-password attempts from 50 client addresses
// (X-Forwarded-For behind TRUST_PROXY=1; every connection is to 127.0.0.1, the forwarded addresses are only
// header values) while the users log in from their own addresses.
import assert from "node:assert/strict";
import { inArray } from "drizzle-orm";
import { eventLogs } from "../../db/schema.ts";
import { AUTH_MESSAGES } from "../../shared/api/auth.ts";
import { addUser, multiUserInstance } from "../../server/testing/accounts.ts";
import { createTestApp } from "../../server/testing/test_app.ts";

const USERS = ["admin", "alice", "bob", "carol"];
const passwordOf = (username: string) => `${username}-password`;

// 48 addresses each guess one user's password 19 times: 10 failures are allowed per address and username,
// the other 9 are refused for 15 minutes.
const FOCUSED = 48;
const FOCUSED_ATTEMPTS = 19;
// 2 addresses spray 44 guesses over the users and two names that do not exist: 30 attempts are allowed per
// address, the other 14 are refused for 5 minutes (no address and username reaches 10 failures).
const SPRAYERS = 2;
const SPRAY_ATTEMPTS = 44;
const SPRAYED = [...USERS, "root", "test"];
const BATCHES = 5;

const focusedAddress = (index: number) => `127.1.0.${index + 1}`;
const sprayerAddress = (index: number) => `127.1.1.${index + 1}`;
const ownAddress = (username: string) => `127.2.0.${USERS.indexOf(username) + 1}`;

interface Attempt {
  address: string;
  username: string;
  password: string;
  kind: "focused" | "spray";
}

interface Answer {
  status: number;
  body: { valid?: boolean; token?: string | null; message?: string | null; user?: { username: string } };
}

function stormAttempts(): Attempt[][] {
  const perAddress: Attempt[][] = [];
  for (let index = 0; index < FOCUSED; index++) {
    const username = USERS[index % USERS.length];
    perAddress.push(Array.from({ length: FOCUSED_ATTEMPTS }, (_, guess) => ({
      address: focusedAddress(index),
      username,
      password: `guess-${index}-${guess}`,
      kind: "focused" as const,
    })));
  }
  for (let index = 0; index < SPRAYERS; index++) {
    perAddress.push(Array.from({ length: SPRAY_ATTEMPTS }, (_, guess) => ({
      address: sprayerAddress(index),
      username: SPRAYED[guess % SPRAYED.length],
      password: `spray-${index}-${guess}`,
      kind: "spray" as const,
    })));
  }
  // Each batch holds every attempt of about 10 addresses, all sent at once: an address's
  // attempts are in flight together, as an attacker would send them.
  const batches: Attempt[][] = Array.from({ length: BATCHES }, () => []);
  perAddress.slice(0, FOCUSED).forEach((attempts, index) => batches[index % BATCHES].push(...attempts));
  perAddress.slice(FOCUSED).forEach((attempts, index) => batches[index % BATCHES].push(...attempts));
  return batches;
}

/**
 * The refusal of a limit whose window is `minutes` long: the minutes left count down while the storm runs (a slow
 * machine may take minutes over it), so any whole number of minutes from 1 to the window is right.
 */
const tooManyPattern = (minutes: number) =>
  new RegExp(
    `^Too many attempts\\. Try again in (${
      Array.from({ length: minutes }, (_, i) => i + 1).join("|")
    }) minutes?\\.$`,
  );

Deno.test("[authentication] a login storm from 50 addresses", async (t) => {
  await using app = await createTestApp({ env: { TRUST_PROXY: "1" } });
  const admin = await multiUserInstance(app, passwordOf("admin"));
  for (const username of USERS.slice(1)) await addUser(app, admin, username, "default");
  const url = app.listen();

  const attempt = async (address: string, username: string, password: string): Promise<Answer> => {
    const response = await fetch(`${url}/api/request-token`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Forwarded-For": `${address}, 127.0.0.1` },
      body: JSON.stringify({ username, password }),
    });
    return { status: response.status, body: await response.json() };
  };
  const ping = async () => {
    const response = await fetch(`${url}/api/ping`);
    await response.body?.cancel();
    return response.status;
  };

  const storm: { attempt: Attempt; answer: Answer }[] = [];
  const legitimate: { username: string; answer: Answer }[] = [];
  const pings: number[] = [];

  await t.step("[authentication] every user logs in from their own address during the storm", async () => {
    for (const batch of stormAttempts()) {
      const guesses = Promise.all(batch.map(async (guess) => ({
        attempt: guess,
        answer: await attempt(guess.address, guess.username, guess.password),
      })));
      const logins = Promise.all(USERS.map(async (username) => ({
        username,
        answer: await attempt(ownAddress(username), username, passwordOf(username)),
      })));
      pings.push(await ping());
      storm.push(...await guesses);
      legitimate.push(...await logins);
    }
    assert.equal(legitimate.length, USERS.length * BATCHES);
    for (const { username, answer } of legitimate) {
      assert.equal(answer.status, 200, `${username}: ${answer.body.message}`);
      assert.equal(answer.body.valid, true);
      assert.equal(answer.body.user?.username, username);
      assert.match(String(answer.body.token), /^[\w-]+\.[\w-]+\.[\w-]+$/);
    }
  });

  await t.step(
    "[authentication] the storm's guesses are refused once limited, with the limit's message",
    () => {
      assert.equal(storm.length, 1000);
      assert.equal(new Set(storm.map(({ attempt }) => attempt.address)).size, 50);
      const byAddress = Map.groupBy(storm, ({ attempt }) => attempt.address);
      for (const [address, answers] of byAddress) {
        const kind = answers[0].attempt.kind;
        const wrong = answers.filter(({ answer }) => answer.status === 401);
        const refused = answers.filter(({ answer }) => answer.status === 429);
        assert.equal(wrong.length + refused.length, answers.length, `${address}: only 401 and 429`);
        for (const { answer } of wrong) {
          assert.deepEqual(answer.body, {
            user: null,
            valid: false,
            token: null,
            message: AUTH_MESSAGES.invalidCredentials,
          });
        }
        for (const { answer } of refused) {
          assert.equal(answer.body.valid, false);
          assert.equal(answer.body.token, null);
        }
        if (kind === "focused") {
          // Sent at once, the guesses must not all pass the check before the first failures are counted.
          assert.equal(wrong.length, 10, `${address}: 10 failures per address and username are checked`);
          assert.equal(refused.length, FOCUSED_ATTEMPTS - 10);
          for (const { answer } of refused) assert.match(String(answer.body.message), tooManyPattern(15));
        } else {
          assert.equal(wrong.length, 30, `${address}: 30 attempts per address are checked`);
          assert.equal(refused.length, SPRAY_ATTEMPTS - 30);
          for (const { answer } of refused) assert.match(String(answer.body.message), tooManyPattern(5));
        }
      }
    },
  );

  await t.step("[authentication] refused guesses stop before the password check", async () => {
    // One failed-login event per checked guess: the 460 refused ones never reached the user lookup.
    const events = await app.deps.db.select({ metadata: eventLogs.metadata }).from(eventLogs).where(
      inArray(eventLogs.event, ["failed_login_invalid_password", "failed_login_invalid_username"]),
    );
    const stormAddresses = new Set(storm.map(({ attempt }) => attempt.address));
    const fromStorm = events.filter((event) => stormAddresses.has(JSON.parse(event.metadata!).address));
    assert.equal(fromStorm.length, FOCUSED * 10 + SPRAYERS * 30);
    // A limited address is refused even with the right password: guessing right after the limit gives nothing.
    const limited = await attempt(focusedAddress(0), "admin", passwordOf("admin"));
    assert.equal(limited.status, 429);
    assert.match(String(limited.body.message), tooManyPattern(15));
    const sprayer = await attempt(sprayerAddress(0), "alice", passwordOf("alice"));
    assert.equal(sprayer.status, 429);
    assert.match(String(sprayer.body.message), tooManyPattern(5));
  });

  await t.step(
    "[authentication] the server kept answering and the admin logs in from a fresh address",
    async () => {
      assert.deepEqual(pings, Array(BATCHES).fill(200));
      assert.equal(await ping(), 200);
      const fresh = await attempt("127.3.0.1", "admin", passwordOf("admin"));
      assert.equal(fresh.status, 200, String(fresh.body.message));
      assert.equal(fresh.body.user?.username, "admin");
      // The admin's own address still has its allowance too.
      const own = await attempt(ownAddress("admin"), "admin", passwordOf("admin"));
      assert.equal(own.status, 200, String(own.body.message));
    },
  );
});
