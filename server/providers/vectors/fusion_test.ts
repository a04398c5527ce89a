import assert from "node:assert/strict";
import {
  ANSWER_TYPE_WEIGHT,
  answerType,
  candidateIdf,
  foldAccents,
  fullTextQuery,
  fuseHybrid,
  fuseHybridScored,
  fusionDepth,
  holdsAnswer,
  PHRASE_CANDIDATES,
  PHRASE_WEIGHT,
  phraseMatches,
  phrasePairs,
  questionStems,
  reciprocalRankFusion,
  RRF_K,
  SENTENCE_WEIGHT,
  sentenceFeatures,
  sentenceScores,
  type SoftWords,
  TEXT_WEIGHT,
  TextMemo,
  TITLE_WEIGHT,
  titleScores,
  TYPED_SENTENCE_WEIGHT,
} from "./fusion.ts";

/** The phrase share alone, the other shares off. */
const PHRASES_ONLY = { sentenceWeight: 0, typedSentenceWeight: 0, answerTypeWeight: 0, titleWeight: 0 };

Deno.test("reciprocalRankFusion: agreement between the lists wins; each list's first object is kept", () => {
  const byVector = [{ id: "a", from: "vector" }, { id: "b", from: "vector" }, { id: "c", from: "vector" }];
  const byText = [{ id: "c", from: "text" }, { id: "d", from: "text" }, { id: "a", from: "text" }];
  const fused = reciprocalRankFusion([byVector, byText], (item) => item.id);
  assert.deepEqual(fused.map(({ item }) => item.id), ["a", "c", "b", "d"]);
  assert.equal(fused[0].item.from, "vector");
  assert.equal(fused[1].item.from, "vector", "c keeps the vector side's object");
  assert.ok(Math.abs(fused[0].fused - (1 / (RRF_K + 1) + 1 / (RRF_K + 3))) < 1e-12);
  // b (vector rank 2) and d (text rank 2) tie: the first list's order decides.
  assert.equal(fused[2].fused, fused[3].fused);
  assert.deepEqual(reciprocalRankFusion([[], []], String), []);
});

Deno.test("fullTextQuery: words only, lower-cased, each once, stop words left out, at most 64", () => {
  assert.equal(
    fullTextQuery('What\'s "AND" (the) -capital: of Freedonia? OR capital'),
    "s capital freedonia",
  );
  assert.equal(fullTextQuery("When did the Sichuan earthquake hit?"), "sichuan earthquake hit");
  // A question of stop words only keeps them: something is still searched.
  assert.equal(fullTextQuery("Who are you?"), "who are you");
  assert.equal(fullTextQuery(" -- ** :: "), "");
  assert.equal(fullTextQuery("Ｆｕｌｌｗｉｄｔｈ café"), "fullwidth café");
  const many = Array.from({ length: 100 }, (_, index) => `w${index}`).join(" ");
  assert.equal(fullTextQuery(many).split(" ").length, 64);
});

Deno.test("phrasePairs and phraseMatches: neighbouring question words found near each other, on stems", () => {
  assert.deepEqual(phrasePairs("When did the Sichuan earthquakes hit Chengdu?"), [
    ["sichuan", "earthquak"],
    ["earthquak", "hit"],
    ["hit", "chengdu"],
  ]);
  assert.deepEqual(phrasePairs("What is it?"), []);
  const pairs = phrasePairs("rate of inflation in Montana");
  // "inflation rate" is 1 apart, "inflation ... in the state of Montana" 5 apart (past the window of 3).
  assert.equal(phraseMatches(pairs, "The inflation rate was low in the state of Montana."), 1);
  assert.equal(phraseMatches(pairs, "Rates of inflation in Montana rose."), 2);
  assert.equal(phraseMatches(pairs, "Inflation was low. In the state of Montana, the rate grew."), 0);
  assert.equal(phraseMatches([], "anything"), 0);
  // Porter turns a final y into i: the probe finds "Happy" all the same; "unhappy" is another word.
  assert.equal(phraseMatches(phrasePairs("happy families"), "All Happy families are alike."), 1);
  assert.equal(phraseMatches(phrasePairs("happy families"), "unhappy families"), 0);
});

const hit = (id: string, score: number) => ({ id, score });

