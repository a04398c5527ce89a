// Where a hybrid search's time goes at the chat benchmark's size (issue 21's account): the chat benchmark's
// corpus (bench/chat.ts: 10 words repeated, so every chunk holds the question's words) in a LanceDB table of
// BENCH_CHUNKS rows, embedded with the built-in embedder, then per question: the vector search alone, both
// rankings (run together, store.rankings), the fusion of them (fuseHybrid) and the whole hybrid search.
import * as lancedb from "@lancedb/lancedb";
import { embedLexical, NATIVE_DIMENSIONS, NATIVE_MODEL_ID } from "../server/providers/embedders/native.ts";
import { fusionWeightsFor } from "../server/providers/vectors/fusion_weights.ts";
import { openLanceStore } from "../server/providers/vectors/lancedb.ts";
import { fullTextQuery, fuseHybrid, fusionDepth } from "../server/providers/vectors/fusion.ts";
import type { VectorRecord } from "../server/providers/vectors/types.ts";

Deno.env.set("LANCEDB_LOG", "error");
const CHUNKS = Number(Deno.env.get("BENCH_CHUNKS") ?? 10_000);
const RUNS = Number(Deno.env.get("BENCH_RUNS") ?? 60);
const words = [
  "river",
  "heron",
  "lantern",
  "granite",
  "orchard",
  "violin",
  "harbour",
  "meadow",
  "copper",
  "signal",
];
const textOf = (index: number) =>
  `Section ${index}. ${
    Array.from({ length: 130 }, (_, word) => words[(index * 7 + word * 3) % words.length]).join(" ")
  }.`;
const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))];

const dir = await Deno.makeTempDir({ prefix: "lectern-hybrid-parts-" });
const store = await openLanceStore(dir, { maintenanceDelayMs: 0 });
try {
  const records: VectorRecord[] = Array.from({ length: CHUNKS }, (_, index) => ({
    id: String(index),
    docId: `doc-${Math.floor(index / 100)}`,
    text: textOf(index),
    vector: embedLexical(textOf(index)),
    metadata: { title: "big.txt" },
  }));
  await store.upsert("big", records);
  await store.idle();
  console.log("index", JSON.stringify(await store.indexState("big")), store.heldInMemory("big"));
  const parts: Record<string, number[]> = { vector: [], text: [], rankings: [], fusion: [], hybrid: [] };
  // The built-in embedder's weights, as a chat in such a workspace uses them.
  const fusion = fusionWeightsFor({ fingerprint: `native:${NATIVE_MODEL_ID}:${NATIVE_DIMENSIONS}` });
  // The full-text query alone, on a handle of its own (store.ts's textSide asks the same).
  const table = await (await lancedb.connect(dir)).openTable("big");
  for (let run = -5; run < RUNS; run++) {
    const question = `Where does the heron meet the river in section ${run * 37}?`;
    const vector = embedLexical(question);
    const times: Record<string, number> = {};
    let started = performance.now();
    await store.search("big", vector, { topK: 4 });
    times.vector = performance.now() - started;
    started = performance.now();
    await table.query().fullTextSearch(fullTextQuery(question), { columns: ["text"] })
      .select(["id", "doc_id", "text", "metadata", "vector", "_score"]).limit(fusionDepth(4)).toArray();
    times.text = performance.now() - started;
    started = performance.now();
    const ranked = await store.rankings("big", vector, fullTextQuery(question), fusionDepth(4));
    times.rankings = performance.now() - started;
    started = performance.now();
    fuseHybrid(ranked.byVector, ranked.byText, ranked.textScores, 4, { ...fusion, question });
    times.fusion = performance.now() - started;
    started = performance.now();
    await store.search("big", vector, { topK: 4, text: question, fusion });
    times.hybrid = performance.now() - started;
    if (run >= 0) { for (const [part, ms] of Object.entries(times)) parts[part].push(ms); }
  }
  for (const [part, list] of Object.entries(parts)) {
    console.log(
      `${part.padEnd(9)} p50 ${percentile(list, 50).toFixed(2)} p95 ${percentile(list, 95).toFixed(2)} ms`,
    );
  }
} finally {
  await store.close();
  await Deno.remove(dir, { recursive: true });
}
