import { stemOf, STOPWORDS, wordsOf } from "./words.ts";

/**
 * The usual constant of reciprocal rank fusion (Cormack et al. 2009): large enough that the first few ranks of
 * one list do not drown out agreement between the lists.
 */
export const RRF_K = 60;

/** At most this many distinct words of a question go to the full-text search; long pastes stay cheap. */
const MAX_QUERY_TERMS = 64;

export interface Fused<T> {
  item: T;
  /** Σ 1 / (k + rank) over the lists that hold the item (ranks from 1). */
  fused: number;
}

/**
 * Reciprocal rank fusion (the hybrid search's fusion before `fuseHybrid`; the evaluation still reports it) of rankings of the same kind of item, best first. An item in several lists keeps the
 * object of the first list that holds it; ties keep the order of the first list, then the next.
 */
export function reciprocalRankFusion<T>(
  rankings: readonly (readonly T[])[],
  idOf: (item: T) => string,
  k = RRF_K,
): Fused<T>[] {
  const merged = new Map<string, Fused<T> & { order: number }>();
  let order = 0;
  for (const ranking of rankings) {
    ranking.forEach((item, index) => {
      const id = idOf(item);
      const contribution = 1 / (k + index + 1);
      const seen = merged.get(id);
      if (seen) seen.fused += contribution;
      else merged.set(id, { item, fused: contribution, order: order++ });
    });
  }
  return [...merged.values()]
    .sort((a, b) => b.fused - a.fused || a.order - b.order)
    .map(({ item, fused }) => ({ item, fused }));
}

/**
 * The words of a question as a plain full-text query: letters and digits only, so nothing in the message is
 * read as query syntax, each word once, stop words left out (unless the question has nothing else). Question
 * words such as "what" or "did" are rare in chunks, so BM25 would weigh them high and reward any chunk that has
 * them: leaving them out raised BM25's recall@4 from 0.912 to 0.930 (squad-a), 0.850 to 0.863 (squad-b) and
 * 0.575 to 0.645 (Rust book headings). Empty when the question has no word at all.
 */
export function fullTextQuery(text: string): string {
  const words = [...new Set(wordsOf(text))];
  const content = words.filter((word) => !STOPWORDS.has(word));
  return (content.length > 0 ? content : words).slice(0, MAX_QUERY_TERMS).join(" ");
}

/**
 * How deep each side of a hybrid search ranks for `topK` hits: deeper than asked, so a chunk ranked fairly by
 * both sides can win. Past 40 the evaluation (bench/eval) found no chunk that changed the top 10.
 */
export function fusionDepth(topK: number): number {
  return Math.min(1000, Math.max(40, topK * 4));
}

/**
 * The weights of the hybrid score, chosen with `deno task eval` (tuned on squad-a, confirmed on squad-b and the
 * Rust book headings). With the built-in lexical embedder the vectors rank the right passage far lower than
 * BM25 does (recall@4 0.73 against 0.93 on squad-a), so BM25 leads: 0.8 of the score, the cosine 0.2. Scores,
 * not ranks (reciprocal rank fusion lost 4-6 points of recall@4 to BM25 alone), keep how sure each side is.
 *
 * The best candidates by those two are then re-scored with shares added on top (each divided by the best
 * candidate's, except the answer type's 0/1): the phrases (neither side sees word order, and a chunk holding
 * the question's words next to each other answers it more often), the document title, the best sentence, and
 * for a question asking for a date, a number, a person or a place, its answer type (`answerType`). The shares
 * were fitted in the third round of issue 20 (bench/eval/README.md, `bench/eval/rescore_study.ts`): coordinate
 * ascent over a grid (0 to 1) of each share in turn on squad-a, maximising recall@4 + MRR@10 / 2 +
 * recall@1 / 4, refusing any step that lost a Rust heading question at recall@1, @4 or @10 (the headings are a
 * corpus of another kind, where the sentence score alone costs questions). Confirmed on squad-b: recall@4 0.873
 * → 0.882 and recall@1 0.700 → 0.728, squad-a 0.945 → 0.948, the Rust headings unchanged at 0.660.
 */
