// How far a test's question stays from the similarity threshold, whatever the time its document was uploaded.
//
// A chunk's header holds its upload time ("published: 11/26/2026, 5:45:33 PM", chunkHeader), and the built-in
// lexical embedder embeds the header with the text: the words of the time and date move a question's cosine with
// the chunk ("Capital?" against one sentence about Freedonia: from 0.14 to 0.40). A test that uploads a
// document and expects a search to find it, or not, under a threshold must keep its cosine away from that
// threshold at every time of day and date. lexical_margins_test.ts checks the tests' pairs (lexical_pairs.ts)
// with a coarse search of the upload times; scripts/lexical_margins.ts runs the fine one.
import { embedLexical } from "../providers/embedders/native.ts";
import { chunkHeader } from "../documents/chunker.ts";

/** A chunk as a test stores it: its document's title (and link source), and its text after the header. */
export interface TimedChunk {
  title: string;
  chunkSource?: string;
  text: string;
}

/** What the test expects of the chunk: that the search finds it, or that it leaves it out. */
export type Expectation = "found" | "missed";

/** A test's question and one of the chunks its search meets, under a similarity threshold. */
export interface LexicalPair {
  /** The test file (repository-relative) that asks `query`; the guard checks it still does. */
  test: string;
  query: string;
  chunk: TimedChunk;
  threshold: number;
  expect: Expectation;
  /** The file whose source holds the chunk's text when it is not `test` (a shared fixture). */
  from?: string;
  /** What of the chunk's text its source spells out, when not each of its lines (a template's text). */
  quoted?: string[];
}

/** The smallest distance kept between a pair's cosine and its threshold. */
export const MIN_MARGIN = 0.05;

const DAY_MS = 86_400_000;

/** toLocaleString("en-US")'s fields, in UTC, made once (toLocaleString makes a formatter on each call). */
const UTC_LOCALE_STRING = new Intl.DateTimeFormat("en-US", {
  timeZone: "UTC",
  year: "numeric",
  month: "numeric",
  day: "numeric",
  hour: "numeric",
  minute: "2-digit",
  second: "2-digit",
});

/**
 * The header's `published` for an instant, as the server writes it (`new Date().toLocaleString("en-US")`), read
 * in UTC: every string a server writes in any time zone is one UTC instant's string.
 */
export function publishedAt(instant: number): string {
  return UTC_LOCALE_STRING.format(instant);
}

/** The chunk's text as the embedder sees it when uploaded at `published`. */
export function chunkTextAt(chunk: TimedChunk, published: string): string {
  return chunkHeader({ title: chunk.title, published, chunkSource: chunk.chunkSource }) + chunk.text;
}

function cosine(a: number[], b: number[]): number {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let index = 0; index < a.length; index++) {
    dot += a[index] * b[index];
    normA += a[index] * a[index];
    normB += b[index] * b[index];
  }
  return dot / Math.sqrt(normA * normB);
}

/** The lowest and highest cosine of a question with a chunk over upload times, and the times that gave them. */
export interface CosineRange {
  min: number;
  max: number;
  minAt: string;
  maxAt: string;
  /** How many upload times were tried. */
  count: number;
}

/** Tries upload times one by one and keeps the lowest and highest cosine seen. */
class RangeFinder {
  private readonly asked: number[];
  readonly range: CosineRange = { min: Infinity, max: -Infinity, minAt: "", maxAt: "", count: 0 };

  constructor(query: string, private readonly chunk: TimedChunk) {
    this.asked = embedLexical(query);
  }

  /** The cosine with the chunk uploaded at `instant` (milliseconds since the epoch). */
  at(instant: number): number {
    const published = publishedAt(instant);
    const similarity = cosine(this.asked, embedLexical(chunkTextAt(this.chunk, published)));
    const range = this.range;
    range.count++;
    if (similarity < range.min) {
      range.min = similarity;
      range.minAt = published;
    }
    if (similarity > range.max) {
      range.max = similarity;
      range.maxAt = published;
    }
    return similarity;
  }
}

/** The cosine range of `query` with `chunk` uploaded at each of `instants` (milliseconds since the epoch). */
export function cosineRange(query: string, chunk: TimedChunk, instants: Iterable<number>): CosineRange {
  const finder = new RangeFinder(query, chunk);
  for (const instant of instants) finder.at(instant);
  return finder.range;
}

