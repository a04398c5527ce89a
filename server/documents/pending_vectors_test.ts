import assert from "node:assert/strict";
import { pendingVectors, workspaceDocuments, workspaces } from "../../db/schema.ts";
import { createTestApp } from "../testing/test_app.ts";
import { sweepPendingVectors, withPendingVectors } from "./pending_vectors.ts";

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
