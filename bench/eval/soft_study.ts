// The study behind bench/eval/README.md's "fifth round" table (issue 20: soft matching by meaning). It caches,
// in the temporary folder, the two side rankings 40 deep as the hybrid search reads them (the built-in
// embedder), then re-fuses them in memory with the real `fuseHybrid` for each variant of the soft matches
// (server/providers/vectors/soft_words.ts, the word neighbours of soft_words.bin). Not a task and not the
// evaluation (`deno task eval` is):
//   deno run -A bench/eval/soft_study.ts        (FRESH=1 rebuilds the cache; TIME=1 times the fusion)
// VARIANTS='[["label", {fusion options}], ...]' replaces the built-in list of variants.
import { fileURLToPath } from "node:url";
import { nativeEmbedder } from "../../server/providers/embedders/native.ts";
import { fuseHybrid, type FusionOptions } from "../../server/providers/vectors/fusion.ts";
import {
  parseSoftWords,
  type SoftWords,
  softWords,
  softWordsBytes,
} from "../../server/providers/vectors/soft_words.ts";
import type { VectorHit } from "../../server/providers/vectors/types.ts";
import { closeSet, indexSet, scoreRankings } from "./eval.ts";
import { readSet } from "./sets.ts";

Deno.env.set("LANCEDB_LOG", "error");
const DATA = fileURLToPath(new URL("./data/", import.meta.url));
const DEPTH = 40;
const SETS = (Deno.env.get("EVAL_SETS") ?? "squad-a,squad-b,rust-book-headings").split(",");

interface Sides {
  byVector: VectorHit[];
  byText: VectorHit[];
  textScores: number[];
}

const slim = (hit: VectorHit): VectorHit => ({ ...hit, vector: undefined } as VectorHit);

async function cachedSides(name: string) {
  const set = await readSet(DATA, name);
  const file = `${Deno.env.get("TMPDIR") ?? "/tmp"}/lectern-soft-sides-${name}.json`;
  if (Deno.env.get("FRESH") !== "1") {
    try {
      return { set, cached: JSON.parse(await Deno.readTextFile(file)) as Sides[] };
    } catch { /* built below */ }
  }
  const indexed = await indexSet(set, nativeEmbedder());
  const cached: Sides[] = [];
  try {
    for (const [index, question] of set.questions.entries()) {
      const sides = await indexed.store.rankings("eval", indexed.queryVectors[index], question.text, DEPTH);
      cached.push({
        byVector: sides.byVector.map(slim),
        byText: sides.byText.map(slim),
        textScores: sides.textScores,
      });
    }
  } finally {
    await closeSet(indexed);
  }
  await Deno.writeTextFile(file, JSON.stringify(cached));
  return { set, cached };
}

const fmt = (s: { recall: number[]; mrr: number }) =>
  `${s.recall.map((r) => r.toFixed(3).slice(1)).join(" / ")} / ${s.mrr.toFixed(3).slice(1)}`;

const prepared: ({ name: string } & Awaited<ReturnType<typeof cachedSides>>)[] = [];
for (const name of SETS) prepared.push({ name, ...(await cachedSides(name)) });
let table: SoftWords = await softWords();

/** This process's CPU seconds (user + system, from /proc), less sensitive than wall time to other work. */
function cpuSeconds(): number {
  const fields = Deno.readTextFileSync("/proc/self/stat").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

if (Deno.env.get("TIME")) {
  // The fusion's cost per question at top 4 without and with the soft matches (the defaults unless
  // TIME_OPTIONS says otherwise), over the cached sides: 8 interleaved runs (A B A B...) of every question,
  // the best wall time and the mean CPU time of each.
  const options: FusionOptions = JSON.parse(Deno.env.get("TIME_OPTIONS") ?? "{}");
  for (const { name, set, cached } of prepared) {
    const run = (soft: boolean) => {
      const started = performance.now();
      const cpu = cpuSeconds();
      cached.forEach((c, index) => {
        const question = set.questions[index].text;
        fuseHybrid(c.byVector, c.byText, c.textScores, 4, {
          question,
          ...(soft ? { ...options, softWords: table } : {}),
        });
      });
      return [(performance.now() - started) / cached.length, 1000 * (cpuSeconds() - cpu) / cached.length];
    };
    const wall = [Infinity, Infinity];
    const cpu = [0, 0];
    const rounds = 8;
    for (let round = 0; round < rounds; round++) {
      for (const soft of [false, true]) {
        const [ms, cpuMs] = run(soft);
        wall[Number(soft)] = Math.min(wall[Number(soft)], ms);
        cpu[Number(soft)] += cpuMs / rounds;
      }
    }
    console.log(
      `${name}: fusion ${wall[0].toFixed(2)} ms per question (CPU ${cpu[0].toFixed(2)} ms), ` +
        `with soft matches ${wall[1].toFixed(2)} ms (CPU ${cpu[1].toFixed(2)} ms)`,
    );
  }
  Deno.exit(0);
}

const row = (label: string, options: FusionOptions | null) => {
  const cells = prepared.map(({ set, cached }) =>
    fmt(scoreRankings(
      cached.map((c, index) =>
        options === null ? c.byText.map((h) => h.id) : fuseHybrid(c.byVector, c.byText, c.textScores, 10, {
          question: set.questions[index].text,
          softWords: table,
          ...options,
        }).map((h) => h.id)
      ),
      set.questions,
    ))
  );
  console.log(`| ${label} | ${cells.join(" | ")} |`);
};

console.log(`| variant | ${SETS.join(" | ")} |`);
const variants: [string, FusionOptions | null][] = Deno.env.get("VARIANTS")
  ? JSON.parse(Deno.env.get("VARIANTS")!)
  : [
    ["BM25 alone", null],
    ["default hybrid", { softWeight: 0, softSentenceShare: 0 }],
    ...[0.4, 0.5, 0.6].flatMap((threshold) =>
      [0.1, 0.2, 0.3].map((weight) =>
        [`soft coverage ${weight}, threshold ${threshold}`, {
          softWeight: weight,
          softThreshold: threshold,
        }] as [
          string,
          FusionOptions,
        ]
      )
    ),
    ...[0.4, 0.5, 0.6].flatMap((threshold) =>
      [0.25, 0.5].map((share) =>
        [`soft in sentences ${share}, threshold ${threshold}`, {
          softWeight: 0,
          softSentenceShare: share,
          softThreshold: threshold,
        }] as [string, FusionOptions]
      )
    ),
  ];
if (Deno.env.get("WORDS")) {
  // WORDS=20000,30000: the variants with tables of other vocabulary sizes, built from the npm package here.
  const { buildSoftTable, readGlove, DIMENSIONS, FLOOR, neighboursOf, withNeighbours } = await import(
    "../../scripts/build_soft_words.ts"
  );
  const glove = await readGlove();
  for (const words of Deno.env.get("WORDS")!.split(",").map(Number)) {
    const built = buildSoftTable(glove, words);
    const kept = withNeighbours(built.stems, neighboursOf(built.vectors, DIMENSIONS, FLOOR));
    table = parseSoftWords(softWordsBytes(kept.stems, kept.neighbours, FLOOR));
    for (const [label, options] of variants) {
      row(`${label}, ${words} words (${built.stems.length} stems)`, options);
    }
  }
} else for (const [label, options] of variants) row(label, options);