Deno.test("fuseHybrid: BM25 scores count 0.8 and cosines 0.2, each divided by its side's best", () => {
  // a: best by vector, no BM25 → 0.2. b: both → 0.8 · 4/8 + 0.2 · 0.4/0.5 = 0.56. c: best BM25 → 0.8 + 0.2 · 0.2/0.5 = 0.88.
  const byVector = [hit("a", 0.5), hit("b", 0.4)];
  const byText = [hit("c", 0.2), hit("b", 0.4)];
  const fused = fuseHybrid(byVector, byText, [8, 4], 10);
  assert.deepEqual(fused.map((item) => item.id), ["c", "b", "a"]);
  assert.equal(fused[0].score, 0.2, "the similarity the threshold judges is kept");
  assert.deepEqual(fuseHybrid(byVector, byText, [8, 4], 2).map((item) => item.id), ["c", "b"]);
  // The weight moves the balance: with the text side at 0.1, the vectors' best wins.
  assert.deepEqual(
    fuseHybrid(byVector, byText, [8, 4], 10, { textWeight: 0.1 }).map((item) => item.id),
    ["a", "b", "c"],
  );
  assert.equal(TEXT_WEIGHT, 0.8);
  // BM25 leads: a chunk BM25 ranks well ahead (10 against 6) stays ahead of one with twice its cosine.
  // x: 0.8 + 0.2 · 0.3/0.6 = 0.9; y: 0.8 · 0.6 + 0.2 = 0.68. At equal weights (0.5) y would win: 0.8 against 0.75.
  const sure = [hit("x", 0.3), hit("y", 0.6)];
  assert.deepEqual(fuseHybrid([], sure, [10, 6], 2).map((item) => item.id), ["x", "y"]);
  assert.deepEqual(fuseHybrid([], sure, [10, 6], 2, { textWeight: 0.5 }).map((item) => item.id), ["y", "x"]);
});

const passage = (id: string, score: number, text: string) => ({ id, score, text });

Deno.test("fuseHybridScored: every candidate with its hybrid score, best first; fuseHybrid is its first topK", () => {
  // As above: c 0.8 + 0.2 · 0.2/0.5 = 0.88, b 0.8 · 4/8 + 0.2 · 0.4/0.5 = 0.56, a 0.2.
  const byVector = [hit("a", 0.5), hit("b", 0.4)];
  const byText = [hit("c", 0.2), hit("b", 0.4)];
  const scored = fuseHybridScored(byVector, byText, [8, 4], 1);
  assert.deepEqual(scored.map(({ item }) => item.id), ["c", "b", "a"], "not cut to topK");
  assert.deepEqual(scored.map(({ fused }) => Math.round(fused * 1000) / 1000), [0.88, 0.56, 0.2]);
  assert.deepEqual(fuseHybrid(byVector, byText, [8, 4], 1).map((item) => item.id), ["c"]);
  // With a question, the shares are in the scores: s gains the sentence share (0.25) over a.
  const question = "Which river do the grey herons nest beside?";
  const spread = passage("a", 0.4, "The grey birds nest. Herons live beside it. The river is wide.");
  const sentence = passage("s", 0.4, "Herons, grey birds, nest beside a wide river.");
  const options = { question, phraseWeight: 0, sentenceWeight: 0.25, titleWeight: 0 };
  const shared = fuseHybridScored([], [spread, sentence], [5, 5], 2, options);
  assert.deepEqual(shared.map(({ item }) => item.id), ["s", "a"]);
  assert.ok(shared[0].fused > 1 && shared[0].fused - shared[1].fused > 0.1);
  assert.deepEqual(
    fuseHybrid([], [spread, sentence], [5, 5], 2, options).map((item) => item.id),
    shared.map(({ item }) => item.id),
  );
});

