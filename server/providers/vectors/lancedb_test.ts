import assert from "node:assert/strict";
import { embedLexical } from "../embedders/native.ts";
import { type LanceStore, openLanceStore } from "./lancedb.ts";
import type { VectorRecord } from "./types.ts";
import { seededRandom as random } from "../../testing/random.ts";

const DIMENSIONS = 384;

function normalise(vector: number[]): number[] {
  const norm = Math.hypot(...vector);
  return vector.map((value) => value / norm);
}

/** Points around a few centres, the way real embeddings cluster by topic. */
function clustered(count: number, seed: number): number[][] {
  const next = random(seed);
  const gaussian = () => Math.sqrt(-2 * Math.log(next() + 1e-12)) * Math.cos(2 * Math.PI * next());
  const centres = Array.from({ length: 24 }, () => normalise(Array.from({ length: DIMENSIONS }, gaussian)));
  return Array.from({ length: count }, (_, index) => {
    const centre = centres[index % centres.length];
    return normalise(centre.map((value) => value + 0.08 * gaussian()));
  });
}

function records(
  vectors: number[][],
  prefix: string,
  text = (index: number) => `chunk ${index}`,
): VectorRecord[] {
  return vectors.map((vector, index) => ({
    id: `${prefix}-${index}`,
    docId: `${prefix}-doc-${index % 10}`,
    vector,
    text: text(index),
    metadata: { title: `${prefix}.txt`, index },
  }));
}

function exactTop(vectors: { id: string; vector: number[] }[], query: number[], k: number): string[] {
  return vectors
    .map(({ id, vector }) => ({
      id,
      dot: vector.reduce((sum, value, index) => sum + value * query[index], 0),
    }))
    .sort((a, b) => b.dot - a.dot)
    .slice(0, k)
    .map(({ id }) => id);
}

async function withStore(
  options: Parameters<typeof openLanceStore>[1],
  test: (store: LanceStore, directory: string) => Promise<void>,
) {
  const directory = await Deno.makeTempDir({ prefix: "lectern-lance-" });
  const store = await openLanceStore(directory, { maintenanceDelayMs: 10, ...options });
  try {
    await test(store, directory);
  } finally {
    await store.idle();
    await store.close();
    await Deno.remove(directory, { recursive: true });
  }
}

Deno.test("LanceDB store: adds, searches by cosine similarity, counts, deletes by document and drops namespaces", async () => {
  await withStore({}, async (store) => {
    const a = normalise([1, 0, 0, ...Array(DIMENSIONS - 3).fill(0)]);
    const b = normalise([0, 1, 0, ...Array(DIMENSIONS - 3).fill(0)]);
    const ab = normalise([1, 1, 0, ...Array(DIMENSIONS - 3).fill(0)]);
    await store.upsert("ws1_x", [
      { id: "a", docId: "d1", vector: a, text: "alpha", metadata: { title: "one" } },
      { id: "b", docId: "d2", vector: b, text: "beta", metadata: { title: "two" } },
    ]);
    await store.upsert("ws1_x", [{
      id: "ab",
      docId: "d1",
      vector: ab,
      text: "both",
      metadata: { title: "one" },
    }]);
    await store.upsert("ws2_x", [{ id: "z", docId: "d9", vector: a, text: "other", metadata: {} }]);
    assert.equal(await store.count("ws1_x"), 3);
    assert.equal(await store.count("ws404_x"), 0);
    assert.deepEqual(await store.search("ws404_x", a, { topK: 3 }), []);

    const hits = await store.search("ws1_x", a, { topK: 2 });
    assert.deepEqual(hits.map((hit) => hit.id), ["a", "ab"]);
    assert.ok(Math.abs(hits[0].score - 1) < 1e-6);
    assert.ok(Math.abs(hits[1].score - Math.SQRT1_2) < 1e-3, "similarity is 1 − cosine distance");
    assert.deepEqual(hits[0].metadata, { title: "one" });
    assert.equal(hits[0].docId, "d1");
    // Opposite vectors: distance 2, similarity clamped to 0 (no "d ≥ 1 → 1" quirk).
    const opposite = await store.search("ws1_x", a.map((value) => -value), { topK: 1 });
    assert.equal(opposite[0].score, 0);

    await store.deleteDocuments("ws1_x", ["d1", "it's-quoted"]);
    assert.equal(await store.count("ws1_x"), 1);
    await store.dropNamespaces("ws1_");
    assert.equal(await store.count("ws1_x"), 0);
    assert.equal(await store.count("ws2_x"), 1, "another workspace's namespace stays");
  });
});

