import assert from "node:assert/strict";
import { eq } from "drizzle-orm";
import { pendingVectors, workspaceDocuments, workspaces } from "../../db/schema.ts";
import { createTestApp } from "../testing/test_app.ts";
import { groupCommit } from "../../db/group_commit.ts";
import {
  releaseReservedVectors,
  reservationSettings,
  RESERVED_RECORDS,
  sweepPendingVectors,
  withPendingVectors,
  withReservedVectors,
} from "./pending_vectors.ts";

const record = (docId: string) => ({
  id: crypto.randomUUID(),
  docId,
  vector: [1, 0, 0],
  text: docId,
  metadata: {},
});

Deno.test("sweepPendingVectors() deletes the vectors a dead process left unreferenced and keeps committed ones", async () => {
  await using app = await createTestApp();
  const { db, vectors } = app.deps;
  const [workspace] = await db.insert(workspaces).values({ name: "W", slug: "w" }).returning();
  await vectors.upsert("ns-sweep", [record("orphan"), record("orphan"), record("kept"), record("mine")]);
  await db.insert(workspaceDocuments).values({
    docId: "kept",
    filename: "kept.json",
    docpath: "custom-documents/kept.json",
    workspaceId: workspace.id,
  });
  await db.insert(pendingVectors).values([
    { boot: "a-dead-process", namespace: "ns-sweep", docId: "orphan" },
    { boot: "a-dead-process", namespace: "ns-sweep", docId: "kept" },
  ]);

  // A write of this process still in progress is not touched.
  await withPendingVectors(db, [{ namespace: "ns-sweep", docId: "mine" }], async () => {
    assert.equal(await sweepPendingVectors(app.deps), 1);
    assert.equal(await vectors.count("ns-sweep"), 2, "kept and mine stay, both orphan chunks went");
    const left = await db.select().from(pendingVectors);
    assert.deepEqual(left.map((row) => row.docId), ["mine"]);
  });
  assert.deepEqual(await db.select().from(pendingVectors), [], "a finished write leaves no record");
  assert.equal(await sweepPendingVectors(app.deps), 0);
});

Deno.test("withPendingVectors() keeps the record when the work fails, for the next start to sweep", async () => {
  await using app = await createTestApp();
  const { db } = app.deps;
  await assert.rejects(
    withPendingVectors(db, [{ namespace: "ns-fail", docId: "d" }], () => Promise.reject(new Error("boom"))),
    /boom/,
  );
  const left = await db.select().from(pendingVectors);
  assert.deepEqual(left.map((row) => [row.namespace, row.docId]), [["ns-fail", "d"]]);
});

Deno.test("withReservedVectors() commits the record before the work, and one commit per document after the first", async () => {
  await using app = await createTestApp();
  const { db, vectors } = app.deps;
  const [workspace] = await db.insert(workspaces).values({ name: "W", slug: "w" }).returning();
  const group = groupCommit(db);
  const batches = group.stats.batches;
  const count = RESERVED_RECORDS * 2 + 3;
  const used = new Set<string>();
  for (let index = 0; index < count; index++) {
    await withReservedVectors(db, "ns-reserved", async (docId) => {
      assert.ok(!used.has(docId), "each document gets its own id");
      used.add(docId);
      // Its record is committed before its first vector is written.
      const rows = await db.select().from(pendingVectors).where(eq(pendingVectors.docId, docId));
      assert.equal(rows.length, 1);
      await vectors.upsert("ns-reserved", [record(docId)]);
    }, (db, docId) =>
      db.insert(workspaceDocuments).values({
        docId,
        filename: `${index}.json`,
        docpath: `custom-documents/${index}.json`,
        workspaceId: workspace.id,
      }));
  }
  assert.equal(group.stats.batches - batches, count + 1, "the first reserve's commit, then one per document");
  const left = await db.select().from(pendingVectors);
  assert.ok(left.length > 0 && left.length <= RESERVED_RECORDS, `${left.length} reserved records`);
  assert.ok(
    left.every((row) => !used.has(row.docId)),
    "a committed document's record is deleted with its row",
  );
  // Left as a dead process leaves them, the reserved records cost the sweep nothing but their rows.
  assert.equal(await sweepPendingVectors(app.deps), 0, "this process's own records are not swept");
  await releaseReservedVectors(db);
  assert.deepEqual(await db.select().from(pendingVectors), []);
  assert.equal(await vectors.count("ns-reserved"), count);
});

