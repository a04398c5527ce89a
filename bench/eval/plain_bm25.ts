// A plain BM25 over a set's passages, the baseline issue 20 states its held-out figures against: k1 0.9, b 0.4,
// lower-cased words of letters and digits, no stemming, no stop words, the title in the passage's text, IDF
// ln(1 + (N - df + 0.5) / (df + 0.5)). Not the search's full-text side (LanceDB's, stemmed): a reference row.
import type { EvalSet } from "./sets.ts";

const K1 = 0.9;
const B = 0.4;

const wordsOf = (text: string) => text.toLowerCase().match(/[a-z0-9]+/g) ?? [];

/** Each question's passage ids, best first, `depth` deep (ties in passage order). */
export function plainBm25Rankings(set: EvalSet, depth: number): string[][] {
  const counts = set.passages.map((passage) => {
    const words = wordsOf(`${passage.title} ${passage.text}`);
    const count = new Map<string, number>();
    for (const word of words) count.set(word, (count.get(word) ?? 0) + 1);
    return { count, length: words.length };
  });
  const total = counts.length;
  const average = counts.reduce((sum, passage) => sum + passage.length, 0) / total;
  const df = new Map<string, number>();
  for (const { count } of counts) for (const word of count.keys()) df.set(word, (df.get(word) ?? 0) + 1);
  return set.questions.map((question) => {
    const words = wordsOf(question.text);
    const scored = counts.map(({ count, length }, at) => {
      let score = 0;
      for (const word of words) {
        const frequency = count.get(word);
        if (!frequency) continue;
        const documents = df.get(word)!;
        const idf = Math.log(1 + (total - documents + 0.5) / (documents + 0.5));
        score += idf * frequency * (K1 + 1) / (frequency + K1 * (1 - B + B * length / average));
      }
      return { at, score };
    });
    scored.sort((a, b) => b.score - a.score || a.at - b.at);
    return scored.slice(0, depth).map(({ at }) => set.passages[at].id);
  });
}