Deno.test("fuseHybrid: the question's words next to each other in a chunk add 0.25 over its sides' scores", () => {
  const question = "When did the Sichuan earthquake hit Chengdu?";
  // Same BM25 and cosine; only p holds "Sichuan earthquake" and "hit Chengdu" as phrases.
  const apart = passage(
    "q",
    0.4,
    "Chengdu felt an earthquake in 2008; the province of Sichuan was hit hard.",
  );
  const together = passage("p", 0.4, "The Sichuan earthquake of 2008 hit Chengdu at 14:28.");
  const byText = [apart, together];
  assert.deepEqual(
    fuseHybrid([], byText, [5, 5], 2).map((item) => item.id),
    ["q", "p"],
    "no question: order",
  );
  const only = { question, ...PHRASES_ONLY };
  assert.deepEqual(fuseHybrid([], byText, [5, 5], 2, only).map((item) => item.id), ["p", "q"]);
  // The phrases are worth 0.25: they overturn a BM25 lead of 40 % (0.8 · (1 − 5/7) = 0.23), not one of 60 %
  // (0.3).
  assert.equal(PHRASE_WEIGHT, 0.25);
  assert.deepEqual(fuseHybrid([], byText, [7, 5], 2, only).map((item) => item.id), ["p", "q"]);
  assert.deepEqual(fuseHybrid([], byText, [8, 5], 2, only).map((item) => item.id), ["q", "p"]);
  assert.deepEqual(
    fuseHybrid([], byText, [5, 5], 2, { ...only, phraseWeight: 0 }).map((item) => item.id),
    ["q", "p"],
    "a phrase weight of 0 turns it off",
  );
  // Only the best PHRASE_CANDIDATES by the two sides are read: a phrase far down the list stays there.
  const many = Array.from({ length: 30 }, (_, index) => passage(`n${index}`, 0.4, `filler ${index}`));
  many[1] = passage("n1", 0.4, "The Sichuan earthquake hit Chengdu.");
  many[29] = passage("n29", 0.4, "The Sichuan earthquake hit Chengdu.");
  const scores = many.map((_, index) => 100 - index * 0.1);
  // n29, read, would come second (0.8 · 97.1/100 + 0.2 + 0.25 = 1.227 against n0's 1.0).
  assert.equal(PHRASE_CANDIDATES, 20);
  assert.deepEqual(
    fuseHybrid([], many, scores, 4, only).map((item) => item.id),
    ["n1", "n0", "n2", "n3"],
    "a phrase within the head moves up; one past it is not read",
  );
});

Deno.test("sentenceScores: the best sentence's question words, each weighed by its IDF among the candidates", () => {
  const stems = questionStems("Which river did the grey herons nest beside?");
  assert.deepEqual(stems, ["river", "grei", "heron", "nest", "besid"]);
  const texts = [
    "<document_metadata>\nsourceDocument: herons river nest\n</document_metadata>\n\nNothing here.",
    "Herons nest. The river is wide.",
    "The grey herons nest beside the river.",
    "Herons fish.",
  ];
  const scores = sentenceScores(stems, texts, candidateIdf(stems, texts));
  assert.equal(scores[0], 0, "the chunk header is not read");
  // "heron" is in 3 of 4 texts: ln(1 + 4/4); "nest" in 2: ln(1 + 4/3); river, grey, beside: ln(1 + 4/3), ln(1 + 4/2).
  const idf = (df: number) => Math.log(1 + 4 / (1 + df));
  assert.ok(Math.abs(scores[1] - (idf(3) + idf(2))) < 1e-9, "one sentence counts, not the whole chunk");
  assert.ok(Math.abs(scores[2] - (idf(3) + 2 * idf(2) + 2 * idf(1))) < 1e-9);
  assert.ok(Math.abs(scores[3] - idf(3)) < 1e-9);
  assert.deepEqual(sentenceScores([], texts, candidateIdf([], texts)), [0, 0, 0, 0]);
  // The title in the chunk header counts for titleScores only.
  const titles = titleScores(stems, texts, candidateIdf(stems, texts));
  assert.ok(Math.abs(titles[0] - (idf(3) + idf(2) + idf(2))) < 1e-9, "heron, nest and river in the title");
  assert.deepEqual(titles.slice(1), [0, 0, 0]);
});

Deno.test("candidateIdf: texts read before (their stems kept) count as when first read, whatever the question", () => {
  const texts = [
    "<document_metadata>\nsourceDocument: herons\n</document_metadata>\n\nThe river runs.",
    "Herons nest by the river; herons fish.",
    "Granite walls.",
    `${"word ".repeat(30_000)}herons`, // longer than any text kept
  ];
  const idf = (df: number) => Math.log(1 + 4 / (1 + df));
  for (let round = 0; round < 3; round++) {
    const first = candidateIdf(["heron", "river"], texts);
    assert.deepEqual([first("heron"), first("river"), first("granit")], [idf(2), idf(2), idf(0)]);
    const second = candidateIdf(["granit", "nest", "word"], texts);
    assert.deepEqual([second("granit"), second("nest"), second("word"), second("heron")], [
      idf(1),
      idf(1),
      idf(1),
      idf(0),
    ]);
  }
});

