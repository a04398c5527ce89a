// The study behind bench/eval/README.md's "second round" table (issue 20): variants of the hybrid search scored
// over side rankings cached 100 deep in the temporary folder (built once, about 230 MB), so that each variant
// costs seconds, not an index. Not a task and not the evaluation (`deno task eval` is):
//   EXPLORE=prf,feat,round2,round3,round4,round5,bm25 deno run -A bench/eval/explore.ts
// ("prf" needs the store and re-indexes the sets; EVAL_SETS narrows them as in eval.ts).
import { fileURLToPath } from "node:url";
import { nativeEmbedder } from "../../server/providers/embedders/native.ts";
import {
  fullTextQuery,
  fuseHybrid,
  phraseMatches,
  phrasePairs,
} from "../../server/providers/vectors/fusion.ts";
import { stemOf, STOPWORDS, wordsOf } from "../../server/providers/vectors/words.ts";
import type { VectorHit } from "../../server/providers/vectors/types.ts";
import { closeSet, type IndexedSet, indexSet, scoreRankings } from "./eval.ts";
import { readSet } from "./sets.ts";

Deno.env.set("LANCEDB_LOG", "error");
const DATA = fileURLToPath(new URL("./data/", import.meta.url));
const DEPTH = 100;

interface Cached {
  byVector: VectorHit[];
  byText: VectorHit[];
  textScores: number[];
}

type Variant = (question: string, sides: Cached, extra: Extra) => Promise<string[]> | string[];
interface Extra {
  indexed: IndexedSet;
  index: number;
  stats: Stats;
}

interface Stats {
  df: Map<string, number>;
  n: number;
}

function corpusStats(texts: string[]): Stats {
  const df = new Map<string, number>();
  for (const text of texts) {
    for (const stem of new Set(wordsOf(text).map(stemOf))) df.set(stem, (df.get(stem) ?? 0) + 1);
  }
  return { df, n: texts.length };
}

const fmt = (s: { recall: number[]; mrr: number }) =>
  `${s.recall.map((r) => r.toFixed(3).slice(1)).join(" / ")} / ${s.mrr.toFixed(3).slice(1)}`;

const sets = (Deno.env.get("EVAL_SETS") ?? "squad-a,squad-b,rust-book-headings").split(",");
const embedder = nativeEmbedder();
const prepared: { name: string; indexed: IndexedSet; cached: Cached[]; stats: Stats }[] = [];
for (const name of sets) {
  const set = await readSet(DATA, name);
  const cacheFile = `${Deno.env.get("TMPDIR") ?? "/tmp"}/lectern-eval-sides-${name}.json`;
  const needStore = (Deno.env.get("EXPLORE") ?? "").includes("prf");
  let cached: Cached[];
  let indexed: IndexedSet;
  try {
    if (needStore) throw new Error("store needed");
    cached = JSON.parse(await Deno.readTextFile(cacheFile));
    indexed = { set, queryVectors: [], store: null as never, directory: "", embedder } as IndexedSet;
  } catch {
    indexed = await indexSet(set, embedder);
    cached = [];
    for (const [index, question] of set.questions.entries()) {
      cached.push(await indexed.store.rankings("eval", indexed.queryVectors[index], question.text, DEPTH));
    }
    await Deno.writeTextFile(cacheFile, JSON.stringify(cached));
  }
  prepared.push({ name, indexed, cached, stats: corpusStats(set.passages.map((p) => p.text)) });
}

const cut = <T>(list: T[], depth: number) => list.slice(0, depth);

function baseline(depth = 40, options: Parameters<typeof fuseHybrid>[4] = {}): Variant {
  return (question, s) =>
    fuseHybrid(cut(s.byVector, depth), cut(s.byText, depth), cut(s.textScores, depth), 10, {
      question,
      ...options,
    }).map((h) => h.id);
}

