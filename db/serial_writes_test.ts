import assert from "node:assert/strict";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { openDatabase } from "./client.ts";
import { mayWrite } from "./serial_writes.ts";
import { systemSettings as settings } from "./schema.ts";

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

Deno.test("a write made while a transaction awaits between its statements waits for it instead of failing busy", async () => {
  const dir = await Deno.makeTempDir({ prefix: "lectern-serial-" });
  const opened = await openDatabase(join(dir, "lectern.db"));
  try {
    const { db } = opened;
    const order: string[] = [];
    const transaction = db.transaction(async (tx) => {
      await tx.insert(settings).values({ label: "serial_a", value: "1" });
      order.push("transaction wrote");
      // The callback awaits something else (a file, a vector store) while it holds the write lock.
      await pause(300);
      await tx.insert(settings).values({ label: "serial_b", value: "2" });
      order.push("transaction ends");
    });
    await pause(50);
    // Outside the transaction, on the client's own connection: SQLite's busy wait would sleep the thread the
    // transaction needs, and this write would fail with SQLITE_BUSY after the busy timeout.
    const outside = db.insert(settings).values({ label: "serial_c", value: "3" }).then(() => {
      order.push("outside wrote");
    });
    // A second transaction takes its turn after the first.
    const second = db.transaction(async (tx) => {
      await tx.update(settings).set({ value: "4" }).where(eq(settings.label, "serial_a"));
      order.push("second transaction");
    });
    // A read does not wait for the transaction.
    const read = await db.select().from(settings).where(eq(settings.label, "serial_c"));
    assert.deepEqual(read, []);
    await Promise.all([transaction, outside, second]);
    assert.deepEqual(order.slice(0, 2), ["transaction wrote", "transaction ends"]);
    assert.deepEqual(new Set(order.slice(2)), new Set(["outside wrote", "second transaction"]));
    const rows = await db.select().from(settings);
    const values = Object.fromEntries(
      rows.filter((row) => row.label.startsWith("serial_")).map((row) => [row.label, row.value]),
    );
    assert.deepEqual(values, { serial_a: "4", serial_b: "2", serial_c: "3" });
  } finally {
    opened.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a failed transaction lets the next writes go on", async () => {
  const dir = await Deno.makeTempDir({ prefix: "lectern-serial-" });
  const opened = await openDatabase(join(dir, "lectern.db"));
  try {
    const { db } = opened;
    await assert.rejects(
      db.transaction(async (tx) => {
        await tx.insert(settings).values({ label: "serial_x", value: "1" });
        await pause(20);
        throw new Error("the callback failed");
      }),
      /the callback failed/,
    );
    await db.insert(settings).values({ label: "serial_y", value: "2" });
    const labels = (await db.select().from(settings)).map((row) => row.label);
    assert.ok(labels.includes("serial_y"));
    assert.ok(!labels.includes("serial_x"), "the failed transaction was rolled back");
  } finally {
    opened.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("statements that may write are told from reads", () => {
  assert.equal(mayWrite("insert into t values (1)"), true);
  assert.equal(mayWrite({ sql: "  UPDATE t SET a = 1", args: [] }), true);
  assert.equal(mayWrite("delete from t"), true);
  assert.equal(mayWrite("PRAGMA journal_mode = WAL"), true);
  assert.equal(mayWrite("select * from t"), false);
  assert.equal(mayWrite({ sql: "SELECT count(*) FROM t", args: [] }), false);
});

Deno.test("write transactions started together take turns, one at a time, and all commit", async () => {
  const dir = await Deno.makeTempDir({ prefix: "lectern-serial-" });
  const opened = await openDatabase(join(dir, "lectern.db"));
  try {
    const { db } = opened;
    let inside = 0;
    let most = 0;
    const first = db.transaction(async (tx) => {
      await tx.insert(settings).values({ label: "turn_first", value: "0" });
      await pause(100);
    });
    // Queued behind the first: when it ends, all of them see the turn free at once.
    await pause(20);
    await Promise.all([
      first,
      ...Array.from({ length: 6 }, (_, index) =>
        db.transaction(async (tx) => {
          inside++;
          most = Math.max(most, inside);
          await tx.insert(settings).values({ label: `turn_${index}`, value: String(index) });
          await pause(10);
          inside--;
        })),
    ]);
    assert.equal(most, 1, "never two transactions at once");
    const labels = (await db.select().from(settings)).map((row) => row.label).filter((label) =>
      label.startsWith("turn_")
    );
    assert.equal(labels.length, 7);
  } finally {
    opened.close();
    await Deno.remove(dir, { recursive: true });
  }
});
