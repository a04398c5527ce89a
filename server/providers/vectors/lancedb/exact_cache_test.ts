import assert from "node:assert/strict";
import { type LanceStore, openLanceStore } from "../lancedb.ts";
import type { VectorRecord } from "../types.ts";
import { seededRandom as random } from "../../../testing/random.ts";

const DIMENSIONS = 64;

function vectors(count: number, seed: number): number[][] {
  const next = random(seed);
  return Array.from({ length: count }, () => Array.from({ length: DIMENSIONS }, () => next() - 0.5));
}

function records(list: number[][], prefix: string): VectorRecord[] {
  return list.map((vector, index) => ({
    id: `${prefix}-${index}`,
    docId: `${prefix}-doc-${index % 7}`,
    vector,
    text: `chunk ${prefix} ${index}`,
    metadata: { title: `${prefix}.txt`, index },
  }));
}

async function withStores(
  test: (cached: LanceStore, plain: LanceStore) => Promise<void>,
  cacheBytes?: number,
  options: Parameters<typeof openLanceStore>[1] = {},
) {
  const directories = [
    await Deno.makeTempDir({ prefix: "lectern-exact-" }),
    await Deno.makeTempDir({ prefix: "lectern-exact-" }),
  ];
  const cached = await openLanceStore(directories[0], {
    maintenanceDelayMs: 3_600_000,
    exactCacheBytes: cacheBytes,
    ...options,
  });
  const plain = await openLanceStore(directories[1], { maintenanceDelayMs: 3_600_000, exactCacheBytes: 0 });
  try {
    await test(cached, plain);
  } finally {
    for (const store of [cached, plain]) {
      await store.idle();
      await store.close();
    }
    for (const directory of directories) await Deno.remove(directory, { recursive: true });
  }
}

Deno.test("LanceDB exact cache: a small table's search in memory gives LanceDB's own exact hits, scores and rows", async () => {
  await withStores(async (cached, plain) => {
    const rows = records(vectors(400, 1), "a");
    await cached.upsert("ws", rows);
    await plain.upsert("ws", rows);
    for (const query of vectors(12, 2)) {
      const mine = await cached.search("ws", query, { topK: 8 });
      const lance = await plain.search("ws", query, { topK: 8 });
      assert.deepEqual(mine.map((hit) => hit.id), lance.map((hit) => hit.id));
      for (const [index, hit] of mine.entries()) {
        assert.ok(Math.abs(hit.score - lance[index].score) < 1e-5, `${hit.score} vs ${lance[index].score}`);
        assert.deepEqual({ ...hit, score: 0 }, { ...lance[index], score: 0 });
      }
    }
    assert.equal(cached.exactCacheState().loads, 1, "the rows are read once for all the searches");
    assert.ok(cached.exactCacheState().bytes >= 400 * DIMENSIONS * 4);
    assert.equal(plain.exactCacheState().loads, 0);
    assert.equal(await cached.count("ws"), 400);
  });
});

Deno.test("LanceDB exact cache: an add or a delete is seen by the next search, which reads the rows again", async () => {
  await withStores(async (cached) => {
    await cached.upsert("ws", records(vectors(50, 3), "a"));
    const query = vectors(1, 4)[0];
    const before = await cached.search("ws", query, { topK: 3 });
    assert.equal(before.length, 3);
    assert.notEqual(before[0].id, "b-0");
    assert.equal(cached.exactCacheState().loads, 1);

    // The query itself, added: the best hit at once.
    await cached.upsert("ws", records([query], "b"));
    assert.equal(cached.exactCacheState().bytes, 0, "a write drops the table's rows from memory");
    const afterAdd = await cached.search("ws", query, { topK: 3 });
    assert.equal(afterAdd[0].id, "b-0");
    assert.ok(afterAdd[0].score > 0.9999);
    assert.equal(cached.exactCacheState().loads, 2);
    assert.equal(await cached.count("ws"), 51);

    await cached.deleteDocuments("ws", ["b-doc-0"]);
    const afterDelete = await cached.search("ws", query, { topK: 3 });
    assert.deepEqual(afterDelete.map((hit) => hit.id), before.map((hit) => hit.id));
    assert.equal(cached.exactCacheState().loads, 3);
    assert.equal(await cached.count("ws"), 50);

    await cached.dropNamespaces("ws");
    assert.deepEqual(await cached.search("ws", query, { topK: 3 }), []);
    assert.equal(cached.exactCacheState().bytes, 0);
  });
});

