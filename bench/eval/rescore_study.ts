// The study behind bench/eval/README.md's "third round" table (issue 20): per-candidate features of the fused
// best 30 (the default fusion's order), read over side rankings cached 100 deep by explore.ts (run it once
// first), then answer-type features and a linear re-scorer fitted by coordinate ascent on squad-a, confirmed on
// squad-b and the Rust headings. Not a task and not the evaluation (`deno task eval` is):
//   deno run -A bench/eval/explore.ts && deno run -A bench/eval/rescore_study.ts
import { fileURLToPath } from "node:url";
import {
  candidateIdf,
  fuseHybrid,
  phraseMatches,
  phrasePairs,
  questionStems,
  titleScores,
} from "../../server/providers/vectors/fusion.ts";
import { stemOf, wordsOf } from "../../server/providers/vectors/words.ts";
import type { VectorHit } from "../../server/providers/vectors/types.ts";
import { scoreRankings } from "./eval.ts";
import { type EvalSet, readSet } from "./sets.ts";

const DATA = fileURLToPath(new URL("./data/", import.meta.url));
const HEAD = Number(Deno.env.get("HEAD") ?? 30);
const SETS = ["squad-a", "squad-b", "rust-book-headings"];

interface Cached {
  byVector: VectorHit[];
  byText: VectorHit[];
  textScores: number[];
}

const METADATA = /<document_metadata>[\s\S]*?<\/document_metadata>/;
const SENTENCE_END = /(?<=[.!?])\s+|\n+/;

type AnswerType = "date" | "number" | "person" | "place" | null;

/** The answer type a question asks for, from its question words (classic QA passage retrieval). */
export function answerType(question: string): AnswerType {
  const q = question.toLowerCase();
  if (
    /\b(what|which|in what|during what) (year|century|decade|date|day|month|era|period)\b|^when\b|\bwhen (did|was|were|is|does|do|had|has|will)\b/
      .test(q)
  ) return "date";
  if (
    /\bhow (many|much|long|far|old|large|big|tall|high|often|fast|wide|deep|heavy)\b|\bwhat (percentage|percent|number|amount|proportion|fraction|age)\b/
      .test(q)
  ) return "number";
  if (
    /^(who|whom|whose)\b|\b(who|whom|whose) (was|is|were|did|does|had|has|wrote|made|created|won|led|became|played|founded|directed|designed)\b/
      .test(q)
  ) return "person";
  if (
    /^where\b|\bwhere (did|was|were|is|does|do|are)\b|\b(what|which|in what|in which) (city|country|state|place|region|town|county|continent|nation|island|location|province)\b/
      .test(q)
  ) return "place";
  return null;
}

const YEAR =
  /\b(1[0-9]{3}|20[0-9]{2})s?\b|\b(january|february|march|april|may|june|july|august|september|october|november|december)\b|\bcentury\b|\b[0-9]{1,2}(st|nd|rd|th)\b|\b(bc|ad|bce)\b/i;
const NUMBER =
  /\b[0-9][0-9,.]*\b|\b(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred|thousand|million|billion|dozen|half|percent)\b/i;

