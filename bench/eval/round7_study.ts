// The study behind bench/eval/README.md's "seventh round" table (issue 20: the margin on the held-out estimate).
// Over the side rankings soft_study.ts caches (run it once first), it takes the default hybrid scores
// (`fuseHybridScored`) and adds, for the best HEAD candidates (20 by default), one or more new shares, each
// divided by the best candidate's (or spread over [0, 1] where it can be negative):
//   ql:<mu>       query likelihood with Dirichlet smoothing (the candidates as the collection)
//   mindist:<a>   Tao & Zhai's proximity: ln(a + exp(−the least distance between two question stems))
//   span:<w>      the best w-word window's question stems, by IDF among the candidates
//   pair          the best two neighbouring sentences' question stems, by IDF
//   prf:<k>:<n>   pseudo-relevance feedback: the n best terms of the k best passages (tf × IDF), the
//                 candidate's share of their weight
//   sentdens:<p>  the best sentence's question stems by IDF over its length in words to the power p
//   typenear:<w>  for a question with an answer type, the question stems' IDF within w words of an answer of
//                 the type (a year, a number, a name the question lacks)
// Not a task and not the evaluation (`deno task eval` is):
//   VARIANTS='[["label", {"ql:2000": 0.1}], ...]' deno run -A bench/eval/round7_study.ts
// HEAD=30 re-scores more candidates; OPTIONS='{...}' changes the default fusion's options under the variants;
// GATE=<c> scales the default's shares by how unsure the two sides are; FIT=<feature,...> fits the features'
// weights on squad-a (guarded by the Rust headings; FIT_BOTH=1 on both SQuAD sets).
import { fileURLToPath } from "node:url";
import {
  type AnswerType,
  answerType,
  candidateIdf,
  foldAccents,
  fuseHybridScored,
  type FusionOptions,
  holdsAnswer,
  questionStems,
} from "../../server/providers/vectors/fusion.ts";
import { softWords } from "../../server/providers/vectors/soft_words.ts";
import { stemOf, STOPWORDS, wordsOf } from "../../server/providers/vectors/words.ts";
import type { VectorHit } from "../../server/providers/vectors/types.ts";
import { scoreRankings } from "./eval.ts";
import { readSet } from "./sets.ts";

const DATA = fileURLToPath(new URL("./data/", import.meta.url));
const SETS = (Deno.env.get("EVAL_SETS") ?? "squad-a,squad-b,rust-book-headings").split(",");
const HEAD = Number(Deno.env.get("HEAD") ?? 20);
const OPTIONS: FusionOptions = JSON.parse(Deno.env.get("OPTIONS") ?? "{}");
const table = await softWords();

interface Sides {
  byVector: VectorHit[];
  byText: VectorHit[];
  textScores: number[];
}

const METADATA_BLOCK = /<document_metadata>[\s\S]*?<\/document_metadata>/;
const SENTENCE_END = /(?<=[.!?])\s+|\n+/;
const body = (text: string) => foldAccents(text.replace(METADATA_BLOCK, ""));
const stemsOf = (text: string) => wordsOf(text).map(stemOf);

interface Question {
  text: string;
  stems: string[];
  type: AnswerType | null;
  words: Set<string>;
}

type Feature = (q: Question, head: string[], pool: string[], ranked: string[]) => number[];