Deno.test("withReservedVectors() keeps the used record when the work fails, and the id is not given again", async () => {
  await using app = await createTestApp();
  const { db } = app.deps;
  let failed = "";
  await assert.rejects(
    withReservedVectors(db, "ns-fail", (docId) => {
      failed = docId;
      return Promise.reject(new Error("boom"));
    }, () => {
      throw new Error("not reached");
    }),
    /boom/,
  );
  let next = "";
  await assert.rejects(
    withReservedVectors(db, "ns-fail", (docId) => {
      next = docId;
      return Promise.reject(new Error("boom again"));
    }, () => {
      throw new Error("not reached");
    }),
    /boom again/,
  );
  assert.notEqual(next, failed);
  await releaseReservedVectors(db);
  const left = await db.select().from(pendingVectors);
  assert.deepEqual(left.map((row) => row.docId).sort(), [failed, next].sort());
});

Deno.test("sweepPendingVectors() deletes a dead process's orphans with one delete per namespace", async () => {
  await using app = await createTestApp();
  const { db, vectors } = app.deps;
  await vectors.upsert("ns-a", [record("a1"), record("a2"), record("a3")]);
  await vectors.upsert("ns-b", [record("b1"), record("b2")]);
  await db.insert(pendingVectors).values([
    ...["a1", "a2", "never-written-1", "never-written-2"].map((docId) => ({
      boot: "a-dead-process",
      namespace: "ns-a",
      docId,
    })),
    { boot: "a-dead-process", namespace: "ns-b", docId: "b1" },
  ]);
  const deletes: [string, string[]][] = [];
  const deleteDocuments = vectors.deleteDocuments.bind(vectors);
  vectors.deleteDocuments = (namespace: string, docIds: string[]) => {
    deletes.push([namespace, [...docIds].sort()]);
    return deleteDocuments(namespace, docIds);
  };
  assert.equal(await sweepPendingVectors(app.deps), 5);
  assert.deepEqual(deletes.sort(), [["ns-a", ["a1", "a2", "never-written-1", "never-written-2"]], ["ns-b", [
    "b1",
  ]]]);
  assert.equal(await vectors.count("ns-a"), 1);
  assert.equal(await vectors.count("ns-b"), 1);
  assert.deepEqual(await db.select().from(pendingVectors), []);
});

Deno.test("withReservedVectors() does not use a reserved record past its age, and deletes it with the next commit", async () => {
  await using app = await createTestApp();
  const { db } = app.deps;
  const [workspace] = await db.insert(workspaces).values({ name: "W", slug: "w" }).returning();
  const embed = (name: string) =>
    withReservedVectors(
      db,
      "ns-age",
      (docId) => Promise.resolve(docId),
      (db, docId) =>
        db.insert(workspaceDocuments).values({
          docId,
          filename: `${name}.json`,
          docpath: `custom-documents/${name}.json`,
          workspaceId: workspace.id,
        }),
    );
  const first = await embed("first");
  const reserved = (await db.select().from(pendingVectors)).map((row) => row.docId);
  assert.equal(reserved.length, RESERVED_RECORDS - 1);
  const maxAgeMs = reservationSettings.maxAgeMs;
  reservationSettings.maxAgeMs = 20;
  try {
    await new Promise((resolve) => setTimeout(resolve, 60));
    const second = await embed("second");
    assert.ok(![first, ...reserved].includes(second), "the second document's id is from a new reserve");
    const left = (await db.select().from(pendingVectors)).map((row) => row.docId);
    assert.equal(left.length, RESERVED_RECORDS - 1, "the new reserve's others");
    assert.ok(left.every((docId) => !reserved.includes(docId)), "the old reserve's records are deleted");
  } finally {
    reservationSettings.maxAgeMs = maxAgeMs;
  }
});