/** How far the pair's cosine stays on the expected side of its threshold: negative when it crosses. */
export function marginOf(
  range: Pick<CosineRange, "min" | "max">,
  threshold: number,
  expect: Expectation,
): number {
  return expect === "found" ? range.min - threshold : threshold - range.max;
}

/** Midnight (UTC) of the day `instant` falls in. */
export function dayOf(instant: number): number {
  return Math.floor(instant / DAY_MS) * DAY_MS;
}

/** Every second of the day that starts at `day` (midnight UTC). */
export function* everySecondOf(day: number): Generator<number> {
  for (let second = 0; second < 86_400; second++) yield day + second * 1000;
}

/** Every date of the years `from` to `to` (inclusive), at each of `secondsOfDay`. */
export function* everyDateOf(from: number, to: number, secondsOfDay: number[]): Generator<number> {
  for (let day = Date.UTC(from, 0, 1); day < Date.UTC(to + 1, 0, 1); day += DAY_MS) {
    for (const second of secondsOfDay) yield day + second * 1000;
  }
}

/**
 * `count` upload times spread over the dates of the years `from` to `to` and the seconds of the day. The dates
 * and the seconds step by primes, so the sample meets every hour, minute, second, month and day of the month;
 * three times in four, the time repeats numbers of the date or of itself (5/24/2027, 5:45:45 PM): a word met
 * twice weighs more than two words (its count's logarithm), which moves the cosine furthest.
 */
export function* sampleOfYears(from: number, to: number, count: number): Generator<number> {
  const start = Date.UTC(from, 0, 1);
  const days = Math.round((Date.UTC(to + 1, 0, 1) - start) / DAY_MS);
  for (let index = 0; index < count; index++) {
    const day = start + ((index * 89) % days) * DAY_MS;
    const date = new Date(day);
    const spread = (index * 7_919 + 3_607) % 86_400;
    let hour = Math.floor(spread / 3600);
    let minute = Math.floor(spread / 60) % 60;
    let second = spread % 60;
    const kind = index % 4;
    // The month as the hour (am or pm), the day of the month as the minute, the minute as the second.
    if (kind === 1 || kind === 3) hour = (date.getUTCMonth() + 1) % 12 + (index % 8 < 4 ? 0 : 12);
    if (kind === 2 || kind === 3) minute = date.getUTCDate();
    if (kind !== 0) second = minute;
    yield day + ((hour * 60 + minute) * 60 + second) * 1000;
  }
}

/** The lowest and highest dates or seconds of a list of tried upload times. */
function extremes<T>(tried: { at: T; similarity: number }[], count: number): T[] {
  const sorted = [...tried].sort((a, b) => a.similarity - b.similarity);
  return [...sorted.slice(0, count), ...sorted.slice(-count)].map((entry) => entry.at);
}

/**
 * The cosine range of `query` with `chunk` over the seconds of the day and the dates of the years `from` to
 * `to`, searched rather than tried one by one (each year has 31.5 million upload times): every `step`-th second
 * of `day` (the first of January of `from` unless given), then every date at the `times` (4) lowest and the
 * `times` highest of those seconds, then every `step`-th second of the lowest and the highest dates, and
 * `samples` times of sampleOfYears. The date's and the time's words are features of their own, so the worst seconds of
 * one day are mostly the worst of the others, up to the words they share and hash collisions, which the
 * sample's repeated numbers look for.
 */
export function sweepRange(
  query: string,
  chunk: TimedChunk,
  options: { from: number; to: number; day?: number; step?: number; times?: number; samples?: number },
): CosineRange {
  const finder = new RangeFinder(query, chunk);
  const step = options.step ?? 1;
  const secondsOf = (day: number) => {
    const tried: { at: number; similarity: number }[] = [];
    for (let second = 0; second < 86_400; second += step) {
      tried.push({ at: second, similarity: finder.at(day + second * 1000) });
    }
    return tried;
  };
  const seconds = extremes(secondsOf(options.day ?? Date.UTC(options.from, 0, 1)), options.times ?? 4);
  const dates: { at: number; similarity: number }[] = [];
  for (const instant of everyDateOf(options.from, options.to, seconds)) {
    dates.push({ at: dayOf(instant), similarity: finder.at(instant) });
  }
  for (const day of new Set(extremes(dates, 1))) secondsOf(day);
  for (const instant of sampleOfYears(options.from, options.to, options.samples ?? 0)) finder.at(instant);
  return finder.range;
}