export const TEXT_WEIGHT = 0.8;
export const PHRASE_WEIGHT = 0.25;
/**
 * The best sentence's share. A question often restates one sentence of the passage that answers it, while BM25
 * and the vectors count the question's words anywhere in the chunk: the sentence of a chunk holding the most of
 * the question's words, each weighed by its IDF among the candidates, scores.
 */
export const SENTENCE_WEIGHT = 0.2;
/**
 * The share of the best sentence among those holding an answer of the type the question asks for (a year for
 * "when", a number for "how many", a capitalised name the question lacks for "who" and "where"): the answer
 * sits next to the question's words in the passage that holds it (classic answer-type matching of QA passage
 * retrieval). 0 for questions without an answer type.
 */
export const TYPED_SENTENCE_WEIGHT = 0.25;
/** Added (not divided) when the chunk's best sentence itself holds an answer of the type asked for. */
export const ANSWER_TYPE_WEIGHT = 0.25;
/**
 * The title's share: the question stems the chunk's document title holds (its chunk header's
 * `sourceDocument`), by IDF among the candidates. A question that names a document's subject ("the Beyoncé
 * tour", "the Tuple Type") finds that document's chunks, which BM25 over the whole chunk text weighs no more
 * than any other mention. 0.2 raised squad-b's recall@4 from 0.863 to 0.873 and the Rust headings' recall@1
 * from 0.345 to 0.385 (second round); 0.4 gains squad-b more but loses Rust headings (bench/eval/README.md).
 */
export const TITLE_WEIGHT = 0.2;
/**
 * The share of its IDF that a word form related to a question word ("marriage" for "marry", "France" for
 * "French", "sell" for "sold": word_forms.ts, from WordNet) counts for in the best sentence and title scores. 0:
 * off by default. Issue 20's fourth round (bench/eval/README.md) measured 0.25-0.5 within two questions of 400
 * either way on every set; 0.5 gained a question on each SQuAD set at recall@4 but lost one of the Rust headings
 * at recall@10, so by the rule of the earlier rounds it is not the default.
 */
export const RELATED_SHARE = 0;
/**
 * The soft matches' share (issue 20, fifth round): each question stem missing from a chunk counts by its IDF
 * times its best likeness (the cosine of GloVe word vectors, soft_words.ts) to one of the chunk's stems, when
 * that is at least `SOFT_THRESHOLD` ("budget" for "money", "wedding" for "marry", "font" for "typeface"). With
 * `SOFT_SENTENCE_SHARE` in the best sentence score too, tuned on squad-a and confirmed on squad-b and the Rust
 * headings (bench/eval/README.md, `bench/eval/soft_study.ts`): squad-b recall@4 0.882 → 0.895 and recall@1
 * 0.728 → 0.748, the Rust headings' recall@4 0.660 → 0.675, nothing lost on any set at recall@1/4/10.
 */
export const SOFT_WEIGHT = 0.2;
/** The least likeness of two words' vectors that counts as a soft match (0.5 and 0.7 did worse). */
export const SOFT_THRESHOLD = 0.6;
/** The share of its IDF a soft match counts for in the best sentence score, times its likeness (0: off). */
export const SOFT_SENTENCE_SHARE = 0.25;
/** The phrase score is read for this many of the best candidates by the two sides (at least twice `topK`). */
export const PHRASE_CANDIDATES = 20;
/** Two question words count as a phrase in a chunk when at most this many positions apart (a stop word between). */
export const PHRASE_WINDOW = 3;

/** Cosine likeness of Porter stems' word vectors (soft_words.ts has the shipped table). */
export interface SoftWords {
  has(stem: string): boolean;
  /** The likeness of two stems; 0 when either is not in the table or they are less alike than its floor. */
  similarity(a: string, b: string): number;
  /**
   * The stems like `stem` (its nearest neighbours: likeness at least the table's floor, which is at most
   * `SOFT_THRESHOLD`), with their likeness; empty when the table lacks it. A search looks up its question's
   * stems so, rather than comparing each of its chunks' stems with them.
   */
  neighbours(stem: string): ReadonlyMap<string, number>;
}

