// The study behind bench/eval/README.md's "fourth round" table (issue 20: vocabulary mismatch). For each
// question it caches, in the temporary folder, the two side rankings 40 deep as the hybrid search reads them and
// the full-text ranking of the question's related word forms (server/providers/vectors/word_forms.ts) alone,
// then re-fuses them in memory for each variant. Not a task and not the evaluation (`deno task eval` is):
//   deno run -A --no-lock bench/eval/expansion_study.ts        (FRESH=1 rebuilds the cache)
import { fileURLToPath } from "node:url";
import { nativeEmbedder } from "../../server/providers/embedders/native.ts";
import { fuseHybrid, type FusionOptions, questionStems } from "../../server/providers/vectors/fusion.ts";
import { stemOf, wordsOf } from "../../server/providers/vectors/words.ts";
import {
  parseWordForms,
  relatedForms,
  type WordForms,
  wordForms,
} from "../../server/providers/vectors/word_forms.ts";
import { chunkHeader } from "../../server/documents/chunker.ts";
import {
  type Choice,
  CHOSEN,
  LEXFILES,
  type Link,
  tableOf,
  wordNetLinks,
} from "../../scripts/build_word_forms.ts";
import type { VectorHit } from "../../server/providers/vectors/types.ts";
import { closeSet, indexSet, scoreRankings } from "./eval.ts";
import { readSet } from "./sets.ts";

Deno.env.set("LANCEDB_LOG", "error");
const DATA = fileURLToPath(new URL("./data/", import.meta.url));
const DEPTH = 40;
const SETS = (Deno.env.get("EVAL_SETS") ?? "squad-a,squad-b,rust-book-headings").split(",");

export interface Sides {
  byVector: VectorHit[];
  byText: VectorHit[];
  textScores: number[];
}
/** A full-text hit of one related form: the chunk, its BM25 score, its cosine to the question's vector. */
type FormHit = [id: string, bm25: number, cosine: number];
export interface CachedQuestion extends Sides {
  /** Each related form of the broadest table with its own full-text ranking, 40 deep. */
  forms: Record<string, FormHit[]>;
}

const slim = (hit: VectorHit): VectorHit => ({ ...hit, vector: undefined } as VectorHit);
const PUBLISHED = "1/1/2025, 12:00:00 PM";

/** Every link a choice could keep: derivations and pertainyms of any sense and lexicographer file. */
export const BROADEST: Choice = {
  senses: 99,
  lexfiles: new Set(Object.values(LEXFILES)),
  exceptions: new Set(["noun", "verb", "adj", "adv"] as const),
  minTagged: 0,
};

export async function cachedSet(name: string, links: readonly Link[]) {
  const set = await readSet(DATA, name);
  const texts = new Map(
    set.passages.map((p) => [p.id, chunkHeader({ title: p.title, published: PUBLISHED }) + p.text]),
  );
  const file = `${Deno.env.get("TMPDIR") ?? "/tmp"}/lectern-rank20d-forms-${name}.json`;
  let cached: CachedQuestion[] | undefined;
  if (Deno.env.get("FRESH") !== "1") {
    try {
      cached = JSON.parse(await Deno.readTextFile(file));
    } catch { /* built below */ }
  }
  if (!cached) {
    const forms = parseWordForms(tableOf(links, BROADEST));
    const indexed = await indexSet(set, nativeEmbedder());
    cached = [];
    try {
      for (const [index, question] of set.questions.entries()) {
        const vector = indexed.queryVectors[index];
        const sides = await indexed.store.rankings("eval", vector, question.text, DEPTH);
        const byForm: Record<string, FormHit[]> = {};
        for (const form of relatedForms(question.text, forms, Infinity)) {
          const side = await indexed.store.rankings("eval", vector, form, DEPTH);
          byForm[form] = side.byText.map((hit, at) => [hit.id, side.textScores[at], hit.score]);
        }
        cached.push({
          byVector: sides.byVector.map(slim),
          byText: sides.byText.map(slim),
          textScores: sides.textScores,
          forms: byForm,
        });
      }
    } finally {
      await closeSet(indexed);
    }
    await Deno.writeTextFile(file, JSON.stringify(cached));
  }
  return { set, cached, texts };
}