/** Features by name ("ql:2000"): each gives one value per head text. */
function feature(name: string): { fn: Feature; minmax: boolean } {
  const [kind, ...args] = name.split(":");
  const a = args.map(Number);
  if (kind === "ql") {
    const mu = a[0];
    return {
      minmax: true,
      fn: (q, head, pool) => {
        const cf = new Map<string, number>();
        let total = 0;
        for (const text of pool) {
          for (const s of stemsOf(body(text))) {
            total++;
            cf.set(s, (cf.get(s) ?? 0) + 1);
          }
        }
        return head.map((text) => {
          const tokens = stemsOf(body(text));
          const tf = new Map<string, number>();
          for (const s of tokens) tf.set(s, (tf.get(s) ?? 0) + 1);
          let score = 0;
          for (const s of q.stems) {
            const p = ((cf.get(s) ?? 0) + 0.5) / (total + 1);
            score += Math.log(((tf.get(s) ?? 0) + mu * p) / (tokens.length + mu));
          }
          return score;
        });
      },
    };
  }
  if (kind === "mindist") {
    const alpha = a[0];
    return {
      minmax: true,
      fn: (q, head) => {
        const wanted = new Set(q.stems);
        return head.map((text) => {
          const tokens = stemsOf(body(text));
          const last = new Map<string, number>();
          let best = tokens.length;
          tokens.forEach((s, i) => {
            if (!wanted.has(s)) return;
            for (const [other, at] of last) if (other !== s) best = Math.min(best, i - at);
            last.set(s, i);
          });
          return Math.log(alpha + Math.exp(-best));
        });
      },
    };
  }
  if (kind === "span") {
    const width = a[0];
    return {
      minmax: false,
      fn: (q, head, pool) => {
        const idf = candidateIdf(q.stems, pool);
        const wanted = new Set(q.stems);
        return head.map((text) => {
          const tokens = stemsOf(body(text));
          const positions = tokens.map((s, i) => [s, i] as const).filter(([s]) => wanted.has(s));
          let best = 0;
          for (let i = 0; i < positions.length; i++) {
            const seen = new Set<string>();
            let sum = 0;
            for (let j = i; j < positions.length && positions[j][1] - positions[i][1] < width; j++) {
              if (!seen.has(positions[j][0])) {
                seen.add(positions[j][0]);
                sum += idf(positions[j][0]);
              }
            }
            best = Math.max(best, sum);
          }
          return best;
        });
      },
    };
  }
  if (kind === "pair") {
    return {
      minmax: false,
      fn: (q, head, pool) => {
        const idf = candidateIdf(q.stems, pool);
        const wanted = new Set(q.stems);
        return head.map((text) => {
          const sentences = body(text).split(SENTENCE_END).map((s) =>
            new Set(stemsOf(s).filter((x) => wanted.has(x)))
          );
          let best = 0;
          for (let i = 0; i < sentences.length; i++) {
            const both = new Set([...sentences[i], ...(sentences[i + 1] ?? [])]);
            best = Math.max(best, [...both].reduce((sum, s) => sum + idf(s), 0));
          }
          return best;
        });
      },
    };
  }
  if (kind === "sentdens") {
    // The best sentence's question stems by IDF, divided by (its length in words)^p.
    const power = a[0];
    return {
      minmax: false,
      fn: (q, head, pool) => {
        const idf = candidateIdf(q.stems, pool);
        const wanted = new Set(q.stems);
        return head.map((text) => {
          let best = 0;
          for (const sentence of body(text).split(SENTENCE_END)) {
            const tokens = stemsOf(sentence);
            if (tokens.length === 0) continue;
            const sum = [...new Set(tokens.filter((s) => wanted.has(s)))].reduce((x, s) => x + idf(s), 0);
            best = Math.max(best, sum / Math.pow(tokens.length, power));
          }
          return best;
        });
      },
    };
  }
  if (kind === "prf") {
    const [k, n] = a;
    return {
      minmax: false,
      fn: (q, head, pool, ranked) => {
        const own = new Set(q.stems);
        const df = new Map<string, number>();
        for (const text of pool) {
          for (const s of new Set(stemsOf(body(text)))) df.set(s, (df.get(s) ?? 0) + 1);
        }
        const idf = (s: string) => Math.log(1 + pool.length / (1 + (df.get(s) ?? 0)));
        const weight = new Map<string, number>();
        for (const text of ranked.slice(0, k)) {
          const words = wordsOf(body(text)).filter((w) => !STOPWORDS.has(w) && !/^[0-9]+$/.test(w));
          const tokens = words.map(stemOf).filter((s) => !own.has(s) && s.length > 2);
          for (const s of tokens) weight.set(s, (weight.get(s) ?? 0) + 1 / tokens.length);
        }
        const terms = [...weight].map(([s, w]) => [s, w * idf(s)] as const).sort((x, y) => y[1] - x[1]).slice(
          0,
          n,
        );
        return head.map((text) => {
          const present = new Set(stemsOf(body(text)));
          return terms.reduce((sum, [s, w]) => sum + (present.has(s) ? w : 0), 0);
        });
      },
    };
  }
  if (kind === "typenear") {
    const width = a[0];
    return {
      minmax: false,
      fn: (q, head, pool) => {
        if (q.type === null) return head.map(() => 0);
        const idf = candidateIdf(q.stems, pool);
        const wanted = new Set(q.stems);
        return head.map((text) => {
          const raw = body(text).match(/[\p{L}\p{N}'’-]+/gu) ?? [];
          const tokens = raw.map((w) => stemOf(w.toLowerCase()));
          const answers: number[] = [];
          raw.forEach((w, i) => {
            if (wanted.has(tokens[i])) return;
            const isAnswer = q.type === "date"
              ? holdsAnswer("date", w, q.words)
              : q.type === "number"
              ? holdsAnswer("number", w, q.words)
              : i > 0 && /^\p{Lu}/u.test(w) && !q.words.has(tokens[i]) && !/[.!?]$/.test(raw[i - 1]);
            if (isAnswer) answers.push(i);
          });
          if (answers.length === 0) return 0;
          let best = 0;
          for (const at of answers) {
            const seen = new Set<string>();
            for (let i = Math.max(0, at - width); i <= Math.min(tokens.length - 1, at + width); i++) {
              if (wanted.has(tokens[i])) seen.add(tokens[i]);
            }
            best = Math.max(best, [...seen].reduce((sum, s) => sum + idf(s), 0));
          }
          return best;
        });
      },
    };
  }
  throw new Error(`unknown feature ${name}`);
}

const fmt = (s: { recall: number[]; mrr: number }) =>
  `${s.recall.map((r) => r.toFixed(3).slice(1)).join(" / ")} / ${s.mrr.toFixed(3).slice(1)}`;

const prepared: { name: string; set: Awaited<ReturnType<typeof readSet>>; cached: Sides[] }[] = [];
for (const name of SETS) {
  const set = await readSet(DATA, name);
  const file = `${Deno.env.get("TMPDIR") ?? "/tmp"}/lectern-soft-sides-${name}.json`;
  prepared.push({ name, set, cached: JSON.parse(await Deno.readTextFile(file)) });
}
// The default scores once per set and question.
const bases = prepared.map(({ set, cached }) =>
  cached.map((c, index) => {
    const text = set.questions[index].text;
    const scored = fuseHybridScored(c.byVector, c.byText, c.textScores, 10, {
      question: text,
      softWords: table,
      ...OPTIONS,
    });
    const folded = foldAccents(text);
    const gate = Deno.env.get("GATE");
    if (gate) {
      // GATE=<c>: the shares (the default score less the two sides' fusion) scaled by min(1, c · (1 − m)),
      // where m is the two sides' margin between their best two candidates, (first − second) / first.
      const plain = fuseHybridScored(c.byVector, c.byText, c.textScores, 10, {
        phraseWeight: 0,
        sentenceWeight: 0,
        titleWeight: 0,
        typedSentenceWeight: 0,
        answerTypeWeight: 0,
        softWeight: 0,
        softSentenceShare: 0,
      });
      const base = new Map(plain.map((p) => [p.item.id, p.fused]));
      const margin = plain.length > 1 && plain[0].fused > 0
        ? (plain[0].fused - plain[1].fused) / plain[0].fused
        : 0;
      const scale = Math.min(1, Number(gate) * (1 - margin));
      const head = scored.slice(0, Math.max(20, 20)).map((x) => ({
        ...x,
        fused: base.get(x.item.id)! + scale * (x.fused - base.get(x.item.id)!),
      }));
      head.sort((x, y) => y.fused - x.fused);
      scored.splice(0, head.length, ...head);
    }
    return {
      scored,
      q: {
        text: folded,
        stems: questionStems(folded),
        type: answerType(folded),
        words: new Set(wordsOf(folded).map(stemOf)),
      } as Question,
    };
  })
);
const featureCache = new Map<string, number[][][]>();
function values(name: string): number[][][] {
  let found = featureCache.get(name);
  if (found) return found;
  const { fn, minmax } = feature(name);
  found = bases.map((questions) =>
    questions.map(({ scored, q }) => {
      const texts = scored.map((s) => s.item.text ?? "");
      const head = texts.slice(0, HEAD);
      const raw = fn(q, head, texts, head);
      if (minmax) {
        const lo = Math.min(...raw);
        const hi = Math.max(...raw);
        return raw.map((v) => (hi > lo ? (v - lo) / (hi - lo) : 0));
      }
      const hi = Math.max(0, ...raw);
      return raw.map((v) => (hi > 0 ? v / hi : 0));
    })
  );
  featureCache.set(name, found);
  return found;
}

const rankingsOf = (s: number, weights: Record<string, number>) =>
  bases[s].map(({ scored }, qi) => {
    const head = scored.slice(0, HEAD).map((c, i) => {
      let fused = c.fused;
      for (const [name, w] of Object.entries(weights)) if (w) fused += w * values(name)[s][qi][i];
      return { id: c.item.id, fused, i };
    });
    head.sort((x, y) => y.fused - x.fused || x.i - y.i);
    return [...head.map((h) => h.id), ...scored.slice(HEAD).map((c) => c.item.id)];
  });

const row = (label: string, weights: Record<string, number>) => {
  const cells = prepared.map(({ set }, s) =>
    fmt(scoreRankings(
      rankingsOf(s, weights),
      set.questions,
    ))
  );
  console.log(`| ${label} | ${cells.join(" | ")} |`);
};

console.log(`| variant | ${SETS.join(" | ")} |`);
const variants: [string, Record<string, number>][] = JSON.parse(
  Deno.env.get("VARIANTS") ?? '[["default", {}]]',
);
for (const [label, weights] of variants) row(label, weights);

if (Deno.env.get("FIT")) {
  // Coordinate ascent over the features' weights (FIT lists them, comma-separated) on the first set, maximising
  // recall@4 + MRR@10 / 2 + recall@1 / 4 (the third round's objective); a step that loses a question at
  // recall@1, @4 or @10 on the third set (the guard) against the default is refused. The second set is only
  // printed, unless FIT_BOTH is set.
  const names = Deno.env.get("FIT")!.split(",");
  const grid = [0, 0.05, 0.1, 0.2, 0.3, 0.5];
  const sc = (s: number, w: Record<string, number>) =>
    scoreRankings(rankingsOf(s, w), prepared[s].set.questions);
  const objective = (x: ReturnType<typeof sc>) => x.recall[1] + x.mrr / 2 + x.recall[0] / 4;
  const guard = sc(2, {});
  const allowed = (w: Record<string, number>) => {
    const g = sc(2, w);
    return g.recall.every((r, i) => r >= guard.recall[i] - 1e-9);
  };
  const weights: Record<string, number> = Object.fromEntries(names.map((n) => [n, 0]));
  // FIT_BOTH=1: the objective summed over the first two sets (an in-sample ceiling, not a tuning to keep).
  const tuned = Deno.env.get("FIT_BOTH") ? [0, 1] : [0];
  const total = (w: Record<string, number>) => tuned.reduce((sum, s) => sum + objective(sc(s, w)), 0);
  let best = total(weights);
  for (let pass = 0; pass < 4; pass++) {
    let moved = false;
    for (const name of names) {
      for (const value of grid) {
        if (value === weights[name]) continue;
        const trial = { ...weights, [name]: value };
        const score = total(trial);
        if (score > best + 1e-9 && allowed(trial)) {
          best = score;
          weights[name] = value;
          moved = true;
        }
      }
    }
    if (!moved) break;
  }
  console.log(JSON.stringify(weights));
  row("fitted", weights);
}
