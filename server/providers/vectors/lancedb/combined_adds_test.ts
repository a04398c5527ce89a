import assert from "node:assert/strict";
import { embedLexical } from "../../embedders/native.ts";
import { openLanceStore } from "../lancedb.ts";
import { lanceAddStats } from "./store.ts";
import type { VectorRecord } from "../types.ts";

const rows = (
  prefix: string,
  count: number,
  vector = (index: number) => embedLexical(`${prefix} ${index}`),
) =>
  Array.from({ length: count }, (_, index): VectorRecord => ({
    id: `${prefix}-${index}`,
    docId: prefix,
    vector: vector(index),
    text: `${prefix} chunk ${index}`,
    metadata: { title: `${prefix}.txt` },
  }));

/** The versions the table has been through (each commit makes one). */
async function versions(directory: string, namespace: string): Promise<number> {
  const lancedb = await import("@lancedb/lancedb");
  const connection = await lancedb.connect(directory);
  try {
    const table = await connection.openTable(namespace);
    const count = (await table.listVersions()).length;
    table.close();
    return count;
  } finally {
    connection.close();
  }
}

Deno.test("LanceDB store: adds queued while a write runs go in as one commit; an add that cannot be built fails alone", async () => {
  const directory = await Deno.makeTempDir({ prefix: "lectern-lance-" });
  const store = await openLanceStore(directory, { maintenanceDelayMs: 60_000 });
  try {
    await store.upsert("ws1", rows("first", 3));
    const before = await versions(directory, "ws1");
    const counted = { ...lanceAddStats };
    // Twenty documents arrive together, one of them with vectors of the wrong length.
    const results = await Promise.allSettled([
      ...Array.from({ length: 20 }, (_, index) => store.upsert("ws1", rows(`doc${index}`, 4))),
      store.upsert("ws1", [...rows("bad", 1), ...rows("bad-short", 1, () => [1, 0, 0])]),
    ]);
    assert.deepEqual(results.slice(0, 20).map((result) => result.status), Array(20).fill("fulfilled"));
    assert.equal(results[20].status, "rejected");
    assert.match(String((results[20] as PromiseRejectedResult).reason), /differ in length/);
    assert.equal(await store.count("ws1"), 3 + 20 * 4);
    const commits = (await versions(directory, "ws1")) - before;
    assert.ok(commits >= 1 && commits <= 2, `twenty adds made ${commits} commits`);
    // The counts the ingest benchmark prints: the twenty adds written, in the commits made.
    assert.equal(lanceAddStats.adds - counted.adds, 20);
    assert.equal(lanceAddStats.commits - counted.commits, commits);
    const hits = await store.search("ws1", embedLexical("doc7 2"), { topK: 1 });
    assert.equal(hits[0].id, "doc7-2");
  } finally {
    await store.close();
    await Deno.remove(directory, { recursive: true });
  }
});

Deno.test("LanceDB store: a commit that fails rejects every add in it, and those adds can be made again", async () => {
  const directory = await Deno.makeTempDir({ prefix: "lectern-lance-" });
  const store = await openLanceStore(directory, { maintenanceDelayMs: 60_000 });
  try {
    await store.upsert("ws1", rows("first", 3));
    const before = { ...lanceAddStats };
    // Two adds that build (their vectors agree with each other) but do not fit the table's vector column.
    const short = (prefix: string) => rows(prefix, 2, (index) => [1, index, 0]);
    const results = await Promise.allSettled([
      store.upsert("ws1", short("a")),
      store.upsert("ws1", short("b")),
    ]);
    assert.deepEqual(results.map((result) => result.status), ["rejected", "rejected"]);
    assert.equal(lanceAddStats.commits - before.commits, 0);
    assert.equal(await store.count("ws1"), 3);
    // The same documents again, with vectors of the table's length: their rows are built anew and written.
    await Promise.all([store.upsert("ws1", rows("a", 2)), store.upsert("ws1", rows("b", 2))]);
    assert.equal(await store.count("ws1"), 3 + 2 + 2);
  } finally {
    await store.close();
    await Deno.remove(directory, { recursive: true });
  }
});