Deno.test("LanceDB exact cache: a hybrid search with the vectors in memory ranks and scores as LanceDB alone does", async () => {
  await withStores(async (cached, plain) => {
    const words = ["heron", "river", "lantern", "granite", "orchard", "violin", "harbour", "meadow"];
    const rows = records(vectors(300, 7), "a").map((row, index) => ({
      ...row,
      text: Array.from({ length: 12 }, (_, at) => words[(index * 5 + at * 3 + (index % 7)) % words.length])
        .join(" "),
    }));
    await cached.upsert("ws", rows);
    await plain.upsert("ws", rows);
    await cached.search("ws", vectors(1, 8)[0], { topK: 1 });
    assert.equal(cached.heldInMemory("ws"), "float32");
    for (const [index, query] of vectors(6, 9).entries()) {
      const text = `where does the ${words[index]} meet the ${words[index + 2]}`;
      const mine = await cached.rankings("ws", query, text, 40);
      const lance = await plain.rankings("ws", query, text, 40);
      assert.equal(mine.byText.length, 40);
      // The text side: the same hits, BM25 scores and similarities (from the vectors in memory), to the last bit.
      assert.deepEqual(mine.byText, lance.byText);
      assert.deepEqual(mine.textScores, lance.textScores);
      // The vector side: LanceDB's distances are float32, the scan's cosines double.
      assert.deepEqual(mine.byVector.map((hit) => hit.id), lance.byVector.map((hit) => hit.id));
      const ids = async (store: LanceStore) =>
        (await store.search("ws", query, { topK: 4, text })).map((hit) => hit.id);
      assert.deepEqual(await ids(cached), await ids(plain));
    }
    assert.equal(cached.exactCacheState().loads, 1);
  });
});

Deno.test("LanceDB exact cache: a table over the memory budget is searched through LanceDB, with the same hits", async () => {
  await withStores(async (cached, plain) => {
    const rows = records(vectors(200, 5), "a");
    await cached.upsert("ws", rows);
    await plain.upsert("ws", rows);
    const query = vectors(1, 6)[0];
    const mine = await cached.search("ws", query, { topK: 5 });
    assert.deepEqual(
      mine.map((hit) => hit.id),
      (await plain.search("ws", query, { topK: 5 })).map((hit) => hit.id),
    );
    assert.deepEqual(cached.exactCacheState(), { loads: 0, bytes: 0 });
  }, 1024);
});

Deno.test("LanceDB exact cache: the table used longest ago leaves memory first when the budget is full", async () => {
  // Room for about one table of 100 rows of 64 dimensions.
  await withStores(async (cached) => {
    await cached.upsert("one", records(vectors(100, 7), "one"));
    await cached.upsert("two", records(vectors(100, 8), "two"));
    const query = vectors(1, 9)[0];
    assert.equal((await cached.search("one", query, { topK: 2 }))[0].id.startsWith("one-"), true);
    assert.equal((await cached.search("two", query, { topK: 2 }))[0].id.startsWith("two-"), true);
    assert.equal(cached.exactCacheState().loads, 2);
    assert.ok(cached.exactCacheState().bytes <= 40_000);
    // "one" left when "two" came in: it is read again.
    await cached.search("one", query, { topK: 2 });
    assert.equal(cached.exactCacheState().loads, 3);
  }, 40_000);
});

/** The same hits, in the same order, with the same rows, and scores within float error. */
async function sameHits(cached: LanceStore, plain: LanceStore, queries: number[][], topK: number) {
  for (const query of queries) {
    const mine = await cached.search("ws", query, { topK });
    const lance = await plain.search("ws", query, { topK });
    assert.deepEqual(mine.map((hit) => hit.id), lance.map((hit) => hit.id));
    for (const [index, hit] of mine.entries()) {
      assert.ok(Math.abs(hit.score - lance[index].score) < 1e-5, `${hit.score} vs ${lance[index].score}`);
      assert.deepEqual({ ...hit, score: 0 }, { ...lance[index], score: 0 });
    }
  }
}

Deno.test("LanceDB exact cache: a large table held as int8 gives LanceDB's own exact hits, scores and rows, in a quarter of the memory", async () => {
  await withStores(
    async (cached, plain) => {
      const rows = records(vectors(400, 11), "a");
      await cached.upsert("ws", rows);
      await plain.upsert("ws", rows);
      await sameHits(cached, plain, vectors(12, 12), 8);
      await sameHits(cached, plain, vectors(3, 13), 50);
      assert.equal(cached.heldInMemory("ws"), "int8");
      assert.equal(cached.exactCacheState().loads, 1, "the rows are read once for all the searches");
      const { bytes } = cached.exactCacheState();
      assert.ok(bytes >= 400 * DIMENSIONS && bytes < 400 * DIMENSIONS * 2, `${bytes} bytes`);
      assert.equal(await cached.count("ws"), 400);
    },
    undefined,
    { exactFloatMaxRows: 100 },
  );
});