/** Pseudo-relevance feedback: expansion terms from the top `docs` BM25 hits, a second FTS query fused in. */
function prf(docs: number, terms: number, beta: number, textWeight = 0.8): Variant {
  return async (question, s, { indexed, index, stats }) => {
    const own = new Set(fullTextQuery(question).split(" ").map(stemOf));
    const weights = new Map<string, { score: number; word: string }>();
    const top = s.byText.slice(0, docs);
    const maxScore = s.textScores[0] || 1;
    top.forEach((hit, rank) => {
      const words = wordsOf((hit.text ?? "").replace(/<document_metadata>[\s\S]*?<\/document_metadata>/, ""))
        .filter((w) => !STOPWORDS.has(w) && w.length > 2 && !/^\d+$/.test(w));
      const tf = new Map<string, { n: number; word: string }>();
      for (const w of words) {
        const st = stemOf(w);
        const e = tf.get(st);
        if (e) e.n++;
        else tf.set(st, { n: 1, word: w });
      }
      for (const [st, { n, word }] of tf) {
        if (own.has(st)) continue;
        const idf = Math.log(stats.n / (stats.df.get(st) ?? 1));
        const w = (n / words.length) * idf * (s.textScores[rank] / maxScore);
        const e = weights.get(st);
        if (e) e.score += w;
        else weights.set(st, { score: w, word });
      }
    });
    const expansion = [...weights.values()].sort((a, b) => b.score - a.score).slice(0, terms).map((e) =>
      e.word
    );
    if (expansion.length === 0) return baseline()(question, s, { indexed, index, stats });
    const query = `${fullTextQuery(question)} ${expansion.join(" ")}`;
    const second = await indexed.store.rankings("eval", indexed.queryVectors[index], query, 40);
    // combine bm25: original/max + beta * expanded/max
    const scores = new Map<string, { hit: VectorHit; score: number }>();
    const m1 = Math.max(...s.textScores.slice(0, 40), 1e-9);
    const m2 = Math.max(...second.textScores, 1e-9);
    cut(s.byText, 40).forEach((hit, i) => scores.set(hit.id, { hit, score: s.textScores[i] / m1 }));
    second.byText.forEach((hit, i) => {
      const e = scores.get(hit.id);
      if (e) e.score += beta * second.textScores[i] / m2;
      else scores.set(hit.id, { hit, score: beta * second.textScores[i] / m2 });
    });
    const merged = [...scores.values()].sort((a, b) => b.score - a.score);
    return fuseHybrid(cut(s.byVector, 40), merged.map((e) => e.hit), merged.map((e) => e.score), 10, {
      question,
      textWeight,
    }).map((h) => h.id);
  };
}

/** Our own BM25 over the candidate pool with corpus stats (k1, b), optionally replacing LanceDB's score. */
function ownBm25(k1: number, b: number, textWeight = 0.8, depth = 40, titleBoost = 0): Variant {
  return (question, s, { stats, indexed }) => {
    const avgdl = indexed.set.passages.reduce((n, p) => n + wordsOf(p.text).length, 0) /
      indexed.set.passages.length;
    const q = [...new Set(fullTextQuery(question).split(" ").filter(Boolean).map(stemOf))];
    const pool = new Map<string, VectorHit>();
    for (const h of [...cut(s.byVector, depth), ...cut(s.byText, depth)]) {
      if (!pool.has(h.id)) pool.set(h.id, h);
    }
    const hits = [...pool.values()];
    const scored = hits.map((hit) => {
      const raw = hit.text ?? "";
      const title = /sourceDocument: (.*)/.exec(raw)?.[1] ?? "";
      const body = raw.replace(/<document_metadata>[\s\S]*?<\/document_metadata>/, "");
      const words = wordsOf(body).map(stemOf);
      const tf = new Map<string, number>();
      for (const w of words) tf.set(w, (tf.get(w) ?? 0) + 1);
      const titleStems = new Set(wordsOf(title).map(stemOf));
      let score = 0;
      for (const t of q) {
        const df = stats.df.get(t) ?? 0;
        const idf = Math.log(1 + (stats.n - df + 0.5) / (df + 0.5));
        const f = tf.get(t) ?? 0;
        score += idf * (f * (k1 + 1)) / (f + k1 * (1 - b + b * words.length / avgdl));
        if (titleStems.has(t)) score += titleBoost * idf;
      }
      return { hit, score };
    }).sort((a, b) => b.score - a.score);
    return fuseHybrid(cut(s.byVector, depth), scored.map((e) => e.hit), scored.map((e) => e.score), 10, {
      question,
      textWeight,
    }).map((h) => h.id);
  };
}

