import assert from "node:assert/strict";
import { join } from "node:path";
import { openDatabase } from "../../db/client.ts";
import { rateLimitHits } from "../../db/schema.ts";
import { AUTH_LIMITS, DatabaseAuthLimits, MemoryAuthLimits, pruneRateLimitHits } from "./rate_limit.ts";

Deno.test("rate limits in the database: replicas sharing it count the same attempts", async () => {
  const directory = await Deno.makeTempDir({ prefix: "lectern-limits-" });
  const first = await openDatabase(join(directory, "lectern.db"));
  const second = await openDatabase(join(directory, "lectern.db"));
  try {
    let clock = 10_000_000;
    const now = () => clock;
    const a = new DatabaseAuthLimits(first.client, now);
    const b = new DatabaseAuthLimits(second.client, now);
    const { limit, windowMs } = AUTH_LIMITS.recoveryPerAddressAndUsername;
    const key = ["recoveryPerAddressAndUsername", "10.0.0.1\nalice"] as const;
    // Attempts alternate between the replicas, sent at once: exactly `limit` of them get through.
    const waits = await Promise.all(
      Array.from({ length: limit + 3 }, (_, index) => (index % 2 ? a : b).take([key], [key])),
    );
    assert.equal(waits.filter((wait) => wait === 0).length, limit);
    assert.equal(await a.take([key], [key]), windowMs / 1000, "the wait is until the oldest attempt leaves");
    // Another username from the same address is its own key.
    assert.equal(await b.take([["recoveryPerAddressAndUsername", "10.0.0.1\nbob"]], []), 0);

    clock += windowMs / 2;
    assert.equal(await b.take([key], []), windowMs / 2000);
    await a.reset(key[0], key[1]);
    assert.equal(await b.take([key], []), 0, "a reset on one replica frees the key on the other");

    await b.take([key], [key]);
    clock += windowMs * 5;
    const pruned = await pruneRateLimitHits(first.db, clock);
    assert.ok(pruned >= 1);

    // Two attempts counted at once, the first filling its window: both are counted, or neither.
    const perAddress = ["loginPerAddress", "10.0.0.3"] as const;
    const failures = ["loginFailuresPerAddressAndUsername", "10.0.0.3\ncarol"] as const;
    for (let index = 1; index < AUTH_LIMITS.loginPerAddress.limit; index++) {
      assert.equal(await a.take([perAddress], [perAddress]), 0);
    }
    assert.equal(await b.take([perAddress, failures], [perAddress, failures]), 0);
    assert.ok(await a.take([perAddress, failures], [perAddress, failures]) > 0);
    const counted = await first.db.select().from(rateLimitHits);
    assert.equal(counted.filter((row) => row.key === failures[1]).length, 1);
    assert.equal(
      counted.filter((row) => row.key === perAddress[1]).length,
      AUTH_LIMITS.loginPerAddress.limit,
    );
    await pruneRateLimitHits(first.db, clock + windowMs * 5);
    assert.equal((await first.db.select().from(rateLimitHits)).length, 0);
  } finally {
    first.close();
    second.close();
    await Deno.remove(directory, { recursive: true });
  }
});

Deno.test("rate limits in memory: the same answers as in the database", async () => {
  let clock = 0;
  const limits = new MemoryAuthLimits(() => clock);
  const { limit, windowMs } = AUTH_LIMITS.loginPerAddress;
  const key = ["loginPerAddress", "10.0.0.2"] as const;
  for (let index = 0; index < limit; index++) assert.equal(await limits.take([key], [key]), 0);
  assert.equal(await limits.take([key], [key]), windowMs / 1000);
  clock += windowMs + 1;
  assert.equal(await limits.take([key], [key]), 0);
});