Deno.test("LanceDB store: hybrid search finds by words what the vector misses, scored by vector similarity", async () => {
  await withStore({}, async (store) => {
    const texts = [
      "The quarterly budget review covers travel expenses and office supplies.",
      "Our hiring plan adds two engineers and one designer next spring.",
      "The zeppelin maintenance manual lists helium valve inspection steps.",
      "Quarterly revenue grew while travel costs stayed flat.",
      "Office supplies are ordered every month from the usual vendor.",
    ];
    // Vectors that ignore the words: the zeppelin chunk is the farthest from the question's vector.
    const next = random(7);
    const query = normalise(Array.from({ length: DIMENSIONS }, () => next() - 0.5));
    const vectors = texts.map((_, index) =>
      normalise(query.map((value) => value * (index === 2 ? 0.2 : 1) + (next() - 0.5) * 0.08))
    );
    await store.upsert(
      "ws1_h",
      texts.map((text, index) => ({
        id: `c${index}`,
        docId: `d${index}`,
        vector: vectors[index],
        text,
        metadata: { index },
      })),
    );
    assert.deepEqual(await store.indexState("ws1_h"), { fullText: true, ann: null });

    const vectorOnly = await store.search("ws1_h", query, { topK: 2 });
    assert.ok(!vectorOnly.some((hit) => hit.id === "c2"));
    const hybrid = await store.search("ws1_h", query, {
      topK: 2,
      text: "How do I inspect a zeppelin's helium valve?",
    });
    const zeppelin = hybrid.find((hit) => hit.id === "c2");
    assert.ok(zeppelin, `the word match is fused in: ${hybrid.map((hit) => hit.id)}`);
    const expected = vectors[2].reduce((sum, value, index) => sum + value * query[index], 0);
    assert.ok(Math.abs(zeppelin.score - expected) < 1e-4, "a full-text hit carries its vector similarity");
    // Every hit returned carries its metadata as stored, parsed (the store parses only the hits it returns).
    for (const hit of [...vectorOnly, ...hybrid]) {
      assert.deepEqual(hit.metadata, { index: Number(hit.id.slice(1)) });
      assert.equal(hit.docId, `d${hit.id.slice(1)}`);
    }
    const sides = await store.rankings("ws1_h", query, "zeppelin helium valve", 5);
    for (const hit of [...sides.byVector, ...sides.byText]) {
      assert.deepEqual(hit.metadata, { index: Number(hit.id.slice(1)) });
    }

    // Rows added after the index was made are searched by their words too (then folded in by maintenance).
    await store.upsert("ws1_h", [{
      id: "late",
      docId: "d9",
      vector: vectors[0],
      text: "Kraken sightings",
      metadata: {},
    }]);
    const late = await store.search("ws1_h", query.map((value) => -value), { topK: 1, text: "kraken" });
    assert.equal(late[0]?.id, "late");
    await store.idle();
    const again = await store.search("ws1_h", query.map((value) => -value), { topK: 1, text: "kraken" });
    assert.equal(again[0]?.id, "late");

    // Query syntax in a message is just words; a message without words searches by vector only.
    for (const text of ['"unbalanced AND (quote', "-- ** ::", "", "the of and"]) {
      const hits = await store.search("ws1_h", query, { topK: 3, text });
      assert.equal(hits.length, 3, JSON.stringify(text));
    }
  });
});

Deno.test("LanceDB store: a table made before full-text search gets its index in the background", async () => {
  const directory = await Deno.makeTempDir({ prefix: "lectern-lance-" });
  try {
    const lancedb = await import("@lancedb/lancedb");
    const connection = await lancedb.connect(directory);
    const vector = embedLexical("Pelicans nest on the islands");
    await connection.createTable("ws3_old", [{
      id: "p",
      doc_id: "d",
      text: "Pelicans nest on the islands",
      metadata: "{}",
      vector,
    }, {
      id: "q",
      doc_id: "d",
      text: "Other birds fly south",
      metadata: "{}",
      vector: embedLexical("Other birds fly south"),
    }]);
    connection.close();

    const store = await openLanceStore(directory, { maintenanceDelayMs: 10 });
    try {
      const before = await store.search("ws3_old", vector, { topK: 1, text: "pelicans" });
      assert.equal(before[0].id, "p", "searches by vector while the index is missing");
      await store.idle();
      assert.deepEqual(await store.indexState("ws3_old"), { fullText: true, ann: null });
      const after = await store.search("ws3_old", embedLexical("birds"), { topK: 2, text: "pelicans" });
      assert.ok(after.some((hit) => hit.id === "p"));
    } finally {
      await store.close();
    }
  } finally {
    await Deno.remove(directory, { recursive: true });
  }
});

