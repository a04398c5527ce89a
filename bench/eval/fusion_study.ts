// The study behind bench/eval/README.md's "With a neural embedder" table (issue 20): the hybrid search's weights
// re-fused in memory over the two side rankings (40 deep, as the search ranks for a top 10) of the shipped sets,
// with the embedder EVAL_EMBEDDER names (use-lite: bench/eval/use_embedder.ts; the built-in one otherwise). Not a
// task and not the evaluation (`deno task eval` is):
//   EVAL_EMBEDDER=use-lite deno run -A bench/eval/fusion_study.ts
import { fileURLToPath } from "node:url";
import { fuseHybrid, fusionDepth, reciprocalRankFusion } from "../../server/providers/vectors/fusion.ts";
import type { FusionOptions } from "../../server/providers/vectors/fusion.ts";
import { fusionWeightsFor } from "../../server/providers/vectors/fusion_weights.ts";
import type { VectorHit } from "../../server/providers/vectors/types.ts";
import { closeSet, embedderOf, indexSet, scoreRankings, type Scores } from "./eval.ts";
import { readSet, SET_NAMES } from "./sets.ts";

Deno.env.set("LANCEDB_LOG", "error");
const DATA = fileURLToPath(new URL("./data/", import.meta.url));

interface Sides {
  byVector: VectorHit[];
  byText: VectorHit[];
  textScores: number[];
}

type Variant = [string, (question: string, sides: Sides) => VectorHit[]];

const fused = (options: FusionOptions): Variant[1] => (question, sides) =>
  fuseHybrid(sides.byVector, sides.byText, sides.textScores, 10, { question, ...options });

const variants: Variant[] = [
  ["vector", (_, sides) => sides.byVector],
  ["BM25", (_, sides) => sides.byText],
  [
    "RRF k=60",
    (_, sides) => reciprocalRankFusion([sides.byVector, sides.byText], (hit) => hit.id).map((f) => f.item),
  ],
  [
    "RRF k=20",
    (_, sides) =>
      reciprocalRankFusion([sides.byVector, sides.byText], (hit) => hit.id, 20).map((f) => f.item),
  ],
  ["default (lexical weights)", fused({ textWeight: 0.8 })],
];
for (const textWeight of [0.7, 0.6, 0.5, 0.4, 0.3, 0.2]) {
  variants.push([`text ${textWeight}, phrases 0.1, title 0.2`, fused({ textWeight })]);
}
for (const textWeight of [0.6, 0.5, 0.4, 0.3]) {
  variants.push([
    `text ${textWeight}, no phrases, no title`,
    fused({ textWeight, phraseWeight: 0, titleWeight: 0 }),
  ]);
  variants.push([`text ${textWeight}, phrases 0.1, no title`, fused({ textWeight, titleWeight: 0 })]);
  variants.push([
    `text ${textWeight}, phrases 0.05, title 0.1`,
    fused({ textWeight, phraseWeight: 0.05, titleWeight: 0.1 }),
  ]);
  variants.push([
    `text ${textWeight}, phrases 0.15, title 0.3`,
    fused({ textWeight, phraseWeight: 0.15, titleWeight: 0.3 }),
  ]);
}
variants.push([
  "product's choice for this embedder",
  (question, sides) => fused(fusionWeightsFor(embedder))(question, sides),
]);

const fmt = (s: Scores) =>
  `${s.recall.map((r) => r.toFixed(3).slice(1)).join(" / ")} / ${s.mrr.toFixed(3).slice(1)}`;

const names = (Deno.env.get("EVAL_SETS") ?? SET_NAMES.join(",")).split(",");
const embedder = await embedderOf();
const results = new Map<string, string[]>();
const wins = new Map<string, boolean>();
for (const name of names) {
  const set = await readSet(DATA, name);
  const indexed = await indexSet(set, embedder);
  const sides: Sides[] = [];
  try {
    for (const [index, question] of set.questions.entries()) {
      sides.push(
        await indexed.store.rankings("eval", indexed.queryVectors[index], question.text, fusionDepth(10)),
      );
    }
  } finally {
    await closeSet(indexed);
  }
  const scores = variants.map(([label, rank]) => {
    const rankings = set.questions.map((question, index) =>
      rank(question.text, sides[index]).map((hit) => hit.id)
    );
    return [label, scoreRankings(rankings, set.questions)] as const;
  });
  const [vector, bm25] = [scores[0][1], scores[1][1]];
  for (const [label, score] of scores) {
    results.set(label, [...(results.get(label) ?? []), fmt(score)]);
    // "Beats both sides": recall@4 and MRR@10 at least the better side's.
    const beats = score.recall[1] >= Math.max(vector.recall[1], bm25.recall[1]) &&
      score.mrr >= Math.max(vector.mrr, bm25.mrr);
    wins.set(label, (wins.get(label) ?? true) && beats);
  }
  console.error(`${name} done`);
}
console.log(
  `Embedder ${embedder.modelId}; recall@1 / recall@4 / recall@10 / MRR@10; * = recall@4 and MRR@10 ≥ both sides on every set\n`,
);
console.log(`| variant | ${names.join(" | ")} |\n| --- | ${names.map(() => "---").join(" | ")} |`);
for (const [label, row] of results) {
  console.log(
    `| ${label}${wins.get(label) && label !== "vector" && label !== "BM25" ? " *" : ""} | ${
      row.join(" | ")
    } |`,
  );
}
