import assert from "node:assert/strict";
import {
  fuseHybrid,
  sentenceFeatures,
  SOFT_SENTENCE_SHARE,
  SOFT_THRESHOLD,
  SOFT_WEIGHT,
  softMatcher,
  softScores,
} from "./fusion.ts";
import { FUSION_WEIGHTS } from "./fusion_weights.ts";
import { parseSoftWords, softWords, softWordsBytes, withSoftWords } from "./soft_words.ts";
import { stemOf } from "./words.ts";

/** A table the test writes: money and budget alike (cosine 0.8), spectre and premier like neither. */
function tinyTable() {
  const stems = ["money", "budget", "spectre", "premier"].map(stemOf);
  return parseSoftWords(
    softWordsBytes(stems, [[{ row: 1, likeness: 0.8 }], [{ row: 0, likeness: 0.8 }], [], []], 0.6),
  );
}

Deno.test("softWords: the shipped GloVe table finds words of like meaning, and is read once", async () => {
  const table = await softWords();
  assert.ok(table.size > 20_000, `${table.size} stems`);
  assert.ok(table.floor <= Math.fround(SOFT_THRESHOLD), "every pair the search counts is in the table");
  const like = (a: string, b: string) => table.similarity(stemOf(a), stemOf(b));
  assert.ok(like("cost", "budget") >= SOFT_THRESHOLD, `cost / budget ${like("cost", "budget")}`);
  assert.ok(like("typeface", "font") >= SOFT_THRESHOLD, `typeface / font ${like("typeface", "font")}`);
  assert.ok(like("marry", "marriage") >= SOFT_THRESHOLD);
  assert.ok(like("car", "banana") < 0.3, `car / banana ${like("car", "banana")}`);
  assert.equal(like("budget", "budgets"), 1, "one row per Porter stem");
  assert.equal(like("budget", "zzzunknown"), 0, "a stem not in the table is like nothing");
  assert.equal(table.has(stemOf("the")), false, "no stop words");
  assert.equal(await softWords(), table, "read once");
});

Deno.test("parseSoftWords: each stem's neighbours with their likeness, at any offset; a bad file is refused", () => {
  const bytes = softWordsBytes(
    ["alpha", "beta", "gamma"],
    [[{ row: 1, likeness: 0.9 }, { row: 2, likeness: 0.6 }], [{ row: 0, likeness: 0.9 }], [{
      row: 0,
      likeness: 0.6,
    }]],
    0.6,
  );
  const table = parseSoftWords(bytes);
  assert.equal(table.size, 3);
  assert.ok(
    Math.abs(table.similarity("alpha", "beta") - 0.9) < 0.001,
    `${table.similarity("alpha", "beta")}`,
  );
  assert.ok(table.similarity("alpha", "gamma") >= 0.6, "the floor itself is kept");
  assert.equal(table.similarity("alpha", "alpha"), 1);
  assert.equal(table.similarity("beta", "gamma"), 0, "not neighbours");
  assert.equal(table.similarity("alpha", "delta"), 0, "not in the table");
  assert.deepEqual([...table.neighbours("alpha").keys()], ["beta", "gamma"]);
  assert.equal(table.neighbours("delta").size, 0);
  assert.throws(() => parseSoftWords(bytes.subarray(1)), /not a table of soft words/);
  assert.throws(() => parseSoftWords(bytes.subarray(0, bytes.length - 1)), /does not match/);
  const offset = new Uint8Array(bytes.length + 5);
  offset.set(bytes, 5);
  assert.deepEqual([...parseSoftWords(offset.subarray(5)).neighbours("alpha")], [
    ...table.neighbours("alpha"),
  ]);
});

Deno.test("softScores: a question word the chunk lacks counts by its IDF times its best likeness there", () => {
  const table = tinyTable();
  const stems = ["money", "spectr"].map((word) => stemOf(word));
  const matches = softMatcher(stems, table, 0.6);
  const found = [...matches(stemOf("budget"))!];
  assert.deepEqual(found.map(([stem]) => stem), [stemOf("money")]);
  assert.ok(Math.abs(found[0][1] - 0.8) < 0.002, `${found[0][1]}`); // quantised to a byte
  assert.equal(matches(stemOf("premier")), undefined, "below the threshold");
  assert.equal(
    matches(stemOf("money")),
    undefined,
    "the question's own stem is an exact match, not a soft one",
  );
  const scores = softScores(
    stems,
    ["Spectre had a budget of $245 million.", "Spectre premiered in London.", "The money and the budget."],
    () => 2,
    matches,
  );
  assert.ok(Math.abs(scores[0] - 2 * 0.8) < 0.004, `${scores[0]}`);
  assert.equal(scores[1], 0);
  assert.equal(scores[2], 0, "a chunk holding the word itself gains nothing more");
  assert.deepEqual(softScores(stems, ["budget"], () => 2, softMatcher(stems, table, 0.9)), [0]);
});

Deno.test("sentenceFeatures: a soft match adds its weight to the sentence, once per question word", () => {
  const table = tinyTable();
  const stems = [stemOf("money"), stemOf("spectre")];
  const matches = softMatcher(stems, table, 0.6);
  const softOf = (stem: string) => {
    const found = matches(stem);
    return found && new Map([...found].map(([question, likeness]) => [question, 0.5 * likeness]));
  };
  const [features] = sentenceFeatures(
    stems,
    ["Spectre premiered. Spectre's budget, the budget."],
    () => 1,
    null,
    new Set(),
    softOf,
  );
  assert.ok(Math.abs(features.best - 1.4) < 0.002, `${features.best}`);
  const [exact] = sentenceFeatures(stems, ["Spectre money budget."], () => 1, null, new Set(), softOf);
  assert.equal(exact.best, 2, "a word found itself is not counted again softly");
});

Deno.test("fuseHybrid: a chunk saying the question's words in other words gains with soft matches, not without", () => {
  const hit = (id: string, text: string) => ({ id, score: 0.5, text });
  const byText = [
    hit("premiere", "Spectre premiered in London in October."),
    hit("budget", "Spectre had a budget of about $245 million."),
  ];
  const question = "What money went into Spectre?"; // no answer type: only the soft matches tell them apart
  const fuse = (options: object) =>
    fuseHybrid([], byText, [1, 1], 2, { question, ...options }).map((item) => item.id);
  assert.deepEqual(fuse({}), ["premiere", "budget"], "no table: as before");
  assert.deepEqual(fuse({ softWords: tinyTable() }), ["budget", "premiere"]);
  assert.deepEqual(fuse({ softWords: tinyTable(), softWeight: 0, softSentenceShare: 0 }), [
    "premiere",
    "budget",
  ]);
});

Deno.test("withSoftWords: the table is read for the lexical weights, not when the weights leave soft matches out", async () => {
  assert.ok(SOFT_WEIGHT > 0 && SOFT_SENTENCE_SHARE > 0);
  const options = { question: "How much money?" };
  assert.equal((await withSoftWords(options)).softWords, await softWords());
  const dense = { ...options, ...FUSION_WEIGHTS.dense };
  assert.equal(await withSoftWords(dense), dense, "dense weights: unchanged, no table");
  const given = { ...options, softWords: tinyTable() };
  assert.equal(await withSoftWords(given), given);
});