/**
 * The text side with the related forms that `forms` (a table) gives the question merged in, as one full-text
 * query of the question's words and, boosted by `weight`, the forms would rank them: bm25 + weight · Σ bm25 of
 * each form (BM25 adds up over a query's terms), best first, 40 deep.
 */
export function mergedTextSide(
  question: string,
  cached: CachedQuestion,
  forms: WordForms,
  weight: number,
  texts: ReadonlyMap<string, string>,
): Sides {
  const merged = new Map<string, { hit: VectorHit; score: number }>();
  cached.byText.forEach((hit, index) => merged.set(hit.id, { hit, score: cached.textScores[index] }));
  for (const form of relatedForms(question, forms)) {
    for (const [id, bm25, cosine] of cached.forms[form] ?? []) {
      const seen = merged.get(id);
      if (seen) seen.score += weight * bm25;
      else {merged.set(id, {
          hit: { id, score: cosine, text: texts.get(id) } as VectorHit,
          score: weight * bm25,
        });}
    }
  }
  const ranked = [...merged.values()].sort((a, b) => b.score - a.score).slice(0, DEPTH);
  return {
    byVector: cached.byVector,
    byText: ranked.map(({ hit }) => hit),
    textScores: ranked.map(({ score }) => score),
  };
}

const fmt = (s: { recall: number[]; mrr: number }) =>
  `${s.recall.map((r) => r.toFixed(3).slice(1)).join(" / ")} / ${s.mrr.toFixed(3).slice(1)}`;