Deno.test("fuseHybrid: a chunk holding the question's words in one sentence gains (0.2 by default, 0.25 here)", () => {
  const question = "Which river do the grey herons nest beside?";
  // The same words, BM25 and cosine; only s has them in one sentence (and no two of them side by side in either).
  const spread = passage("a", 0.4, "The grey birds nest. Herons live beside it. The river is wide.");
  const sentence = passage("s", 0.4, "Herons, grey birds, nest beside a wide river.");
  assert.deepEqual(
    fuseHybrid([], [spread, sentence], [5, 5], 2, { question, phraseWeight: 0, sentenceWeight: 0.25 }).map((
      item,
    ) => item.id),
    [
      "s",
      "a",
    ],
  );
  assert.equal(SENTENCE_WEIGHT, 0.2);
  // By default too (the phrases tie: both chunks hold the question's neighbouring words at most 3 apart).
  assert.deepEqual(fuseHybrid([], [spread, sentence], [5, 5], 2, { question }).map((item) => item.id), [
    "s",
    "a",
  ]);
  assert.deepEqual(
    fuseHybrid([], [spread, sentence], [5, 5], 2, { question, sentenceWeight: 0 }).map((item) => item.id),
    ["a", "s"],
  );
  // s gets 0.25, a 0.1 (its best sentence holds 2 of the 5 words, all of equal IDF): s overturns a BM25 lead
  // of 10 % (0.073 of the score), not one of 70 % (0.33).
  assert.deepEqual(
    fuseHybrid([], [spread, sentence], [5.5, 5], 2, { question, phraseWeight: 0, sentenceWeight: 0.25 }).map((
      item,
    ) => item.id),
    ["s", "a"],
  );
  assert.deepEqual(
    fuseHybrid([], [spread, sentence], [8.5, 5], 2, { question, phraseWeight: 0, sentenceWeight: 0.25 }).map((
      item,
    ) => item.id),
    ["a", "s"],
  );
  assert.deepEqual(
    fuseHybrid([], [spread, sentence], [5, 5], 2, { question, phraseWeight: 0, sentenceWeight: 0 }).map((
      item,
    ) => item.id),
    ["a", "s"],
    "a sentence weight of 0 turns it off",
  );
});

Deno.test("fuseHybrid: a chunk whose document title holds the question's words gains up to 0.2", () => {
  const header = (title: string) =>
    `<document_metadata>\nsourceDocument: ${title}\npublished: today\n</document_metadata>\n\n`;
  const question = "When was the Tuple Type added?";
  const other = passage("o", 0.4, header("Arrays") + "A tuple type groups values.");
  const titled = passage("t", 0.4, header("The Tuple Type") + "It groups values of several types.");
  assert.equal(TITLE_WEIGHT, 0.2);
  // The title alone (o holds "tuple type" as a phrase and in a sentence, which would count for it).
  const only = { question, phraseWeight: 0, sentenceWeight: 0 };
  // o leads by BM25 10 % (0.073 of the score): t's title overturns it, not a lead of 70 % (0.33).
  assert.deepEqual(fuseHybrid([], [other, titled], [5.5, 5], 2, only).map((item) => item.id), [
    "t",
    "o",
  ]);
  assert.deepEqual(fuseHybrid([], [other, titled], [8.5, 5], 2, only).map((item) => item.id), [
    "o",
    "t",
  ]);
  assert.deepEqual(
    fuseHybrid([], [other, titled], [5.5, 5], 2, { ...only, titleWeight: 0 }).map((item) => item.id),
    ["o", "t"],
    "a title weight of 0 turns it off",
  );
});

Deno.test("fuseHybrid: no text hits keeps the vector order; ties keep the vector side's order", () => {
  const byVector = [hit("a", 0.5), hit("b", 0.5), hit("c", 0.1)];
  assert.deepEqual(fuseHybrid(byVector, [], [], 10).map((item) => item.id), ["a", "b", "c"]);
  assert.deepEqual(fuseHybrid([], [], [], 10), []);
  // Zero scores everywhere do not divide by zero.
  assert.deepEqual(fuseHybrid([hit("a", 0)], [hit("b", 0)], [0], 10).map((item) => item.id), ["a", "b"]);
  assert.equal(fusionDepth(4), 40);
  assert.equal(fusionDepth(20), 80);
});

