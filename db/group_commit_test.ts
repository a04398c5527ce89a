import assert from "node:assert/strict";
import { join } from "node:path";
import { openDatabase } from "./client.ts";
import { createGroupCommit } from "./group_commit.ts";
import { documents, eventLogs } from "./schema.ts";

async function withDatabase(test: (opened: Awaited<ReturnType<typeof openDatabase>>) => Promise<void>) {
  const dir = await Deno.makeTempDir({ prefix: "lectern-group-commit-" });
  const opened = await openDatabase(join(dir, "lectern.db"));
  try {
    await test(opened);
  } finally {
    opened.close();
    await Deno.remove(dir, { recursive: true });
  }
}

const documentRow = (location: string) => ({
  location,
  folder: location.split("/")[0],
  filename: location.split("/")[1],
  title: location,
  metadata: "{}",
  wordCount: 1,
  tokenCountEstimate: 1,
});

Deno.test("writes asked for together are committed in one batch, each caller answered with its own results", async () => {
  await withDatabase(async ({ db }) => {
    const group = createGroupCommit(db);
    const answers = await Promise.all(
      ["a", "b", "c"].map((name) =>
        group.commit([
          db.insert(documents).values(documentRow(`custom-documents/${name}.json`))
            .returning({ location: documents.location }),
          db.insert(eventLogs).values({ event: "document_uploaded", metadata: `{"name":"${name}"}` }),
        ])
      ),
    );
    assert.deepEqual(group.stats, { batches: 1, requests: 3 });
    assert.deepEqual(
      answers.map((results) => results[0]),
      ["a", "b", "c"].map((name) => [{ location: `custom-documents/${name}.json` }]),
    );
    assert.equal((await db.select().from(documents)).length, 3);
    assert.equal((await db.select().from(eventLogs)).length, 3);

    // A write asked for after the group was committed goes in a batch of its own.
    await group.commit([db.insert(documents).values(documentRow("custom-documents/d.json"))]);
    assert.deepEqual(group.stats, { batches: 2, requests: 4 });
  });
});

Deno.test("a failing caller in a group fails alone: the others' writes are committed", async () => {
  await withDatabase(async ({ db }) => {
    const group = createGroupCommit(db);
    await group.commit([db.insert(documents).values(documentRow("custom-documents/taken.json"))]);
    const outcomes = await Promise.allSettled([
      group.commit([
        db.insert(documents).values(documentRow("custom-documents/first.json")),
        db.insert(eventLogs).values({ event: "document_uploaded", metadata: '{"name":"first"}' }),
      ]),
      // The location is taken: this caller's batch breaks the unique constraint.
      group.commit([
        db.insert(eventLogs).values({ event: "document_uploaded", metadata: '{"name":"clash"}' }),
        db.insert(documents).values(documentRow("custom-documents/taken.json")),
      ]),
      group.commit([db.insert(documents).values(documentRow("custom-documents/last.json"))]),
    ]);
    assert.deepEqual(outcomes.map((outcome) => outcome.status), ["fulfilled", "rejected", "fulfilled"]);
    assert.match(String((outcomes[1] as PromiseRejectedResult).reason?.cause ?? ""), /UNIQUE/);
    const locations = (await db.select({ location: documents.location }).from(documents))
      .map((row) => row.location).sort();
    assert.deepEqual(locations, [
      "custom-documents/first.json",
      "custom-documents/last.json",
      "custom-documents/taken.json",
    ]);
    // The failing caller's other write was rolled back with it; the first caller's was kept.
    const events = (await db.select({ metadata: eventLogs.metadata }).from(eventLogs)).map((row) =>
      row.metadata
    );
    assert.deepEqual(events, ['{"name":"first"}']);
  });
});

Deno.test("a group is committed without waiting for a timer: Deno runs a 0 ms timer a millisecond or more later", async () => {
  await withDatabase(async ({ db }) => {
    const group = createGroupCommit(db);
    const realSetTimeout = globalThis.setTimeout;
    const held: (() => void)[] = [];
    let committedWhileHeld = false;
    let answer: Promise<unknown> | undefined;
    // Timers stand still meanwhile: a group that waited for one would not be committed.
    globalThis.setTimeout = ((callback: () => void) => {
      held.push(callback);
      return 0;
    }) as unknown as typeof setTimeout;
    try {
      let committed = false;
      answer = group.commit([db.insert(documents).values(documentRow("custom-documents/a.json"))])
        .then(() => (committed = true));
      for (let round = 0; round < 2000 && !committed; round++) await Deno.stat(".");
      committedWhileHeld = committed;
    } finally {
      globalThis.setTimeout = realSetTimeout;
    }
    // What waited for a held timer runs now, so nothing is left pending.
    for (const callback of held) callback();
    await answer;
    assert.equal(committedWhileHeld, true);
    assert.deepEqual(group.stats, { batches: 1, requests: 1 });
  });
});
