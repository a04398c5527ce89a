// Login storm benchmark against a real server process behind TRUST_PROXY=1 (the 50 client addresses are
// X-Forwarded-For values; every connection goes to 127.0.0.1): 1,000 wrong-password attempts from 50 addresses,
// sent in 5 batches of about 10 addresses with all of an address's attempts at once, while 10 users log in from
// their own addresses. Figures: attempts per second, latency of the users' logins during the storm against an
// idle server, and the server's peak RSS (argon2id costs 19 MiB per password check in flight).
import { startServerProcess } from "../server/testing/process.ts";

const LEGITIMATE = Number(Deno.env.get("BENCH_USERS") ?? 10);
const IDLE_LOGINS = 3;
const FOCUSED = 48; // × 19 guesses at one user: 10 checked, 9 refused for 15 minutes
const FOCUSED_ATTEMPTS = 19;
const SPRAYERS = 2; // × 44 guesses over all users: 30 checked, 14 refused for 5 minutes
const SPRAY_ATTEMPTS = 44;
const BATCHES = 5;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

/** Resident and peak resident memory of a process, in MiB. */
function memoryMiB(pid: number): { rss: number; peak: number } {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  const field = (name: string) => Number(status.match(new RegExp(`^${name}:\\s+(\\d+) kB`, "m"))![1]) / 1024;
  return { rss: field("VmRSS"), peak: field("VmHWM") };
}

const storage = await Deno.makeTempDir({ prefix: "lectern-bench-login-" });
const server = await startServerProcess({ STORAGE_DIR: storage, LOG_LEVEL: "warn", TRUST_PROXY: "1" });

async function login(address: string, username: string, password: string) {
  const started = performance.now();
  const response = await fetch(`${server.url}/api/request-token`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Forwarded-For": address },
    body: JSON.stringify({ username, password }),
  });
  const body = await response.json();
  return { status: response.status, body, ms: performance.now() - started };
}

try {
  const users = Array.from({ length: LEGITIMATE }, (_, index) => index === 0 ? "admin" : `user${index}`);
  const passwordOf = (username: string) => `${username}-password`;
  const enabled = await fetch(`${server.url}/api/system/enable-multi-user`, {
    method: "POST",
    body: JSON.stringify({ username: "admin", password: passwordOf("admin") }),
  });
  if (!enabled.ok) throw new Error(`enable-multi-user: ${await enabled.text()}`);
  const admin = await login("127.9.0.1", "admin", passwordOf("admin"));
  for (const username of users.slice(1)) {
    const created = await fetch(`${server.url}/api/admin/users/new`, {
      method: "POST",
      headers: { Authorization: `Bearer ${admin.body.token}` },
      body: JSON.stringify({ username, password: passwordOf(username), role: "default" }),
    });
    if (!created.ok) throw new Error(`new user: ${await created.text()}`);
    await login("127.9.0.1", username, passwordOf(username)); // the first login hands out recovery codes
  }

  // The users' logins on an idle server, one at a time.
  const idle: number[] = [];
  for (let round = 0; round < IDLE_LOGINS; round++) {
    for (const [index, username] of users.entries()) {
      const answer = await login(`127.2.1.${index + 1}`, username, passwordOf(username));
      if (answer.status !== 200) throw new Error(`idle login of ${username}: ${answer.body.message}`);
      idle.push(answer.ms);
    }
  }
  const before = memoryMiB(server.pid);

  const addresses: { address: string; guesses: string[] }[] = [];
  for (let index = 0; index < FOCUSED; index++) {
    addresses.push({
      address: `127.1.0.${index + 1}`,
      guesses: Array(FOCUSED_ATTEMPTS).fill(users[index % users.length]),
    });
  }
  for (let index = 0; index < SPRAYERS; index++) {
    addresses.push({
      address: `127.1.1.${index + 1}`,
      guesses: Array.from(
        { length: SPRAY_ATTEMPTS },
        (_, guess) => [...users, "root"][guess % (users.length + 1)],
      ),
    });
  }
  const statuses = new Map<number, number>();
  let errors = 0;
  const during: number[] = [];
  let failedLogins = 0;
  const stormStarted = performance.now();
  for (let batch = 0; batch < BATCHES; batch++) {
    const guesses = addresses.filter((_, index) => index % BATCHES === batch).flatMap((
      { address, guesses },
    ) =>
      guesses.map(async (username, guess) => {
        try {
          const answer = await login(address, username, `wrong-${guess}`);
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        } catch {
          errors++;
        }
      })
    );
    const logins = users.map(async (username, index) => {
      const answer = await login(`127.2.0.${index + 1}`, username, passwordOf(username));
      if (answer.status === 200) during.push(answer.ms);
      else failedLogins++;
    });
    await Promise.all([...guesses, ...logins]);
  }
  const stormSeconds = (performance.now() - stormStarted) / 1000;
  const after = memoryMiB(server.pid);
  const attempts = [...statuses.values()].reduce((sum, count) => sum + count, 0) + errors;

  const figures = {
    attempts,
    addresses: addresses.length,
    seconds: Number(stormSeconds.toFixed(1)),
    attemptsPerSecond: Math.round(attempts / stormSeconds),
    checked: statuses.get(401) ?? 0,
    refused: statuses.get(429) ?? 0,
    otherStatuses: Object.fromEntries([...statuses].filter(([status]) => status !== 401 && status !== 429)),
    errors,
    legitimateLogins: {
      users: LEGITIMATE,
      failedDuringStorm: failedLogins,
      idleMs: {
        p50: Number(percentile(idle, 50).toFixed(1)),
        p99: Number(percentile(idle, 99).toFixed(1)),
      },
      duringStormMs: {
        p50: Number(percentile(during, 50).toFixed(1)),
        p99: Number(percentile(during, 99).toFixed(1)),
      },
    },
    serverRssMiB: {
      beforeStorm: Number(before.rss.toFixed(1)),
      peak: Number(after.peak.toFixed(1)),
      afterStorm: Number(after.rss.toFixed(1)),
    },
  };
  console.log(
    `Login storm: ${attempts} wrong passwords from ${figures.addresses} addresses in ${figures.seconds} s ` +
      `(${figures.attemptsPerSecond} attempts/s; ${figures.checked} checked, ${figures.refused} refused, ` +
      `${errors} errors); ${LEGITIMATE} users' logins p50 ${figures.legitimateLogins.duringStormMs.p50} ms, ` +
      `p99 ${figures.legitimateLogins.duringStormMs.p99} ms during the storm (idle p50 ` +
      `${figures.legitimateLogins.idleMs.p50} ms, p99 ${figures.legitimateLogins.idleMs.p99} ms; ` +
      `${failedLogins} refused); server RSS ${figures.serverRssMiB.beforeStorm} MiB before, peak ` +
      `${figures.serverRssMiB.peak} MiB`,
  );
  console.log(JSON.stringify({ benchmark: "login_storm", ...figures }));
} finally {
  server.child.kill("SIGTERM");
  await server.exited();
  await Deno.remove(storage, { recursive: true });
}
