// The misses of the default hybrid search (issue 20, sixth round): for each question of a set whose right
// passage is not in the default fusion's top 4, where it is (rank 5-10, among the 20 re-scored, among the other
// candidates, or outside both sides' 40 best) and what each side made of it. Over the sides soft_study.ts caches.
//   deno run -A bench/eval/miss_study.ts        (EVAL_SETS narrows the sets; LIST=1 prints each miss)
import { fileURLToPath } from "node:url";
import { fuseHybrid, type FusionOptions } from "../../server/providers/vectors/fusion.ts";
import { softWords } from "../../server/providers/vectors/soft_words.ts";
import type { VectorHit } from "../../server/providers/vectors/types.ts";
import { readSet } from "./sets.ts";

const DATA = fileURLToPath(new URL("./data/", import.meta.url));
const SETS = (Deno.env.get("EVAL_SETS") ?? "squad-a,squad-b,rust-book-headings").split(",");
const OPTIONS: FusionOptions = JSON.parse(Deno.env.get("OPTIONS") ?? "{}");
const table = await softWords();

interface Sides {
  byVector: VectorHit[];
  byText: VectorHit[];
  textScores: number[];
}

for (const name of SETS) {
  const set = await readSet(DATA, name);
  const file = `${Deno.env.get("TMPDIR") ?? "/tmp"}/lectern-soft-sides-${name}.json`;
  const cached = JSON.parse(await Deno.readTextFile(file)) as Sides[];
  const classes = new Map<string, number>();
  const count = (label: string) => classes.set(label, (classes.get(label) ?? 0) + 1);
  const passages = new Map(set.passages.map((p) => [p.id, p]));
  for (const [index, question] of set.questions.entries()) {
    const c = cached[index];
    const relevant = new Set(question.relevant);
    const top = fuseHybrid(c.byVector, c.byText, c.textScores, 10, {
      question: question.text,
      softWords: table,
      ...OPTIONS,
    }).map((h) => h.id);
    const rank = top.findIndex((id) => relevant.has(id)) + 1;
    if (rank >= 1 && rank <= 4) continue;
    // The order before the shares: the fusion of the two sides alone.
    const base = fuseHybrid(c.byVector, c.byText, c.textScores, 1000, {
      phraseWeight: 0,
      sentenceWeight: 0,
      titleWeight: 0,
      typedSentenceWeight: 0,
      answerTypeWeight: 0,
    }).map((h) => h.id);
    const baseRank = base.findIndex((id) => relevant.has(id)) + 1;
    const vRank = c.byVector.findIndex((h) => relevant.has(h.id)) + 1;
    const tRank = c.byText.findIndex((h) => relevant.has(h.id)) + 1;
    const label = rank >= 5
      ? "rank 5-10"
      : baseRank === 0
      ? "not a candidate"
      : baseRank <= 20
      ? "re-scored, below 10"
      : "candidate, not re-scored";
    count(label);
    if (Deno.env.get("LIST")) {
      const passage = passages.get(question.relevant[0])!;
      const winner = passages.get(top[0]);
      console.log(
        `[${label}] rank ${rank || "-"} base ${baseRank || "-"} vec ${vRank || "-"} bm25 ${
          tRank || "-"
        }: ${question.text}\n` +
          `   right (${passage.title}): ${passage.text.slice(0, 240).replace(/\s+/g, " ")}\n` +
          `   first (${winner?.title}): ${winner?.text.slice(0, 160).replace(/\s+/g, " ")}`,
      );
    }
  }
  console.log(`${name}: ${[...classes].map(([label, n]) => `${label} ${n}`).join(", ")}`);
}