Deno.test("answerType: the kind of answer a question's words ask for", () => {
  assert.equal(answerType("When did the Sichuan earthquake hit?"), "date");
  assert.equal(answerType("In what year was the university founded?"), "date");
  assert.equal(answerType("Which century saw the Ming dynasty fall?"), "date");
  assert.equal(answerType("How many students attend Notre Dame?"), "number");
  assert.equal(answerType("What percentage of iPod sales came from Europe?"), "number");
  assert.equal(answerType("Who directed Spectre?"), "person");
  assert.equal(
    answerType("The film was directed by whom?"),
    null,
    "only a question word leading or before a verb",
  );
  assert.equal(answerType("Where did Chopin compose most of his works?"), "place");
  assert.equal(answerType("In which city did Beyoncé grow up?"), "place");
  assert.equal(answerType("What is the Tuple Type?"), null);
  assert.equal(answerType("Can you explain storing utf-8 encoded text with strings?"), null);
});

Deno.test("holdsAnswer: a date, a number, or a capitalised word the question lacks", () => {
  const asked = new Set(["who", "direct", "spectr"]);
  assert.ok(holdsAnswer("date", "It opened in 1842.", asked));
  assert.ok(holdsAnswer("date", "It opened in late March.", asked));
  assert.ok(!holdsAnswer("date", "It opened in the spring.", asked));
  assert.ok(holdsAnswer("number", "Some 12,000 students attend.", asked));
  assert.ok(holdsAnswer("number", "Three hundred students attend.", asked));
  assert.ok(!holdsAnswer("number", "Many students attend.", asked));
  assert.ok(holdsAnswer("person", "The film Spectre was directed by Sam Mendes.", asked));
  // "Spectre" is the question's own word and "The" starts the sentence: no name the question lacks.
  assert.ok(!holdsAnswer("person", "The film Spectre was directed by a newcomer.", asked));
  assert.ok(holdsAnswer("place", "He composed in Nohant.", asked));
});

Deno.test("sentenceFeatures: the best sentence, the best one holding the answer type, and whether the best holds it", () => {
  const question = "When did the herons nest beside the river?";
  const stems = questionStems(question);
  const words = new Set(["when", "did", "the", "heron", "nest", "besid", "river"]);
  const texts = [
    "The herons nest beside the river. They came back in 1998.",
    "In 1998 the herons nested beside the river.",
    "Herons nest here.",
  ];
  const idf = candidateIdf(stems, texts);
  const features = sentenceFeatures(stems, texts, idf, answerType(question), words);
  const all = idf("heron") + idf("nest") + idf("besid") + idf("river");
  assert.ok(Math.abs(features[0].best - all) < 1e-9);
  assert.equal(features[0].typed, 0, "the year is in a sentence without the question's words");
  assert.equal(features[0].holds, false);
  assert.ok(Math.abs(features[1].typed - all) < 1e-9);
  assert.equal(features[1].holds, true);
  assert.deepEqual(features[2], { best: idf("heron") + idf("nest"), typed: 0, holds: false });
  assert.deepEqual(sentenceScores(stems, texts, idf), features.map(({ best }) => best));
  // Without a type nothing is typed.
  assert.ok(
    sentenceFeatures(stems, texts, idf, null, words).every(({ typed, holds }) => typed === 0 && !holds),
  );
});

Deno.test("fuseHybrid: for a question asking for a date, the chunk whose sentence with its words holds one gains", () => {
  const question = "When did the herons nest beside the river?";
  // The same words in one sentence each; only y's sentence holds a year (x's year is in another sentence).
  const x = passage("x", 0.4, "The herons nest beside the river. They came back in 1998.");
  const y = passage("y", 0.4, "In 1998 the herons nest beside the river.");
  assert.equal(TYPED_SENTENCE_WEIGHT, 0.25);
  assert.equal(ANSWER_TYPE_WEIGHT, 0.25);
  // y gains 0.25 + 0.25: it overturns x's BM25 lead of 60 % (0.3 of the score), not one of 200 % (0.53).
  assert.deepEqual(fuseHybrid([], [x, y], [8, 5], 2, { question }).map((item) => item.id), ["y", "x"]);
  assert.deepEqual(fuseHybrid([], [x, y], [15, 5], 2, { question }).map((item) => item.id), ["x", "y"]);
  const untyped = { question, typedSentenceWeight: 0, answerTypeWeight: 0 };
  assert.deepEqual(fuseHybrid([], [x, y], [8, 5], 2, untyped).map((item) => item.id), ["x", "y"]);
  // A question asking for no type leaves them as BM25 has them.
  const why = "Why did the herons nest beside the river?";
  assert.deepEqual(fuseHybrid([], [x, y], [8, 5], 2, { question: why }).map((item) => item.id), ["x", "y"]);
});