if (import.meta.main && Deno.env.get("TIME")) {
  // The fusion's cost per question at top 4, without and with the related forms (the product's table), over the
  // cached sides: best of 8 interleaved runs over every question of the sets.
  const forms = await wordForms();
  const { links } = { links: [] as Link[] };
  for (const name of SETS) {
    const { set, cached } = await cachedSet(name, links);
    const run = (share: number) => {
      const started = performance.now();
      cached.forEach((c, index) => {
        const question = set.questions[index].text;
        const options = share > 0 ? { relatedShare: share, relatedForms: relatedForms(question, forms) } : {};
        fuseHybrid(c.byVector, c.byText, c.textScores, 4, { question, ...options });
      });
      return (performance.now() - started) / cached.length;
    };
    const best = [Infinity, Infinity];
    for (let round = 0; round < 8; round++) {
      best[0] = Math.min(best[0], run(0));
      best[1] = Math.min(best[1], run(0.5));
    }
    console.log(
      `${name}: fusion ${best[0].toFixed(2)} ms per question, with related forms ${best[1].toFixed(2)} ms`,
    );
  }
} else if (import.meta.main) {
  const { links } = await wordNetLinks();
  const prepared: ({ name: string } & Awaited<ReturnType<typeof cachedSet>>)[] = [];
  for (const name of SETS) prepared.push({ name, ...(await cachedSet(name, links)) });
  const row = (
    label: string,
    rank: (question: string, cached: CachedQuestion, texts: Map<string, string>) => string[],
  ) => {
    const cells = prepared.map(({ set, cached, texts }) =>
      fmt(scoreRankings(cached.map((c, index) => rank(set.questions[index].text, c, texts)), set.questions))
    );
    console.log(`| ${label} | ${cells.join(" | ")} |`);
  };
  const fuse = (sides: Sides, question: string, options: FusionOptions = {}) =>
    fuseHybrid(sides.byVector, sides.byText, sides.textScores, 10, { question, ...options }).map((h) => h.id);
  console.log(`| variant | ${SETS.join(" | ")} |`);
  row("BM25", (_, c) => c.byText.map((h) => h.id));
  row("default hybrid", (q, c) => fuse(c, q));
  const choices: [string, Choice][] = [
    ["broadest", BROADEST],
    ["chosen", CHOSEN],
  ];
  const extra = Deno.env.get("CHOICES");
  if (extra) {
    for (
      const [label, choice] of Object.entries(JSON.parse(extra) as Record<string, Record<string, unknown>>)
    ) {
      choices.push([label, {
        ...CHOSEN,
        ...choice,
        lexfiles: new Set((choice.lexfiles as string[] | undefined) ?? CHOSEN.lexfiles),
        exceptions: new Set(
          (choice.exceptions as Choice["exceptions"] extends ReadonlySet<infer P> ? P[] : never) ??
            CHOSEN.exceptions,
        ),
      } as Choice]);
    }
  }
  if (!Deno.env.get("ONLY_PREFIX")) {
    const shares = (Deno.env.get("SHARES") ?? "0.25,0.5,0.75,1").split(",").map(Number);
    for (const [label, choice] of choices) {
      const forms = parseWordForms(tableOf(links, choice));
      for (const share of shares) {
        row(
          `hybrid, ${label} forms in sentences/title at ${share}`,
          (q, c) => fuse(c, q, { relatedForms: relatedForms(q, forms), relatedShare: share }),
        );
        row(
          `hybrid + ${label} forms 0.2 and in sentences/title at ${share}`,
          (q, c, t) =>
            fuse(mergedTextSide(q, c, forms, 0.2, t), q, {
              relatedForms: relatedForms(q, forms),
              relatedShare: share,
            }),
        );
      }
    }
  }
  // Stem-prefix forms: words of the candidates whose stems extend a question stem of 4+ letters or that it extends
  // ("marri" / "marriag", "compos" / "composit"), found at query time in the candidates' own texts.
  const prefixForms = (question: string, c: CachedQuestion, min: number) => {
    const stems = questionStems(question).filter((stem) => stem.length >= min);
    const found = new Set<string>();
    for (const hit of [...c.byVector, ...c.byText].slice(0, 80)) {
      for (const word of wordsOf(hit.text ?? "")) {
        const stem = stemOf(word);
        if (stem.length < min) continue;
        for (const own of stems) {
          if (stem !== own && (stem.startsWith(own) || own.startsWith(stem))) found.add(word);
        }
      }
    }
    return [...found];
  };
  const chosenForms = parseWordForms(tableOf(links, CHOSEN));
  if (Deno.env.get("GRID")) {
    for (const share of [0.3, 0.4, 0.5, 0.6]) {
      row(
        `hybrid, chosen forms in sentences/title at ${share}`,
        (q, c) => fuse(c, q, { relatedForms: relatedForms(q, chosenForms), relatedShare: share }),
      );
      row(
        `hybrid, prefix 5+ and chosen forms in sentences/title at ${share}`,
        (q, c) =>
          fuse(c, q, {
            relatedForms: [...prefixForms(q, c, 5), ...relatedForms(q, chosenForms)],
            relatedShare: share,
          }),
      );
    }
    Deno.exit(0);
  }
  for (const min of [4, 5, 6]) {
    for (const share of [0.25, 0.5]) {
      row(
        `hybrid, prefix forms (${min}+ letters) in sentences/title at ${share}`,
        (q, c) => fuse(c, q, { relatedForms: prefixForms(q, c, min), relatedShare: share }),
      );
      row(
        `hybrid, prefix ${min}+ and chosen forms in sentences/title at ${share}`,
        (q, c) =>
          fuse(c, q, {
            relatedForms: [...prefixForms(q, c, min), ...relatedForms(q, chosenForms)],
            relatedShare: share,
          }),
      );
    }
  }
  if (Deno.env.get("ONLY_PREFIX")) Deno.exit(0);
  const weights = (Deno.env.get("WEIGHTS") ?? "0.1,0.2,0.3,0.5").split(",").map(Number);
  for (const [label, choice] of choices) {
    const forms = parseWordForms(tableOf(links, choice));
    for (const weight of weights) {
      row(
        `BM25 + ${label} forms ${weight}`,
        (q, c, t) => mergedTextSide(q, c, forms, weight, t).byText.map((h) => h.id),
      );
      row(`hybrid + ${label} forms ${weight}`, (q, c, t) => fuse(mergedTextSide(q, c, forms, weight, t), q));
    }
  }
}