/** Whether a sentence holds an answer of the type: a date, a number, or a capitalised word the question lacks. */
export function holdsAnswer(type: AnswerType, sentence: string, questionWords: ReadonlySet<string>): boolean {
  if (type === "date") return YEAR.test(sentence);
  if (type === "number") return NUMBER.test(sentence);
  if (type === "person" || type === "place") {
    const words = sentence.match(/[\p{L}][\p{L}'’-]*/gu) ?? [];
    return words.some((word, index) =>
      index > 0 && /^\p{Lu}/u.test(word) && !questionWords.has(stemOf(word.toLowerCase()))
    );
  }
  return false;
}

interface Row {
  relevant: boolean;
  f: number[];
}
const FEATURES = [
  "base", // 0.8 bm25/max + 0.2 cos/max
  "bm25",
  "cos",
  "phrase", // / max over head
  "title", // / max over head
  "sent", // best sentence by idf / max
  "sentShare", // best sentence idf / total question idf
  "typedSent", // best sentence (by idf) among sentences holding an answer of the type, / max
  "bestHasType", // the best sentence holds an answer of the type (0/1)
  "coverage", // idf share of question stems in the chunk
  "window", // best 12-word window by idf / max
  "sentCount", // best sentence question-stem count / stems
  "typedAny", // the chunk holds an answer of the type at all
];

const FOLD = Deno.env.get("FOLD") === "1";
const fold = (text: string) => FOLD ? text.normalize("NFKD").replace(/\p{M}+/gu, "") : text;
function featuresOf(
  rawQuestion: string,
  rawSides: Cached,
): { rows: Row[]; rest: string[] } & { ids: string[] } {
  const question = fold(rawQuestion);
  const foldHit = (hit: VectorHit) => ({ ...hit, text: fold(hit.text ?? "") });
  const sides = {
    ...rawSides,
    byVector: rawSides.byVector.map(foldHit),
    byText: rawSides.byText.map(foldHit),
  };
  // The default fusion's order without phrases/title, as fuseHybrid computes it.
  const candidates = new Map<string, { hit: VectorHit; bm25: number; order: number }>();
  for (const hit of sides.byVector.slice(0, 40)) {
    if (!candidates.has(hit.id)) candidates.set(hit.id, { hit, bm25: 0, order: candidates.size });
  }
  sides.byText.slice(0, 40).forEach((hit, i) => {
    const bm25 = Math.max(0, sides.textScores[i] || 0);
    const seen = candidates.get(hit.id);
    if (seen) seen.bm25 = Math.max(seen.bm25, bm25);
    else candidates.set(hit.id, { hit, bm25, order: candidates.size });
  });
  let mt = 0, mv = 0;
  for (const c of candidates.values()) (mt = Math.max(mt, c.bm25)), (mv = Math.max(mv, c.hit.score));
  const scored = [...candidates.values()].map((c) => ({
    ...c,
    bm: mt > 0 ? c.bm25 / mt : 0,
    cs: mv > 0 ? c.hit.score / mv : 0,
  })).map((c) => ({ ...c, base: 0.8 * c.bm + 0.2 * c.cs }))
    .sort((a, b) => b.base - a.base || a.order - b.order);
  const head = scored.slice(0, HEAD);
  const pairs = phrasePairs(question);
  const stems = questionStems(question);
  const idf = candidateIdf(stems, scored.map((c) => c.hit.text ?? ""));
  const total = stems.reduce((s, st) => s + idf(st), 0) || 1;
  const type = answerType(question);
  const qWords = new Set(wordsOf(question).map(stemOf));
  const want = new Set(stems);
  const titles = titleScores(stems, head.map((c) => c.hit.text ?? ""), idf);
  const raw = head.map((c, index) => {
    const text = c.hit.text ?? "";
    const body = text.replace(METADATA, "");
    let sent = 0, typed = 0, bestHas = 0, bestCount = 0, any = 0;
    for (const sentence of body.split(SENTENCE_END)) {
      const seen = new Set(wordsOf(sentence).map(stemOf).filter((s) => want.has(s)));
      let w = 0;
      for (const s of seen) w += idf(s);
      const has = type ? holdsAnswer(type, sentence, qWords) : false;
      if (has) any = 1;
      if (w > sent) (sent = w), (bestHas = has ? 1 : 0);
      if (has) typed = Math.max(typed, w);
      bestCount = Math.max(bestCount, seen.size);
    }
    const words = wordsOf(body).map(stemOf);
    const inChunk = new Set(words.filter((s) => want.has(s)));
    let coverage = 0;
    for (const s of inChunk) coverage += idf(s);
    let window = 0;
    for (let i = 0; i < words.length; i++) {
      if (!want.has(words[i])) continue;
      const seen = new Set<string>();
      for (let j = i; j < Math.min(words.length, i + 12); j++) if (want.has(words[j])) seen.add(words[j]);
      let w = 0;
      for (const s of seen) w += idf(s);
      window = Math.max(window, w);
    }
    return [
      c.base,
      c.bm,
      c.cs,
      phraseMatches(pairs, text),
      titles[index],
      sent,
      sent / total,
      typed,
      bestHas,
      coverage / total,
      window,
      stems.length ? bestCount / stems.length : 0,
      any,
    ];
  });
  const normalise = [3, 4, 5, 7, 10];
  for (const at of normalise) {
    const max = Math.max(0, ...raw.map((r) => r[at]));
    if (max > 0) { for (const r of raw) r[at] /= max; }
  }
  return {
    rows: raw.map((f, i) => ({ relevant: false, f, id: head[i].hit.id } as Row & { id: string })),
    rest: scored.slice(HEAD).map((c) => c.hit.id),
    ids: head.map((c) => c.hit.id),
  };
}

interface Q {
  ids: string[];
  rest: string[];
  f: number[][];
  relevant: Set<string>;
  type: AnswerType;
}

const prepared: { name: string; set: EvalSet; qs: Q[]; defaults: string[][] }[] = [];
for (const name of SETS) {
  const set = await readSet(DATA, name);
  const cached: Cached[] = JSON.parse(
    await Deno.readTextFile(`${Deno.env.get("TMPDIR") ?? "/tmp"}/lectern-eval-sides-${name}.json`),
  );
  const qs: Q[] = [];
  const defaults: string[][] = [];
  set.questions.forEach((question, index) => {
    const { rows, rest, ids } = featuresOf(question.text, cached[index]);
    qs.push({
      ids,
      rest,
      f: rows.map((r) => r.f),
      relevant: new Set(question.relevant),
      type: answerType(question.text),
    });
    const s = cached[index];
    defaults.push(
      fuseHybrid(s.byVector.slice(0, 40), s.byText.slice(0, 40), s.textScores.slice(0, 40), 10, {
        question: question.text,
      }).map((h) => h.id),
    );
  });
  prepared.push({ name, set, qs, defaults });
}

function rank(q: Q, w: number[], head = HEAD): string[] {
  const order = q.f.slice(0, head).map((f, i) => ({
    i,
    s: f.reduce((sum, v, k) => sum + v * (w[k] ?? 0), 0),
  }))
    .sort((a, b) => b.s - a.s || a.i - b.i).map((e) => q.ids[e.i]);
  return [...order, ...q.ids.slice(head), ...q.rest].slice(0, 10);
}

const fmt = (s: { recall: number[]; mrr: number }) =>
  `${s.recall.map((r) => r.toFixed(3).slice(1)).join(" / ")} / ${s.mrr.toFixed(3).slice(1)}`;

function evalAll(w: number[], head = HEAD) {
  return prepared.map((p) => scoreRankings(p.qs.map((q) => rank(q, w, head)), p.set.questions));
}

function row(label: string, w: number[], head = HEAD) {
  console.log(`| ${label} | ${evalAll(w, head).map(fmt).join(" | ")} |`);
}

const W = (entries: Record<string, number>) => FEATURES.map((name) => entries[name] ?? 0);

// Answer types found per set.
for (const p of prepared) {
  const counts: Record<string, number> = {};
  for (const q of p.qs) counts[String(q.type)] = (counts[String(q.type)] ?? 0) + 1;
  console.log(p.name, JSON.stringify(counts));
}
console.log(`| variant | ${SETS.join(" | ")} |`);
console.log(
  `| default (real fuseHybrid) | ${
    prepared.map((p) => fmt(scoreRankings(p.defaults, p.set.questions))).join(" | ")
  } |`,
);
const DEFAULT = { base: 1, phrase: 0.1, title: 0.2 };
row("reimplemented default, head 20", W(DEFAULT), 20);
row(`reimplemented default, head ${HEAD}`, W(DEFAULT));
for (const w of [0.05, 0.1, 0.15, 0.2, 0.3]) {
  row(`default + typed sentence ${w}`, W({ ...DEFAULT, typedSent: w }));
}
for (const w of [0.05, 0.1, 0.2]) {
  row(`default + best sentence holds type ${w}`, W({ ...DEFAULT, bestHasType: w }));
}
for (const w of [0.05, 0.1]) row(`default + chunk holds type ${w}`, W({ ...DEFAULT, typedAny: w }));
for (const w of [0.1, 0.2, 0.3]) row(`default + coverage ${w}`, W({ ...DEFAULT, coverage: w }));
row(`default + sentence 0.25, phrases 0.15`, W({ ...DEFAULT, phrase: 0.15, sent: 0.25 }));
for (const w of [0.1, 0.2]) {
  row(
    `default + sentence 0.25, phrases 0.15, typed ${w}`,
    W({ ...DEFAULT, phrase: 0.15, sent: 0.25, typedSent: w }),
  );
}

// Gated: the factoid weights for questions with an answer type, the default for the others.
function rankGated(q: Q, typed: number[], untyped: number[], head = HEAD) {
  return rank(q, q.type ? typed : untyped, head);
}
function rowGated(label: string, typed: number[], untyped = W(DEFAULT), head = HEAD) {
  const cells = prepared.map((p) =>
    fmt(scoreRankings(p.qs.map((q) => rankGated(q, typed, untyped, head)), p.set.questions))
  );
  console.log(`| ${label} | ${cells.join(" | ")} |`);
}
const VARIANTS = Deno.env.get("VARIANTS") ?? "mixed";
if (VARIANTS.includes("gated")) {
  for (const head of [20, 30]) {
    for (
      const [s, t] of [[0.25, 0], [0.25, 0.1], [0.25, 0.2], [0.25, 0.3], [0.4, 0.2], [0.15, 0.3], [0, 0.3], [
        0,
        0.5,
      ]]
    ) {
      rowGated(
        `typed questions only: sentence ${s}, phrases 0.15, typed sentence ${t}, head ${head}`,
        W({ ...DEFAULT, phrase: 0.15, sent: s, typedSent: t }),
        W(DEFAULT),
        head,
      );
    }
  }
}
if (VARIANTS.includes("mixed")) {
  for (const head of [20, 30]) {
    for (const su of [0, 0.1, 0.15, 0.2, 0.25]) {
      for (const [st, t] of [[0.25, 0.3], [0.3, 0.3], [0.25, 0.5], [0.2, 0.2]]) {
        rowGated(
          `untyped: sentence ${su}, phrases 0.15; typed: sentence ${st} + typed ${t}; head ${head}`,
          W({ ...DEFAULT, phrase: 0.15, sent: st, typedSent: t }),
          W({ ...DEFAULT, phrase: 0.15, sent: su }),
          head,
        );
      }
    }
  }
}
if (VARIANTS.includes("simple")) {
  for (const head of [20, 30]) {
    for (const [su, t] of [[0.15, 0.3], [0.15, 0.5], [0.15, 0.7], [0.2, 0.5], [0.1, 0.5], [0.15, 0.4]]) {
      rowGated(
        `sentence ${su}, phrases 0.15, typed sentence ${t}; head ${head}`,
        W({ ...DEFAULT, phrase: 0.15, sent: su, typedSent: t }),
        W({ ...DEFAULT, phrase: 0.15, sent: su }),
        head,
      );
    }
  }
}
if (VARIANTS.includes("grid")) {
  const fitted = {
    bm25: 0.8,
    cos: 0.2,
    phrase: 0.25,
    title: 0.2,
    sent: 0.2,
    typedSent: 0.25,
    bestHasType: 0.25,
  };
  row("guarded fit", W(fitted), 20);
  for (const window of [0, 0.2, 0.4]) {
    for (const title of [0.2, 0.4, 0.8]) {
      for (const sent of [0.2, 0.4]) {
        row(
          `guarded fit, window ${window}, title ${title}, sentence ${sent}`,
          W({ ...fitted, window, title, sent }),
          20,
        );
      }
    }
  }
}
if (Deno.env.get("FIT") === "none") Deno.exit(0);
// Coordinate ascent on squad-a: objective recall@4 + 0.5 MRR@10 + 0.25 recall@1, over the questions `subset` keeps.
const only = (Deno.env.get("FIT") ?? "cos,phrase,title,sent,typedSent,bestHasType,window").split(",");
const GRID = [0, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6, 0.8, 1];
const GUARD = Deno.env.get("GUARD") === "1";
const TOLERANCE = Number(Deno.env.get("TOLERANCE") ?? 0);
const FIT_HEAD = Number(Deno.env.get("FIT_HEAD") ?? 20);
function fit(subset: (q: Q) => boolean, names: string[]) {
  const qs = prepared[0].qs.filter(subset);
  const questions = prepared[0].set.questions.filter((_, i) => subset(prepared[0].qs[i]));
  const rust = prepared[2];
  const guard = scoreRankings(rust.qs.map((q) => rank(q, W(DEFAULT), FIT_HEAD)), rust.set.questions);
  const objective = (w: number[]) => {
    if (GUARD) {
      const r = scoreRankings(rust.qs.map((q) => rank(q, w, FIT_HEAD)), rust.set.questions);
      if (r.recall.some((value, at) => value < guard.recall[at] - TOLERANCE - 1e-9)) return -1;
    }
    const s = scoreRankings(qs.map((q) => rank(q, w, FIT_HEAD)), questions);
    return s.recall[1] + 0.5 * s.mrr + 0.25 * s.recall[0];
  };
  let w = W({ bm25: 0.8, cos: 0.2, phrase: 0.1, title: 0.2 });
  let best = objective(w);
  for (let pass = 0; pass < 5; pass++) {
    let moved = false;
    for (const name of names) {
      const k = FEATURES.indexOf(name);
      for (const value of GRID) {
        const trial = [...w];
        trial[k] = value;
        const score = objective(trial);
        if (score > best + 1e-9) (best = score), (w = trial), (moved = true);
      }
    }
    if (!moved) break;
  }
  console.log(
    "fitted:",
    JSON.stringify(Object.fromEntries(FEATURES.map((n, i) => [n, w[i]]).filter(([, v]) => v))),
  );
  return w;
}
const all = fit(() => true, only);
row(`one set of weights fitted on squad-a (head ${FIT_HEAD})`, all, FIT_HEAD);
const typed = fit((q) => q.type !== null, only);
const untyped = fit((q) => q.type === null, only.filter((n) => n !== "typedSent" && n !== "bestHasType"));
rowGated(
  `weights fitted on squad-a's typed and untyped questions apart (head ${FIT_HEAD})`,
  typed,
  untyped,
  FIT_HEAD,
);
rowGated(`typed questions: fitted weights; others: default`, typed, W(DEFAULT), FIT_HEAD);