type Feature = (
  pairs: [string, string][],
  stems: string[],
  text: string,
  pool: Map<string, number>,
  poolSize: number,
) => number;

const bodyOf = (raw: string) => raw.replace(/<document_metadata>[\s\S]*?<\/document_metadata>/, "");
const poolIdf = (pool: Map<string, number>, n: number, stem: string) =>
  Math.log(1 + n / (1 + (pool.get(stem) ?? 0)));

const phraseFeature: Feature = (pairs, _stems, text) => phraseMatches(pairs, text);

function sentenceFeature(idf: boolean, minimum = 1): Feature {
  return (_pairs, stems, text, pool, n) => {
    const want = new Set(stems);
    let best = 0;
    for (const sentence of bodyOf(text).split(/(?<=[.!?])\s+|\n+/)) {
      const seen = new Set(wordsOf(sentence).map(stemOf).filter((st) => want.has(st)));
      if (seen.size < minimum) continue;
      let score = 0;
      for (const st of seen) score += idf ? poolIdf(pool, n, st) : 1;
      best = Math.max(best, score);
    }
    return best;
  };
}

/** The best sentence's share of the question's IDF mass (0..1, not normalised by the best candidate). */
const sentenceShare: Feature = (pairs, stems, text, pool, n) => {
  const total = stems.reduce((sum, st) => sum + poolIdf(pool, n, st), 0);
  return total > 0 ? sentenceFeature(true)(pairs, stems, text, pool, n) / total : 0;
};

const titleFeature: Feature = (_pairs, stems, text, pool, n) => {
  const title = /sourceDocument: (.*)/.exec(text)?.[1] ?? "";
  const have = new Set(wordsOf(title).map(stemOf));
  return stems.filter((st) => have.has(st)).reduce((sum, st) => sum + poolIdf(pool, n, st), 0);
};

function windowFeature(width: number): Feature {
  return (_pairs, stems, text, pool, n) => {
    const want = new Set(stems);
    const words = wordsOf(bodyOf(text)).map(stemOf);
    let best = 0;
    for (let i = 0; i < words.length; i++) {
      if (!want.has(words[i])) continue;
      const seen = new Set<string>();
      for (let j = i; j < Math.min(words.length, i + width); j++) if (want.has(words[j])) seen.add(words[j]);
      let score = 0;
      for (const st of seen) score += poolIdf(pool, n, st);
      best = Math.max(best, score);
    }
    return best;
  };
}

/** The default fusion, reimplemented with any extra features over the best `head` candidates. */
function fused(
  features: [Feature, number][],
  head = 20,
  textWeight = 0.8,
  depth = 40,
  absolute = new Set<Feature>(),
): Variant {
  return (question, s) => {
    const c = new Map<string, { hit: VectorHit; bm25: number; order: number }>();
    for (const hit of cut(s.byVector, depth)) {
      if (!c.has(hit.id)) c.set(hit.id, { hit, bm25: 0, order: c.size });
    }
    cut(s.byText, depth).forEach((hit, i) => {
      const e = c.get(hit.id);
      if (e) e.bm25 = Math.max(e.bm25, s.textScores[i]);
      else c.set(hit.id, { hit, bm25: s.textScores[i], order: c.size });
    });
    let mt = 0, mv = 0;
    for (const e of c.values()) (mt = Math.max(mt, e.bm25)), (mv = Math.max(mv, e.hit.score));
    const scored = [...c.values()].map((e) => ({
      ...e,
      f: textWeight * e.bm25 / mt + (1 - textWeight) * e.hit.score / mv,
    }))
      .sort((a, b) => b.f - a.f || a.order - b.order);
    const top = scored.slice(0, head);
    const pairs = phrasePairs(question);
    const stems = [...new Set(wordsOf(question).filter((w) => !STOPWORDS.has(w)).map(stemOf))];
    const pool = new Map<string, number>();
    for (const e of scored) {
      for (const st of new Set(wordsOf(bodyOf(e.hit.text ?? "")).map(stemOf))) {
        pool.set(st, (pool.get(st) ?? 0) + 1);
      }
    }
    for (const [feature, weight] of features) {
      const values = top.map((e) => feature(pairs, stems, e.hit.text ?? "", pool, scored.length));
      const max = absolute.has(feature) ? 1 : Math.max(0, ...values);
      if (max > 0) top.forEach((e, i) => (e.f += weight * values[i] / max));
    }
    top.sort((a, b) => b.f - a.f || a.order - b.order);
    scored.splice(0, top.length, ...top);
    return scored.slice(0, 10).map((e) => e.hit.id);
  };
}