/** Lets every timer, callback and LanceDB call under way settle (none of them is waited for by its duration). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

Deno.test("LanceDB store: an add waits for the adds of announced uploads and goes in one commit with them", async () => {
  const directory = await Deno.makeTempDir({ prefix: "lectern-lance-" });
  // No bound on the wait here: only the announced add (or its withdrawal) lets the first one go.
  const store = await openLanceStore(directory, { maintenanceDelayMs: 60_000, gatherMaxMs: 600_000 });
  try {
    await store.upsert("ws1", rows("first", 3));
    const versionsBefore = await versions(directory, "ws1");
    const before = { ...lanceAddStats };
    const first = store.expectAdds("ws1");
    const second = store.expectAdds("ws1");
    let firstDone = false;
    const firstAdd = store.upsert("ws1", rows("a", 2)).then(() => (firstDone = true));
    // The first upload's add is held (an earlier write would have finished by now) until the second one's comes.
    for (let turn = 0; turn < 20; turn++) await settle();
    assert.equal(firstDone, false);
    assert.equal(lanceAddStats.commits - before.commits, 0);
    await Promise.all([firstAdd, store.upsert("ws1", rows("b", 2))]);
    first();
    second();
    assert.equal(lanceAddStats.commits - before.commits, 1);
    assert.equal(lanceAddStats.adds - before.adds, 2);
    assert.equal((await versions(directory, "ws1")) - versionsBefore, 1);
    assert.equal(await store.count("ws1"), 3 + 2 + 2);
    // Nothing announced any more: an add is written at once.
    await store.upsert("ws1", rows("c", 1));
    assert.equal(lanceAddStats.commits - before.commits, 2);
  } finally {
    await store.close();
    await Deno.remove(directory, { recursive: true });
  }
});

Deno.test("LanceDB store: an announcement taken back (a refused file) lets the waiting add go; taking it back twice counts once", async () => {
  const directory = await Deno.makeTempDir({ prefix: "lectern-lance-" });
  const store = await openLanceStore(directory, { maintenanceDelayMs: 60_000, gatherMaxMs: 600_000 });
  try {
    await store.upsert("ws1", rows("first", 3));
    const writer = store.expectAdds("ws1");
    const refused = store.expectAdds("ws1");
    const third = store.expectAdds("ws1");
    refused();
    refused();
    let done = false;
    const waiting = store.upsert("ws1", rows("a", 2)).then(() => (done = true));
    for (let turn = 0; turn < 20; turn++) await settle();
    // Two announcements are still out (the writer's and the third): the add waits.
    assert.equal(done, false);
    third();
    await waiting;
    writer();
    assert.equal(await store.count("ws1"), 3 + 2);
  } finally {
    await store.close();
    await Deno.remove(directory, { recursive: true });
  }
});

Deno.test("LanceDB store: an add waits no longer than the bound for an announced one that does not come, which is not waited for again", async () => {
  const directory = await Deno.makeTempDir({ prefix: "lectern-lance-" });
  const store = await openLanceStore(directory, { maintenanceDelayMs: 60_000, gatherMaxMs: 1 });
  try {
    const slow = store.expectAdds("ws1");
    const own = store.expectAdds("ws1");
    assert.equal(store.announcedAdds("ws1"), 2);
    await store.upsert("ws1", rows("a", 2));
    own();
    assert.equal(await store.count("ws1"), 2);
    // The slow upload missed the bound: later adds do not wait for it, and its answer changes nothing.
    assert.equal(store.announcedAdds("ws1"), 0);
    const next = store.expectAdds("ws1");
    assert.equal(store.announcedAdds("ws1"), 1);
    slow();
    assert.equal(store.announcedAdds("ws1"), 1);
    next();
    assert.equal(store.announcedAdds("ws1"), 0);
  } finally {
    await store.close();
    await Deno.remove(directory, { recursive: true });
  }
});

Deno.test("LanceDB store: adds waiting for announced ones are written when the store closes", async () => {
  const directory = await Deno.makeTempDir({ prefix: "lectern-lance-" });
  const store = await openLanceStore(directory, { maintenanceDelayMs: 60_000, gatherMaxMs: 600_000 });
  let closed = false;
  try {
    await store.upsert("ws1", rows("first", 3));
    store.expectAdds("ws1");
    store.expectAdds("ws1");
    const waiting = store.upsert("ws1", rows("a", 2));
    await store.close();
    closed = true;
    await assert.doesNotReject(waiting);
    const reopened = await openLanceStore(directory, { maintenanceDelayMs: 60_000 });
    try {
      assert.equal(await reopened.count("ws1"), 3 + 2);
    } finally {
      await reopened.close();
    }
  } finally {
    if (!closed) await store.close();
    await Deno.remove(directory, { recursive: true });
  }
});
