import assert from "node:assert/strict";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { openDatabase } from "../../db/client.ts";
import { jobLeases } from "../../db/schema.ts";
import { silentLogger } from "../log.ts";
import { type Job, JobRunner } from "./runner.ts";

async function withDatabase(test: (open: () => ReturnType<typeof openDatabase>) => Promise<void>) {
  const directory = await Deno.makeTempDir({ prefix: "lectern-jobs-" });
  const opened: { close(): void }[] = [];
  try {
    await test(async () => {
      const database = await openDatabase(join(directory, "lectern.db"));
      opened.push(database);
      return database;
    });
  } finally {
    for (const database of opened) database.close();
    await Deno.remove(directory, { recursive: true });
  }
}

function counting(name: string, scope: Job["scope"], runs: string[], who: string, intervalMs = 1000): Job {
  return {
    name,
    scope,
    intervalMs,
    run() {
      runs.push(who);
      return Promise.resolve();
    },
  };
}

Deno.test("job runner: one of two replicas leads, a leader job runs once per due time, on the leader only", async () => {
  await withDatabase(async (open) => {
    let clock = 1_000_000;
    const now = () => clock;
    const runs: string[] = [];
    const a = new JobRunner({ db: (await open()).db, log: silentLogger, replicaId: "a", leaseMs: 3000, now });
    const b = new JobRunner({ db: (await open()).db, log: silentLogger, replicaId: "b", leaseMs: 3000, now });
    a.register(counting("prune", "leader", runs, "a"));
    b.register(counting("prune", "leader", runs, "b"));
    await a.tick();
    await b.tick();
    await Promise.all([a.idle(), b.idle()]);
    assert.equal(a.isLeader, true);
    assert.equal(b.isLeader, false);
    assert.deepEqual(runs, ["a"], "the job ran once, on the leader");

    // Not due yet: ticking again runs nothing.
    clock += 500;
    await a.tick();
    await b.tick();
    await Promise.all([a.idle(), b.idle()]);
    assert.deepEqual(runs, ["a"]);

    clock += 600;
    await Promise.all([a.tick(), b.tick()]);
    await Promise.all([a.idle(), b.idle()]);
    assert.deepEqual(runs, ["a", "a"]);
    const db = (await open()).db;
    const [row] = await db.select().from(jobLeases).where(eq(jobLeases.name, "job:prune"));
    assert.equal(row.count, 2);
    assert.equal(row.owner, "a");
  });
});

Deno.test("job runner: a leader that stops renewing is replaced once its lease expired; one that stops hands over at once", async () => {
  await withDatabase(async (open) => {
    let clock = 5_000_000;
    const now = () => clock;
    const runs: string[] = [];
    const a = new JobRunner({ db: (await open()).db, log: silentLogger, replicaId: "a", leaseMs: 3000, now });
    const b = new JobRunner({ db: (await open()).db, log: silentLogger, replicaId: "b", leaseMs: 3000, now });
    const c = new JobRunner({ db: (await open()).db, log: silentLogger, replicaId: "c", leaseMs: 3000, now });
    const leadsB: string[] = [];
    b.onLead(() => {
      leadsB.push("b");
      return Promise.resolve();
    });
    const losses: string[] = [];
    a.onLose(() => {
      losses.push("a");
      return Promise.resolve();
    });
    b.onLose(() => {
      losses.push("b");
      return Promise.resolve();
    });
    b.register(counting("prune", "leader", runs, "b", 10_000));
    a.register(counting("prune", "leader", runs, "a", 10_000));
    await a.tick();
    await b.tick();
    assert.deepEqual([a.isLeader, b.isLeader], [true, false]);

    // a hangs (no more ticks): within its lease b still waits, after it b takes over.
    clock += 2000;
    await b.tick();
    assert.equal(b.isLeader, false);
    clock += 1500;
    await b.tick();
    await b.idle();
    assert.equal(b.isLeader, true);
    assert.deepEqual(leadsB, ["b"]);
    assert.deepEqual(runs, ["a"], "the job's due time had not come again: b does not run it twice");
    // a comes back: it finds the lease taken and stops leading.
    await a.tick();
    assert.equal(a.isLeader, false);
    assert.deepEqual(losses, ["a"], "a is told it no longer leads");
    const [leader] = await (await open()).db.select().from(jobLeases).where(eq(jobLeases.name, "leader"));
    assert.equal(leader.owner, "b");
    assert.equal(leader.count, 2, "one change of hands");

    // b stops cleanly: c takes over on its next tick, before b's lease would have run out.
    await b.stop();
    await c.tick();
    assert.equal(c.isLeader, true);
    assert.deepEqual(losses, ["a"], "a clean stop is no loss to report");
  });
});