export interface FusionOptions {
  /** The BM25 side's share in [0, 1]; the vector side gets the rest. */
  textWeight?: number;
  /** The phrase score's share, added to the two sides' (0 turns it off). */
  phraseWeight?: number;
  /** The best sentence's share, added too (0 turns it off). */
  sentenceWeight?: number;
  /** The share of the question words in the chunk's document title, added too (0 turns it off). */
  titleWeight?: number;
  /** The best sentence holding an answer of the type asked for, added too (0 turns it off). */
  typedSentenceWeight?: number;
  /** Added when the best sentence holds an answer of the type asked for (0 turns it off). */
  answerTypeWeight?: number;
  /** Whether accents are ignored when the question's words are looked for in the chunks (default: yes). */
  foldAccents?: boolean;
  /**
   * Word forms related to the question's words ("marriage" for "marry": word_forms.ts), counted in the best
   * sentence and title scores at `relatedShare` of their IDF (none by default).
   */
  relatedForms?: readonly string[];
  /** The share of its IDF a related form counts for there (0 turns them off; default `RELATED_SHARE`). */
  relatedShare?: number;
  /** Word vectors for soft matches (soft_words.ts); without them there are none. */
  softWords?: SoftWords;
  /** The soft matches' share (0 turns it off; default `SOFT_WEIGHT`). */
  softWeight?: number;
  /** The least likeness that counts (default `SOFT_THRESHOLD`). */
  softThreshold?: number;
  /** Soft matches in the best sentence score, at this share of their IDF times their likeness (0 turns it off). */
  softSentenceShare?: number;
  /** The question; without it there is no phrase score. */
  question?: string;
}

/**
 * The phrase pairs of a question: each content word's stem with the next content word's, in order (stop words
 * between them are skipped). "When did the Sichuan earthquake hit Chengdu?" → sichuan·earthquak,
 * earthquak·hit, hit·chengdu.
 */
export function phrasePairs(question: string): [string, string][] {
  const stems = wordsOf(question).filter((word) => !STOPWORDS.has(word)).map(stemOf);
  const pairs: [string, string][] = [];
  for (let index = 0; index + 1 < stems.length; index++) pairs.push([stems[index], stems[index + 1]]);
  return pairs;
}

const WORD_CHARACTER = /[\p{L}\p{N}]/u;
/** A gap between two words longer than this holds more than `PHRASE_WINDOW` words: not counted. */
const MAX_GAP_CHARACTERS = 120;

/**
 * How many of the pairs appear in the text with their stems at most `PHRASE_WINDOW` words apart. The text is
 * not split into words (a search scores some 80 chunks): each stem is looked for as a substring, and only the
 * words it starts are stemmed. The probe leaves out the stem's last letter, which Porter may have changed
 * ("happy" → "happi").
 */
export function phraseMatches(pairs: readonly [string, string][], text: string): number {
  if (pairs.length === 0) return 0;
  const read = headTextOf(text);
  const lower = read.lower ??= text.normalize("NFKC").toLowerCase();
  const found = new Map<string, readonly Place[]>();
  for (const stem of new Set(pairs.flat())) found.set(stem, placesOf(read, lower, stem));
  const near = (a: Place, b: Place) => {
    const [first, second] = a.start < b.start ? [a, b] : [b, a];
    if (first.start === second.start || second.start - first.end > MAX_GAP_CHARACTERS) return false;
    const between = lower.slice(first.end, second.start).match(/[\p{L}\p{N}]+/gu)?.length ?? 0;
    return between < PHRASE_WINDOW;
  };
  let matches = 0;
  for (const [first, second] of pairs) {
    const from = found.get(first) ?? [];
    const to = found.get(second) ?? [];
    if (from.some((a) => to.some((b) => near(a, b)))) matches++;
  }
  return matches;
}

interface Place {
  start: number;
  end: number;
}

/** The most stems whose places one text keeps: a text that comes back for many questions starts again. */
const MAX_PLACES_KEPT = 64;

/**
 * Where the words of `stem` are in `lower` (the text, NFKC and lower case): each stem is looked for as a
 * substring, and only the words it starts are stemmed. The probe leaves out the stem's last letter, which Porter
 * may have changed ("happy" → "happi"). Kept with the text: the question words of a workspace come back.
 */