Deno.test("LanceDB exact cache: an add or a delete to an int8 table is seen by the next search", async () => {
  await withStores(
    async (cached) => {
      await cached.upsert("ws", records(vectors(300, 14), "a"));
      const query = vectors(1, 15)[0];
      const before = await cached.search("ws", query, { topK: 3 });
      assert.notEqual(before[0].id, "b-0");
      assert.equal(cached.heldInMemory("ws"), "int8");

      await cached.upsert("ws", records([query], "b"));
      assert.equal(cached.exactCacheState().bytes, 0, "a write drops the table's rows from memory");
      const afterAdd = await cached.search("ws", query, { topK: 3 });
      assert.equal(afterAdd[0].id, "b-0");
      assert.ok(afterAdd[0].score > 0.9999);
      assert.equal(cached.exactCacheState().loads, 2);

      await cached.deleteDocuments("ws", ["b-doc-0"]);
      const afterDelete = await cached.search("ws", query, { topK: 3 });
      assert.deepEqual(afterDelete.map((hit) => hit.id), before.map((hit) => hit.id));
      assert.equal(cached.exactCacheState().loads, 3);
    },
    undefined,
    { exactFloatMaxRows: 100, quietBeforeLoadMs: 0 },
  );
});

Deno.test("LanceDB exact cache: an int8 table just written is searched through LanceDB until it has been quiet a while", async () => {
  await withStores(
    async (cached) => {
      await cached.upsert("ws", records(vectors(300, 21), "a"));
      const query = vectors(1, 22)[0];
      // Never read yet: read at once.
      assert.equal((await cached.search("ws", query, { topK: 3 })).length, 3);
      assert.equal(cached.heldInMemory("ws"), "int8");
      await cached.upsert("ws", records([query], "b"));
      const afterAdd = await cached.search("ws", query, { topK: 3 });
      assert.equal(afterAdd[0].id, "b-0", "LanceDB sees the write");
      assert.equal(cached.exactCacheState().loads, 1, "the rows are not read again during the writes");
      assert.equal(cached.heldInMemory("ws"), null);
    },
    undefined,
    { exactFloatMaxRows: 100, quietBeforeLoadMs: 3_600_000 },
  );
});

Deno.test("LanceDB exact cache: a table with an ANN index is answered by it until its rows are read in the background, then exactly", async () => {
  await withStores(
    async (cached, plain) => {
      const rows = records(vectors(600, 16), "a");
      await cached.upsert("ws", rows);
      await plain.upsert("ws", rows);
      await cached.idle(); // builds the index
      assert.deepEqual(await cached.indexState("ws"), { fullText: true, ann: { rows: 600 } });
      assert.equal(cached.heldInMemory("ws"), null);
      const query = vectors(1, 17)[0];
      // The first search starts the read and is answered by the index meanwhile.
      assert.equal((await cached.search("ws", query, { topK: 5 })).length, 5);
      await cached.idle();
      assert.equal(cached.exactCacheState().loads, 1);
      assert.equal(cached.heldInMemory("ws"), "int8");
      await sameHits(cached, plain, vectors(10, 18), 10);
      assert.equal(cached.exactCacheState().loads, 1);
    },
    undefined,
    { exactFloatMaxRows: 100, annMinRows: 500, quietBeforeLoadMs: 0 },
  );
});

Deno.test("LanceDB exact cache: a table with an ANN index just written is not read into memory (an ingest goes on)", async () => {
  await withStores(
    async (cached) => {
      await cached.upsert("ws", records(vectors(600, 19), "a"));
      await cached.idle();
      assert.deepEqual((await cached.indexState("ws"))?.ann, { rows: 600 });
      const query = vectors(1, 20)[0];
      for (let index = 0; index < 3; index++) {
        assert.equal((await cached.search("ws", query, { topK: 5 })).length, 5);
      }
      await cached.idle();
      assert.deepEqual(cached.exactCacheState(), { loads: 0, bytes: 0 });
    },
    undefined,
    { exactFloatMaxRows: 100, annMinRows: 500, quietBeforeLoadMs: 3_600_000 },
  );
});