Deno.test("LanceDB store: a large table gets an ANN index in the background with recall@10 ≥ 0.95 against exact search, rebuilt after growth", async () => {
  // The memory scan off: the index answers every search (exact_cache_test.ts tests the two together).
  await withStore({ annMinRows: 3_000, exactCacheBytes: 0 }, async (store, directory) => {
    const vectors = clustered(6_000, 11);
    const all = records(vectors, "r");
    await store.upsert("ws1_ann", all.slice(0, 2_000));
    await store.idle();
    assert.deepEqual(
      await store.indexState("ws1_ann"),
      { fullText: true, ann: null },
      "small tables stay exact",
    );

    await store.upsert("ws1_ann", all.slice(2_000, 3_000));
    // The build runs in the background: searching meanwhile answers at once.
    const during = await store.search("ws1_ann", vectors[5], { topK: 10 });
    assert.equal(during.length, 10);
    await store.idle();
    assert.deepEqual((await store.indexState("ws1_ann"))?.ann, { rows: 3_000 });

    const queries = clustered(60, 99);
    const indexed = all.slice(0, 3_000);
    let found = 0;
    for (const query of queries) {
      const exact = exactTop(indexed, query, 10);
      const hits = await store.search("ws1_ann", query, { topK: 10 });
      found += hits.filter((hit) => exact.includes(hit.id)).length;
    }
    const recall = found / (queries.length * 10);
    assert.ok(recall >= 0.95, `recall@10 ${recall}`);

    // Rows added later are searched too; doubling the table rebuilds the index on all rows.
    await store.upsert("ws1_ann", all.slice(3_000));
    await store.idle();
    assert.deepEqual((await store.indexState("ws1_ann"))?.ann, { rows: 6_000 });
    let foundAfter = 0;
    for (const query of queries) {
      const exact = exactTop(all, query, 10);
      const hits = await store.search("ws1_ann", query, { topK: 10 });
      foundAfter += hits.filter((hit) => exact.includes(hit.id)).length;
    }
    assert.ok(foundAfter / (queries.length * 10) >= 0.95, `recall@10 after growth ${foundAfter / 600}`);
    assert.equal(await store.count("ws1_ann"), 6_000);

    // The index is known again after a restart (its name keeps the rows it was built on).
    const reopened = await openLanceStore(directory, { annMinRows: 3_000 });
    try {
      assert.deepEqual((await reopened.indexState("ws1_ann"))?.ann, { rows: 6_000 });
    } finally {
      await reopened.close();
    }
  });
});

Deno.test("LanceDB store: after many commits the tables move to a fresh connection while searches, adds and deletes go on", async () => {
  await withStore({ reconnectAfterCommits: 4, maintenanceDelayMs: 50 }, async (store) => {
    const vectors = clustered(240, 7);
    const batches = [0, 1].map((side) => records(vectors.slice(side * 120, side * 120 + 120), `ws${side}`));
    let searching = true;
    let searches = 0;
    // Searches run all along on both tables, several at once; one on a closed handle would throw.
    const searcher = Promise.all(Array.from({ length: 6 }, async () => {
      while (searching) {
        for (const namespace of ["ws1_move", "ws2_move"]) {
          await store.search(namespace, vectors[searches % vectors.length], {
            topK: 3,
            text: "chunk",
          });
          await store.count(namespace);
          searches++;
        }
      }
    }));
    for (let step = 0; step < 12; step++) {
      await Promise.all([
        store.upsert("ws1_move", batches[0].slice(step * 10, step * 10 + 10)),
        store.upsert("ws2_move", batches[1].slice(step * 10, step * 10 + 10)),
      ]);
      if (step === 6) await store.deleteDocuments("ws1_move", ["ws0-doc-3"]);
    }
    await store.idle();
    searching = false;
    await searcher;
    assert.ok(store.connectionsOpened() >= 4, `connections opened: ${store.connectionsOpened()}`);
    assert.ok(searches > 0);
    // The 7 rows of document 3 added by then are removed; its 5 rows added later stay.
    assert.equal(await store.count("ws1_move"), 120 - 7);
    assert.equal(await store.count("ws2_move"), 120);
    const hits = await store.search("ws2_move", vectors[130], { topK: 1 });
    assert.equal(hits[0].id, "ws1-10");
    assert.deepEqual(await store.indexState("ws1_move"), { fullText: true, ann: null });
  });
});

Deno.test("LanceDB store: close() waits for the writes under way, which are kept, so nothing writes into the folder after it", async () => {
  const directory = await Deno.makeTempDir({ prefix: "lectern-lance-" });
  try {
    const store = await openLanceStore(directory, { maintenanceDelayMs: 3_600_000 });
    const vectors = clustered(50, 7);
    await store.upsert("ws4_close", records(vectors.slice(0, 1), "first"));
    // Queued behind one another on the table, none of them awaited before close().
    const writes = [1, 2, 3, 4, 5].map((batch) =>
      store.upsert("ws4_close", records(vectors.slice(batch * 9 - 8, batch * 9 + 1), `batch${batch}`))
    );
    let settled = false;
    const outcomes = Promise.allSettled(writes).then((results) => {
      settled = true;
      return results;
    });
    await store.close();
    assert.ok(settled, "close() returned while writes were under way");
    assert.deepEqual((await outcomes).map((outcome) => outcome.status), Array(5).fill("fulfilled"));
    const reopened = await openLanceStore(directory, { maintenanceDelayMs: 3_600_000 });
    try {
      assert.equal(await reopened.count("ws4_close"), 46);
    } finally {
      await reopened.close();
    }
  } finally {
    await Deno.remove(directory, { recursive: true });
  }
});