function placesOf(read: HeadText, lower: string, stem: string): readonly Place[] {
  const kept = read.places?.get(stem);
  if (kept) return kept;
  const probe = stem.length > 3 ? stem.slice(0, -1) : stem;
  const places: Place[] = [];
  for (let at = lower.indexOf(probe); at >= 0; at = lower.indexOf(probe, at + 1)) {
    if (at > 0 && WORD_CHARACTER.test(lower[at - 1])) continue;
    let end = at + probe.length;
    while (end < lower.length && WORD_CHARACTER.test(lower[end])) end++;
    if (stemOf(lower.slice(at, end)) === stem) places.push({ start: at, end });
  }
  read.places ??= new Map();
  if (read.places.size >= MAX_PLACES_KEPT) read.places.clear();
  read.places.set(stem, places);
  return places;
}

/** One sentence of a chunk as the best sentence score reads it, with what it holds kept once looked for. */
interface SentenceRead {
  text: string;
  /** Its words' distinct stems, in the order they first appear. */
  stems: readonly string[];
  date?: boolean;
  number?: boolean;
  /** The stems of its capitalised words, its first word left out (`holdsAnswer`). */
  names?: readonly string[];
}

/**
 * What the re-scoring of the best candidates reads of a chunk text, kept while the text is recent: a workspace's
 * chunks come back search after search, and splitting 20 texts into sentences, words and stems again took most
 * of the fusion's time and memory (issue 21: 1.1 MB allocated of a chat's 2.6). Each part is read when first
 * needed; all are functions of the text alone.
 */
interface HeadText {
  sentences?: readonly SentenceRead[];
  /** The text NFKC and lower-cased (the phrase score's). */
  lower?: string;
  /** Where each stem asked for so far is in `lower` (`placesOf`). */
  places?: Map<string, readonly Place[]>;
  /** The stems of the document title in the chunk header (`titleScores`). */
  title?: ReadonlySet<string>;
}

/**
 * Values made from texts, kept for the texts read lately within a budget of characters, the oldest read leaving
 * first; a text longer than a hundredth of the budget is made again every time.
 */
export class TextMemo<V> {
  private readonly kept = new Map<string, V>();
  private characters = 0;

  constructor(private readonly budget: number) {}

  /** Characters of the texts kept now (at most the budget). */
  get size(): number {
    return this.characters;
  }

  /** The value kept for `text` (now the newest read), else `make()`'s, kept when the text is short enough. */
  get(text: string, make: () => V): V {
    const kept = this.kept.get(text);
    if (kept !== undefined) {
      this.kept.delete(text);
      this.kept.set(text, kept);
      return kept;
    }
    const value = make();
    if (text.length > this.budget / 100) return value;
    for (const [oldest] of this.kept) {
      if (this.characters + text.length <= this.budget) break;
      this.kept.delete(oldest);
      this.characters -= oldest.length;
    }
    this.kept.set(text, value);
    this.characters += text.length;
    return value;
  }
}

/**
 * The best candidates' texts read lately: at most 500,000 characters of texts (some 500 chunks, about 3 MB with
 * what is kept of them). A longer text is read every time.
 */
const headTexts = new TextMemo<HeadText>(500_000);

function headTextOf(text: string): HeadText {
  return headTexts.get(text, () => ({}));
}

/** The sentences of a chunk's body (its header left out), each with its distinct stems. */
function sentencesOf(text: string): readonly SentenceRead[] {
  const read = headTextOf(text);
  return read.sentences ??= text.replace(METADATA_BLOCK, "").split(SENTENCE_END).map((sentence) => ({
    text: sentence,
    stems: [...new Set(wordsOf(sentence).map(stemOf))],
  }));
}

const METADATA_BLOCK = /<document_metadata>[\s\S]*?<\/document_metadata>/;
const SENTENCE_END = /(?<=[.!?])\s+|\n+/;

/** The distinct content-word stems of a question. */
export function questionStems(question: string): string[] {
  return [...new Set(wordsOf(question).filter((word) => !STOPWORDS.has(word)).map(stemOf))];
}

/**
 * The IDF of each question stem among the candidates: `ln(1 + n / (1 + df))` over the n texts of `pool` (the
 * search's candidates: no corpus statistics are needed). Chunk headers (`<document_metadata>`) are not read.
 */