Deno.test("fuseHybrid: a question typed without accents finds the words that have them", () => {
  assert.equal(foldAccents("Beyoncé's Frédéric"), "Beyonce's Frederic");
  assert.equal(foldAccents("plain"), "plain");
  const question = "What did Beyonce sing at the Super Bowl?";
  const accented = passage("a", 0.4, "Beyoncé sang at the Super Bowl.");
  const other = passage("o", 0.4, "Beyonce and others sang. The Super Bowl came later.");
  // o leads by BM25 (0.038 of the score). Folded, a's one sentence holds 3 of the question's words (0.2) and o's
  // best 2 (0.13); unfolded, "Beyoncé" is not "beyonce" and the two best sentences weigh the same.
  assert.deepEqual(fuseHybrid([], [other, accented], [5.25, 5], 2, { question }).map((item) => item.id), [
    "a",
    "o",
  ]);
  assert.deepEqual(
    fuseHybrid([], [other, accented], [5.25, 5], 2, { question, foldAccents: false }).map((item) => item.id),
    ["o", "a"],
  );
});

Deno.test("fuseHybridScored: texts read before (their sentences, words and phrases kept) score as when first read, whatever the question", () => {
  // Two stems alike enough for a soft match, both ways.
  const alike = new Map([["nest", new Map([["breed", 0.7]])], ["breed", new Map([["nest", 0.7]])]]);
  const softWords: SoftWords = {
    has: (stem) => alike.has(stem),
    similarity: (a, b) => alike.get(a)?.get(b) ?? 0,
    neighbours: (stem) => alike.get(stem) ?? new Map(),
  };
  const bodies = [
    "Grey herons nest in York. Herons breed by the river Ouse since 1842.",
    "Twelve herons fish in Granite Bay. The bay is cold.",
    "Herons, grey birds, nest beside a wide river. Wardens in Leeds count them in March.",
    "Nothing about birds here. Herons? No.",
  ];
  // Texts differing only in the header's date, which no score reads: a new date is a text never read before.
  let dates = 0;
  const passages = () => {
    const published = `${Date.now()}${++dates}`;
    return bodies.map((body, index) =>
      passage(
        `p${index}`,
        0.5 - index / 10,
        `<document_metadata>\nsourceDocument: Herons of Yorkshire\npublished: ${published}\n</document_metadata>\n\n${body}`,
      )
    );
  };
  const questions = [
    "Where do grey herons nest?",
    "When did herons breed by the Ouse river?",
    "How many herons fish in Granite Bay?",
    "Who counts the grey herons?",
  ];
  const score = (texts: ReturnType<typeof passages>, question: string) =>
    fuseHybridScored(texts, [...texts].reverse(), [1, 2, 3, 4], 2, { question, softWords }).map((
      { item, fused },
    ) => [item.id, fused]);
  const kept = passages();
  for (let round = 0; round < 3; round++) {
    for (const question of questions) {
      assert.deepEqual(score(kept, question), score(passages(), question), question);
    }
  }
});

Deno.test("TextMemo keeps what it made for the texts read lately within its budget of characters", () => {
  const memo = new TextMemo<number>(1_000);
  let made = 0;
  const read = (text: string) => memo.get(text, () => ++made);
  const a = "a".repeat(6), b = "b".repeat(6);
  assert.equal(read(a), 1);
  assert.equal(read(a), 1, "kept");
  assert.equal(read(b), 2);
  assert.equal(memo.size, 12);
  // A text over a hundredth of the budget is made every time and never kept.
  const long = "c".repeat(11);
  assert.equal(read(long), 3);
  assert.equal(read(long), 4);
  assert.equal(memo.size, 12);
  // Filling the budget drops the oldest read first.
  for (let index = 0; index < 200; index++) read(String(index).padStart(5, "x"));
  assert.ok(memo.size <= 1_000, `${memo.size} characters kept`);
  const before = made;
  read(b);
  assert.equal(made, before + 1, "the oldest were dropped");
});
