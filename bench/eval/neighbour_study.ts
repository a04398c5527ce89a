// The study behind bench/eval/README.md's sixth-round rows "full-text expansion by neighbours" (issue 20): the
// question stems' nearest neighbours in the word table (soft_words.ts) added to the full-text side, as a
// second, boosted query would add them. It caches, in the temporary folder, the two side rankings 40 deep and
// each neighbour's own full-text ranking (BM25 adds up over a query's terms, so a boosted OR query of the
// question and its neighbours is their sum), then re-fuses them in memory with the real `fuseHybrid`.
// Not a task and not the evaluation (`deno task eval` is):
//   deno run -A bench/eval/neighbour_study.ts        (FRESH=1 rebuilds the cache; EVAL_SETS narrows the sets)
import { fileURLToPath } from "node:url";
import { nativeEmbedder } from "../../server/providers/embedders/native.ts";
import { fuseHybrid, type FusionOptions, questionStems } from "../../server/providers/vectors/fusion.ts";
import { softWords } from "../../server/providers/vectors/soft_words.ts";
import type { VectorHit } from "../../server/providers/vectors/types.ts";
import { chunkHeader } from "../../server/documents/chunker.ts";
import { closeSet, indexSet, scoreRankings } from "./eval.ts";
import { readSet } from "./sets.ts";

Deno.env.set("LANCEDB_LOG", "error");
const DATA = fileURLToPath(new URL("./data/", import.meta.url));
const DEPTH = 40;
/** The most neighbours of each question stem cached (the best by likeness). */
const MOST = 5;
const SETS = (Deno.env.get("EVAL_SETS") ?? "squad-a,squad-b,rust-book-headings").split(",");
const PUBLISHED = "1/1/2025, 12:00:00 PM";

type TermHit = [id: string, bm25: number, cosine: number];
interface Cached {
  byVector: VectorHit[];
  byText: VectorHit[];
  textScores: number[];
  /** Each neighbour stem: its likeness to its question stem and its own full-text ranking. */
  neighbours: Record<string, { likeness: number; hits: TermHit[] }>;
}

const slim = (hit: VectorHit): VectorHit => ({ ...hit, vector: undefined } as VectorHit);
const table = await softWords();

/** The best `most` neighbours of each question stem (a neighbour of two keeps its best likeness). */
function neighboursOf(question: string, most: number) {
  const stems = questionStems(question);
  const found = new Map<string, number>();
  for (const stem of stems) {
    let taken = 0;
    for (const [other, likeness] of table.neighbours(stem)) {
      if (taken++ >= most) break;
      if (stems.includes(other)) continue;
      if (likeness > (found.get(other) ?? 0)) found.set(other, likeness);
    }
  }
  return found;
}

async function cachedSet(name: string) {
  const set = await readSet(DATA, name);
  const texts = new Map(
    set.passages.map((p) => [p.id, chunkHeader({ title: p.title, published: PUBLISHED }) + p.text]),
  );
  const file = `${Deno.env.get("TMPDIR") ?? "/tmp"}/lectern-neighbour-sides-${name}.json`;
  if (Deno.env.get("FRESH") !== "1") {
    try {
      return { set, texts, cached: JSON.parse(await Deno.readTextFile(file)) as Cached[] };
    } catch { /* built below */ }
  }
  const indexed = await indexSet(set, nativeEmbedder());
  const cached: Cached[] = [];
  try {
    for (const [index, question] of set.questions.entries()) {
      const vector = indexed.queryVectors[index];
      const sides = await indexed.store.rankings("eval", vector, question.text, DEPTH);
      const neighbours: Cached["neighbours"] = {};
      for (const [stem, likeness] of neighboursOf(question.text, MOST)) {
        const side = await indexed.store.rankings("eval", vector, stem, DEPTH);
        neighbours[stem] = {
          likeness,
          hits: side.byText.map((hit, at) => [hit.id, side.textScores[at], hit.score]),
        };
      }
      cached.push({
        byVector: sides.byVector.map(slim),
        byText: sides.byText.map(slim),
        textScores: sides.textScores,
        neighbours,
      });
    }
  } finally {
    await closeSet(indexed);
  }
  await Deno.writeTextFile(file, JSON.stringify(cached));
  return { set, texts, cached };
}

/** The text side with the neighbours merged in at `weight` × likeness (× nothing else), 40 deep. */
function merged(
  c: Cached,
  weight: number,
  most: number,
  least: number,
  texts: ReadonlyMap<string, string>,
  question: string,
) {
  const scores = new Map<string, { hit: VectorHit; score: number }>();
  c.byText.forEach((hit, index) => scores.set(hit.id, { hit, score: c.textScores[index] }));
  const wanted = neighboursOf(question, most);
  for (const [stem, { likeness, hits }] of Object.entries(c.neighbours)) {
    if (!wanted.has(stem) || likeness < least) continue;
    for (const [id, bm25, cosine] of hits) {
      const seen = scores.get(id);
      const add = weight * likeness * bm25;
      if (seen) seen.score += add;
      else scores.set(id, { hit: { id, score: cosine, text: texts.get(id) } as VectorHit, score: add });
    }
  }
  const ranked = [...scores.values()].sort((a, b) => b.score - a.score).slice(0, DEPTH);
  return { byText: ranked.map(({ hit }) => hit), textScores: ranked.map(({ score }) => score) };
}

const fmt = (s: { recall: number[]; mrr: number }) =>
  `${s.recall.map((r) => r.toFixed(3).slice(1)).join(" / ")} / ${s.mrr.toFixed(3).slice(1)}`;

const prepared = [];
for (const name of SETS) prepared.push(await cachedSet(name));
const variants: [string, { weight: number; most: number; least: number } | null, FusionOptions][] = [
  ["default (no expansion)", null, {}],
  ...[0.1, 0.2, 0.3, 0.5].flatMap((weight) =>
    [[5, 0.6], [3, 0.6], [5, 0.7]].map(([most, least]) =>
      [`neighbours ${weight}, best ${most}, likeness ≥ ${least}`, { weight, most, least }, {}] as [
        string,
        { weight: number; most: number; least: number },
        FusionOptions,
      ]
    )
  ),
];
console.log(`| variant | ${SETS.join(" | ")} |`);
for (const [label, expansion, options] of variants) {
  const cells = prepared.map(({ set, texts, cached }) =>
    fmt(scoreRankings(
      cached.map((c, index) => {
        const question = set.questions[index].text;
        const text = expansion
          ? merged(c, expansion.weight, expansion.most, expansion.least, texts, question)
          : c;
        return fuseHybrid(c.byVector, text.byText, text.textScores, 10, {
          question,
          softWords: table,
          ...options,
        })
          .map((h) => h.id);
      }),
      set.questions,
    ))
  );
  console.log(`| ${label} | ${cells.join(" | ")} |`);
}