export function candidateIdf(stems: readonly string[], pool: readonly string[]): (stem: string) => number {
  const wanted = new Set(stems);
  const df = new Map<string, number>();
  for (const text of pool) {
    // The body's stems are distinct: each wanted one counts once per text.
    for (const stem of distinctBodyStems(text)) if (wanted.has(stem)) df.set(stem, (df.get(stem) ?? 0) + 1);
  }
  return (stem) => Math.log(1 + pool.length / (1 + (df.get(stem) ?? 0)));
}

/**
 * The distinct stems of each chunk text read lately (its body, without the chunk header): a workspace's chunks
 * come back search after search, and reading the words of the 80 candidates again took most of the fusion's
 * time (issue 21). At most 2,000,000 characters of texts are kept (about 2 MB); the oldest read leaves first.
 */
const bodyStemsRead = new TextMemo<readonly string[]>(2_000_000);

function distinctBodyStems(text: string): readonly string[] {
  return bodyStemsRead.get(text, () => [...new Set(wordsOf(text.replace(METADATA_BLOCK, "")).map(stemOf))]);
}

/** For each text, its best sentence's weight: the sum of the IDFs of the question stems the sentence holds. */
export function sentenceScores(
  stems: readonly string[],
  texts: readonly string[],
  idf: (stem: string) => number,
) {
  return sentenceFeatures(stems, texts, idf, null).map(({ best }) => best);
}

/** The kind of answer a question asks for, when its question words say it: a date, a number, a person, a place. */
export type AnswerType = "date" | "number" | "person" | "place";

const ASKS_DATE =
  /\b(what|which) (year|century|decade|date|day|month|era|period)\b|^when\b|\bwhen (did|was|were|is|does|do|had|has|will)\b/;
const ASKS_NUMBER =
  /\bhow (many|much|long|far|old|large|big|tall|high|often|fast|wide|deep|heavy)\b|\bwhat (percentage|percent|number|amount|proportion|fraction|age)\b/;
const ASKS_PERSON =
  /^(who|whom|whose)\b|\b(who|whom|whose) (was|is|were|did|does|had|has|wrote|made|created|won|led|became|played|founded|directed|designed)\b/;
const ASKS_PLACE =
  /^where\b|\bwhere (did|was|were|is|does|do|are)\b|\b(what|which) (city|country|state|place|region|town|county|continent|nation|island|location|province)\b/;

/** The answer type of a question (English question words), or null when it asks for none of them. */
export function answerType(question: string): AnswerType | null {
  const text = question.toLowerCase();
  if (ASKS_DATE.test(text)) return "date";
  if (ASKS_NUMBER.test(text)) return "number";
  if (ASKS_PERSON.test(text)) return "person";
  if (ASKS_PLACE.test(text)) return "place";
  return null;
}

const DATE =
  /\b(1[0-9]{3}|20[0-9]{2})s?\b|\b(january|february|march|april|may|june|july|august|september|october|november|december)\b|\bcentury\b|\b[0-9]{1,2}(st|nd|rd|th)\b|\b(bc|ad|bce)\b/i;
const NUMBER =
  /\b[0-9][0-9,.]*\b|\b(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred|thousand|million|billion|dozen|half|percent)\b/i;