const variants: [string, Variant][] = [
  ["baseline (default)", baseline()],
  ["BM25 side only", (_q, s) => s.byText.slice(0, 10).map((h) => h.id)],
];
const extra = Deno.env.get("EXPLORE") ?? "base";
if (extra.includes("prf")) {
  for (
    const [d, t, beta] of [[3, 5, 0.3], [3, 10, 0.3], [5, 10, 0.3], [3, 5, 0.5], [5, 10, 0.5], [10, 10, 0.3]]
  ) {
    variants.push([`PRF docs ${d} terms ${t} beta ${beta}`, prf(d, t, beta)]);
  }
}
if (extra.includes("feat")) {
  variants.push(["reimpl: phrases 0.1 head 20", fused([[phraseFeature, 0.1]])]);
  for (const head of [40, 80]) {
    variants.push([`phrases 0.1 head ${head}`, fused([[phraseFeature, 0.1]], head)]);
  }
  for (const w of [0.1, 0.2, 0.3]) {
    variants.push([
      `phrases 0.1 + sentence idf ${w}`,
      fused([[phraseFeature, 0.1], [sentenceFeature(true), w]]),
    ]);
    variants.push([
      `phrases 0.1 + sentence count ${w}`,
      fused([[phraseFeature, 0.1], [sentenceFeature(false), w]]),
    ]);
    variants.push([`phrases 0.1 + window12 idf ${w}`, fused([[phraseFeature, 0.1], [windowFeature(12), w]])]);
  }
  variants.push([
    `phrases 0.1 + sentence idf 0.2 head 40`,
    fused([[phraseFeature, 0.1], [sentenceFeature(true), 0.2]], 40),
  ]);
  variants.push([`phrases 0.1 + window20 idf 0.2`, fused([[phraseFeature, 0.1], [windowFeature(20), 0.2]])]);
}
if (extra.includes("round2")) {
  for (const w of [0.2, 0.3, 0.4]) {
    variants.push([
      `phrases 0.1 + sentence share ${w}`,
      fused([[phraseFeature, 0.1], [sentenceShare, w]], 20, 0.8, 40, new Set([sentenceShare])),
    ]);
  }
  variants.push([
    `phrases 0.1 + sentence idf 0.3 head 40`,
    fused([[phraseFeature, 0.1], [sentenceFeature(true), 0.3]], 40),
  ]);
  variants.push([
    `phrases 0.1 + sentence idf 0.25`,
    fused([[phraseFeature, 0.1], [sentenceFeature(true), 0.25]]),
  ]);
  variants.push([
    `phrases 0.15 + sentence idf 0.25`,
    fused([[phraseFeature, 0.15], [sentenceFeature(true), 0.25]]),
  ]);
  variants.push([
    `0.7 text, phrases 0.1 + sentence idf 0.3`,
    fused([[phraseFeature, 0.1], [sentenceFeature(true), 0.3]], 20, 0.7),
  ]);
  variants.push([
    `0.9 text, phrases 0.1 + sentence idf 0.3`,
    fused([[phraseFeature, 0.1], [sentenceFeature(true), 0.3]], 20, 0.9),
  ]);
}
if (extra.includes("round3")) {
  const asks = (q: string) =>
    /\?\s*$/.test(q) ||
    /^(who|what|when|where|which|why|how|whom|whose|is|are|was|were|do|does|did|can|could|should|would|will|in what|on what)\b/i
      .test(q.trim());
  const gated = (test: (q: string) => boolean, yes: Variant, no: Variant): Variant => (q, s, e) =>
    test(q) ? yes(q, s, e) : no(q, s, e);
  const sent = fused([[phraseFeature, 0.15], [sentenceFeature(true), 0.25]]);
  const sent2 = fused([[phraseFeature, 0.1], [sentenceFeature(true), 0.3]]);
  variants.push(["phrases 0.15 + sentence idf 0.25, questions only", gated(asks, sent, baseline())]);
  variants.push(["phrases 0.1 + sentence idf 0.3, questions only", gated(asks, sent2, baseline())]);
  const long = (q: string) => new Set(wordsOf(q).filter((w) => !STOPWORDS.has(w))).size >= 4;
  variants.push(["phrases 0.15 + sentence idf 0.25, 4+ content words", gated(long, sent, baseline())]);
  variants.push([
    "phrases 0.15 + sentence idf 0.2",
    fused([[phraseFeature, 0.15], [sentenceFeature(true), 0.2]]),
  ]);
  variants.push([
    "phrases 0.15 + sentence idf 0.25 head 10",
    fused([[phraseFeature, 0.15], [sentenceFeature(true), 0.25]], 10),
  ]);
}
if (extra.includes("round4")) {
  variants.push([
    "phrases 0.15 + sentence idf 0.25 (2+ stems)",
    fused([[phraseFeature, 0.15], [sentenceFeature(true, 2), 0.25]]),
  ]);
  variants.push([
    "phrases 0.15 + sentence idf 0.3 (2+ stems)",
    fused([[phraseFeature, 0.15], [sentenceFeature(true, 2), 0.3]]),
  ]);
  variants.push([
    "phrases 0.15 + sentence idf 0.25 (3+ stems)",
    fused([[phraseFeature, 0.15], [sentenceFeature(true, 3), 0.25]]),
  ]);
  variants.push([
    "phrases 0.15 + sentence idf 0.15",
    fused([[phraseFeature, 0.15], [sentenceFeature(true), 0.15]]),
  ]);
}
if (extra.includes("round5")) {
  for (const t of [0.1, 0.2, 0.3]) {
    variants.push([
      `phrases 0.15 + sentence 0.25 + title ${t}`,
      fused([[phraseFeature, 0.15], [sentenceFeature(true), 0.25], [titleFeature, t]]),
    ]);
  }
  variants.push([`phrases 0.1 + title 0.2`, fused([[phraseFeature, 0.1], [titleFeature, 0.2]])]);
}
if (extra.includes("bm25")) {
  for (const [k1, b] of [[1.2, 0.75], [0.9, 0.4], [1.5, 0.75], [1.2, 0.3], [2.0, 0.75], [0.6, 0.5]]) {
    variants.push([`own BM25 k1 ${k1} b ${b}`, ownBm25(k1, b)]);
  }
  for (const boost of [0.3, 1]) {
    variants.push([`own BM25 1.2/0.75 title boost ${boost}`, ownBm25(1.2, 0.75, 0.8, 40, boost)]);
  }
}

console.log(`| variant | ${prepared.map((p) => p.name).join(" | ")} |`);
for (const [label, variant] of variants) {
  const cells: string[] = [];
  for (const { indexed, cached, stats } of prepared) {
    const rankings: string[][] = [];
    for (const [index, question] of indexed.set.questions.entries()) {
      rankings.push(await variant(question.text, cached[index], { indexed, index, stats }));
    }
    cells.push(fmt(scoreRankings(rankings, indexed.set.questions)));
  }
  console.log(`| ${label} | ${cells.join(" | ")} |`);
}
for (const { indexed } of prepared) if (indexed.store) await closeSet(indexed);
// keep imports used
void phraseMatches;
void phrasePairs;