Deno.test("job runner: replica jobs run on every replica, leader or not", async () => {
  await withDatabase(async (open) => {
    let clock = 9_000_000;
    const now = () => clock;
    const runs: string[] = [];
    const a = new JobRunner({ db: (await open()).db, log: silentLogger, replicaId: "a", leaseMs: 3000, now });
    const b = new JobRunner({ db: (await open()).db, log: silentLogger, replicaId: "b", leaseMs: 3000, now });
    a.register(counting("refresh", "replica", runs, "a"));
    b.register(counting("refresh", "replica", runs, "b"));
    await Promise.all([a.tick(), b.tick()]);
    clock += 1000;
    await Promise.all([a.tick(), b.tick()]);
    await Promise.all([a.idle(), b.idle()]);
    assert.deepEqual(runs.sort(), ["a", "b"]);
  });
});

Deno.test("job runner: with a database file of its own, a restarted server takes the lease its killed predecessor held", async () => {
  await withDatabase(async (open) => {
    const killed = new JobRunner({
      db: (await open()).db,
      log: silentLogger,
      replicaId: "host:4001",
      leaseMs: 30_000,
    });
    await killed.tick();
    assert.equal(killed.isLeader, true);
    const restarted = new JobRunner({
      db: (await open()).db,
      log: silentLogger,
      replicaId: "host:4002",
      leaseMs: 30_000,
    });
    await restarted.start({ take: true });
    try {
      assert.equal(restarted.isLeader, true, "no wait for the dead one's lease to run out");
      await killed.tick();
      assert.equal(killed.isLeader, false);
    } finally {
      await restarted.stop();
    }
  });
});

/** Resolves once `done()` holds, checking every 10 ms (fails after 20 s: a round that never came). */
async function until(done: () => boolean, what: string) {
  const started = Date.now();
  while (!done()) {
    if (Date.now() - started > 20_000) throw new Error(`Never happened: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

Deno.test("job runner: a timed round waits while the server is busy (chats starting), then renews the lease", async () => {
  await withDatabase(async (open) => {
    const events: string[] = [];
    let checks = 0;
    const runner = new JobRunner({
      db: (await open()).db,
      log: silentLogger,
      replicaId: "a",
      leaseMs: 10_000,
      now: () => {
        events.push("round");
        return Date.now();
      },
      busy: () => {
        const busy = ++checks <= 3;
        events.push(busy ? "busy" : "quiet");
        return busy;
      },
    });
    try {
      await runner.start();
      assert.deepEqual(events, ["round"], "the first try for the lease at start does not wait");
      await until(() => events.length >= 6, "the timed round");
      assert.deepEqual(events.slice(0, 6), ["round", "busy", "busy", "busy", "quiet", "round"]);
      assert.equal(runner.isLeader, true);
    } finally {
      await runner.stop();
    }
  });
});

Deno.test("job runner: a round waits a tenth of the lease at most for the server to be quiet", async () => {
  await withDatabase(async (open) => {
    const { db } = await open();
    let checks = 0;
    let rounds = 0;
    const runner = new JobRunner({
      db,
      log: silentLogger,
      replicaId: "a",
      leaseMs: 600,
      now: () => {
        rounds++;
        return Date.now();
      },
      busy: () => {
        checks++;
        return true;
      },
    });
    try {
      assert.equal(runner.maxDeferMs, 60);
      await runner.start();
      await until(() => rounds >= 3, "two timed rounds while always busy");
      assert.ok(checks >= 2, `the rounds waited for the server first (${checks} checks)`);
      const [lease] = await db.select().from(jobLeases).where(eq(jobLeases.name, "leader"));
      assert.equal(lease.owner, "a");
    } finally {
      await runner.stop();
    }
  });
});