const NAME_WORD = /[\p{L}][\p{L}'’-]*/gu;

/**
 * Whether a sentence holds an answer of the type: a year, month or century for a date, a figure or number word
 * for a number, a capitalised word (not the sentence's first) whose stem the question lacks for a person or a
 * place. `questionStems` are the stems of all the question's words.
 */
export function holdsAnswer(type: AnswerType, sentence: string, questionStems: ReadonlySet<string>): boolean {
  if (type === "date") return DATE.test(sentence);
  if (type === "number") return NUMBER.test(sentence);
  const words = sentence.match(NAME_WORD) ?? [];
  return words.some((word, index) =>
    index > 0 && /^\p{Lu}/u.test(word) && !questionStems.has(stemOf(word.toLowerCase()))
  );
}

/** `holdsAnswer` of a sentence read before: what it holds is looked for once. */
function sentenceHoldsAnswer(type: AnswerType, sentence: SentenceRead, questionStems: ReadonlySet<string>) {
  if (type === "date") return sentence.date ??= DATE.test(sentence.text);
  if (type === "number") return sentence.number ??= NUMBER.test(sentence.text);
  sentence.names ??= (sentence.text.match(NAME_WORD) ?? []).flatMap((word, index) =>
    index > 0 && /^\p{Lu}/u.test(word) ? [stemOf(word.toLowerCase())] : []
  );
  return sentence.names.some((stem) => !questionStems.has(stem));
}

/**
 * For each text, in one pass over its sentences: `best`, its best sentence's weight (the sum of the IDFs of the
 * question stems the sentence holds); `typed`, the best weight among the sentences holding an answer of `type`;
 * `holds`, whether the best sentence (the first of the best) holds one. Without a type, `typed` is 0 and `holds`
 * false.
 */
export function sentenceFeatures(
  stems: readonly string[],
  texts: readonly string[],
  idf: (stem: string) => number,
  type: AnswerType | null,
  questionWords: ReadonlySet<string> = new Set(),
  softOf?: (stem: string) => ReadonlyMap<string, number> | undefined,
) {
  const wanted = new Set(stems);
  return texts.map((text) => {
    let best = 0;
    let typed = 0;
    let holds = false;
    for (const sentence of sentencesOf(text)) {
      let weight = 0;
      // The question stems the sentence holds (its stems are distinct, each counted once, in their order).
      let seen: Set<string> | undefined;
      let soft: Map<string, number> | undefined;
      for (const stem of sentence.stems) {
        if (wanted.has(stem)) {
          (seen ??= new Set()).add(stem);
          weight += idf(stem);
        } else if (softOf) {
          // A stem's likenesses are the same at each of its words: its first decides.
          for (const [question, value] of softOf(stem) ?? []) {
            const prior = (soft ??= new Map()).get(question);
            if (prior === undefined || value > prior) soft.set(question, value);
          }
        }
      }
      if (soft) { for (const [question, value] of soft) if (!seen?.has(question)) weight += value; }
      // A sentence without the question's words changes neither score: its answers are not looked for.
      const answers = weight > 0 && type !== null && sentenceHoldsAnswer(type, sentence, questionWords);
      if (weight > best) {
        best = weight;
        holds = answers;
      }
      if (answers) typed = Math.max(typed, weight);
    }
    return { best, typed, holds };
  });
}

/** The text with its accents taken off ("Beyoncé" → "Beyonce"), as people often type names. */
export function foldAccents(text: string): string {
  return NON_ASCII.test(text) ? text.normalize("NFKD").replace(/\p{M}+/gu, "") : text;
}
// deno-lint-ignore no-control-regex
const NON_ASCII = /[^\x00-\x7f]/;

/**
 * The soft matches of a question's stems among texts: for each stem of a text (its body), the question stems
 * the table knows that the stem is like (likeness at least `threshold`), with that likeness; undefined for the
 * question's own stems. The question stems' neighbours are looked up once per search (a few hundred stems),
 * and each stem of the chunks is then one lookup: comparing the vectors of the 20 best candidates' 900 or so
 * stems with the question's cost 1.5-2.7 ms a search.
 */
export function softMatcher(stems: readonly string[], words: SoftWords, threshold: number) {
  const own = new Set(stems);
  // The question stems' neighbours, turned around: for each neighbour, the question stems it is like.
  const like = new Map<string, Map<string, number>>();
  for (const question of own) {
    for (const [stem, likeness] of words.neighbours(question)) {
      if (likeness < threshold || own.has(stem)) continue;
      let matches = like.get(stem);
      if (!matches) like.set(stem, matches = new Map());
      matches.set(question, likeness);
    }
  }
  return (stem: string): ReadonlyMap<string, number> | undefined => like.get(stem);
}

/**
 * For each text, the sum over the question stems it lacks of their IDF times their best soft match among the
 * text's stems (`softMatcher`): a translation-style coverage of what BM25 cannot see.
 */
export function softScores(
  stems: readonly string[],
  texts: readonly string[],
  idf: (stem: string) => number,
  matches: (stem: string) => ReadonlyMap<string, number> | undefined,
) {
  return texts.map((text) => {
    const body = distinctBodyStems(text);
    const best = new Map<string, number>();
    for (const stem of body) {
      for (const [question, likeness] of matches(stem) ?? []) {
        if (likeness > (best.get(question) ?? 0)) best.set(question, likeness);
      }
    }
    if (best.size === 0) return 0;
    const present = new Set(body);
    let score = 0;
    for (const stem of stems) {
      const likeness = best.get(stem);
      if (likeness !== undefined && !present.has(stem)) score += idf(stem) * likeness;
    }
    return score;
  });
}

/** For each chunk text, the sum of the IDFs of the question stems its document's title holds (chunk header). */
export function titleScores(
  stems: readonly string[],
  texts: readonly string[],
  idf: (stem: string) => number,
) {
  return texts.map((text) => {
    const read = headTextOf(text);
    const words = read.title ??= new Set(
      wordsOf(/^sourceDocument: (.*)$/m.exec(METADATA_BLOCK.exec(text)?.[0] ?? "")?.[1] ?? "").map(stemOf),
    );
    return stems.reduce((sum, stem) => sum + (words.has(stem) ? idf(stem) : 0), 0);
  });
}

/**
 * The stems of related word forms (word_forms.ts) that the question's own stems lack, and how their IDF is
 * weighed: `share` of it, so that "death" counts for "die" in the sentence and title scores, less than "die"
 * itself would. Null when there are none or `share` is 0.
 */
export function relatedStems(stems: readonly string[], forms: readonly string[], share: number) {
  if (share <= 0 || forms.length === 0) return null;
  const own = new Set(stems);
  const related = new Set(
    forms.map((form) => stemOf(foldAccents(form.toLowerCase()))).filter((stem) => !own.has(stem)),
  );
  if (related.size === 0) return null;
  return {
    stems: [...related],
    weigh: (idf: (stem: string) => number) => (stem: string) =>
      related.has(stem) ? share * idf(stem) : idf(stem),
  };
}

/**
 * The hybrid ranking of a vector ranking and a BM25 ranking of the same chunks, cut to `topK`: each candidate
 * scores `w · bm25 / max bm25 + (1 − w) · cosine / max cosine`, where a chunk the BM25 side did not find has
 * BM25 0 and every chunk has its cosine similarity (`hit.score`, which text hits carry too). The best
 * `PHRASE_CANDIDATES` then gain `p · phrases / max phrases + t · title / max title + s · sentence / max sentence`,
 * and for a question with an answer type `y · typed sentence / max typed sentence + a · [best sentence holds
 * one]`, the question and the chunks read with their accents folded. The items keep their `score` (the
 * similarity the threshold judges). Ties keep the vector side's order, then the text side's.
 */
export function fuseHybrid<T extends { id: string; score: number; text?: string }>(
  byVector: readonly T[],
  byText: readonly T[],
  textScores: readonly number[],
  topK: number,
  options: FusionOptions = {},
): T[] {
  return fuseHybridScored(byVector, byText, textScores, topK, options).slice(0, topK).map(({ item }) => item);
}

/**
 * `fuseHybrid`'s candidates with their hybrid scores, best first: every candidate of the two sides (the first
 * `max(PHRASE_CANDIDATES, 2 · topK)` re-scored by the shares), not cut to `topK`. The evaluation's studies
 * (bench/eval/round7_study.ts) add shares of their own to these scores.
 */
export function fuseHybridScored<T extends { id: string; score: number; text?: string }>(
  byVector: readonly T[],
  byText: readonly T[],
  textScores: readonly number[],
  topK: number,
  options: FusionOptions = {},
): { item: T; fused: number }[] {
  const textWeight = options.textWeight ?? TEXT_WEIGHT;
  const phraseWeight = options.phraseWeight ?? PHRASE_WEIGHT;
  const sentenceWeight = options.sentenceWeight ?? SENTENCE_WEIGHT;
  const titleWeight = options.titleWeight ?? TITLE_WEIGHT;
  const typedWeight = options.typedSentenceWeight ?? TYPED_SENTENCE_WEIGHT;
  const answerWeight = options.answerTypeWeight ?? ANSWER_TYPE_WEIGHT;
  const fold = (options.foldAccents ?? true) ? foldAccents : (text: string) => text;
  const candidates = new Map<string, { item: T; bm25: number; order: number }>();
  for (const item of byVector) {
    if (!candidates.has(item.id)) {
      candidates.set(item.id, { item, bm25: 0, order: candidates.size });
    }
  }
  byText.forEach((item, index) => {
    const bm25 = Math.max(0, Number(textScores[index]) || 0);
    const seen = candidates.get(item.id);
    if (seen) seen.bm25 = Math.max(seen.bm25, bm25);
    else candidates.set(item.id, { item, bm25, order: candidates.size });
  });
  let maxText = 0;
  let maxVector = 0;
  for (const candidate of candidates.values()) {
    maxText = Math.max(maxText, candidate.bm25);
    maxVector = Math.max(maxVector, candidate.item.score);
  }
  const scored = [...candidates.values()].map((candidate) => ({
    ...candidate,
    fused: (maxText > 0 ? textWeight * candidate.bm25 / maxText : 0) +
      (maxVector > 0 ? (1 - textWeight) * candidate.item.score / maxVector : 0),
  })).sort((a, b) => b.fused - a.fused || a.order - b.order);
  // The shares below reorder the best of the two sides only: reading every candidate's text cost 4 times more.
  const question = options.question ? fold(options.question) : "";
  const pairs = phraseWeight > 0 && question ? phrasePairs(question) : [];
  const type = typedWeight > 0 || answerWeight > 0 ? answerType(question) : null;
  const readsSentences = sentenceWeight > 0 || type !== null;
  const softWeight = options.softWords ? options.softWeight ?? SOFT_WEIGHT : 0;
  const softShare = options.softWords ? options.softSentenceShare ?? SOFT_SENTENCE_SHARE : 0;
  const stems = (readsSentences || titleWeight > 0 || softWeight > 0) && question
    ? questionStems(question)
    : [];
  if (pairs.length > 0 || stems.length > 0) {
    const head = scored.slice(0, Math.max(PHRASE_CANDIDATES, 2 * topK));
    const add = (values: number[], weight: number, divide = true) => {
      const max = divide ? Math.max(0, ...values) : 1;
      if (max > 0) head.forEach((candidate, index) => (candidate.fused += weight * values[index] / max));
    };
    const texts = (list: typeof scored) => list.map((candidate) => fold(candidate.item.text ?? ""));
    const headTexts = texts(head);
    if (pairs.length > 0) add(headTexts.map((text) => phraseMatches(pairs, text)), phraseWeight);
    if (stems.length > 0) {
      const related = relatedStems(stems, options.relatedForms ?? [], options.relatedShare ?? RELATED_SHARE);
      const counted = related ? [...stems, ...related.stems] : stems;
      const poolIdf = candidateIdf(counted, [...headTexts, ...texts(scored.slice(head.length))]);
      const idf = related ? related.weigh(poolIdf) : poolIdf;
      const soft = (softWeight > 0 || softShare > 0) && options.softWords
        ? softMatcher(stems, options.softWords, options.softThreshold ?? SOFT_THRESHOLD)
        : undefined;
      if (soft && softWeight > 0) add(softScores(stems, headTexts, idf, soft), softWeight);
      if (readsSentences) {
        const questionWords = new Set(wordsOf(question).map(stemOf));
        const weighed = new Map<string, ReadonlyMap<string, number> | undefined>();
        const softOf = soft && softShare > 0
          ? (stem: string) => {
            if (weighed.has(stem)) return weighed.get(stem);
            const found = soft(stem);
            const values = found &&
              new Map([...found].map(([q, likeness]) => [q, softShare * likeness * idf(q)]));
            weighed.set(stem, values);
            return values;
          }
          : undefined;
        const sentences = sentenceFeatures(counted, headTexts, idf, type, questionWords, softOf);
        if (sentenceWeight > 0) add(sentences.map(({ best }) => best), sentenceWeight);
        if (type !== null) {
          if (typedWeight > 0) add(sentences.map(({ typed }) => typed), typedWeight);
          if (answerWeight > 0) add(sentences.map(({ holds }) => (holds ? 1 : 0)), answerWeight, false);
        }
      }
      if (titleWeight > 0) add(titleScores(counted, headTexts, idf), titleWeight);
    }
    head.sort((a, b) => b.fused - a.fused || a.order - b.order);
    scored.splice(0, head.length, ...head);
  }
  return scored;
}
