// The words of questions and chunks as the retrieval sees them: lower-cased letters and digits, stop words, stems.
import { stemmer } from "stemmer";

/**
 * Words so common in questions and text that matching them says little: the built-in embedder counts them a
 * fifth of a content word, and the full-text query leaves them out (LanceDB's own English list is shorter and
 * keeps question words such as "what", "did" or "how", which BM25 then rewards in any chunk that has them).
 */
export const STOPWORDS: ReadonlySet<string> = new Set(
  ("a about above after again against all am an and any are as at be because been before being below between both " +
    "but by can could did do does doing down during each few for from further had has have having he her here hers " +
    "him his how i if in into is it its itself just me more most my no nor not now of off on once only or other our " +
    "out over own same she should so some such than that the their them then there these they this those through to " +
    "too under until up very was we were what when where which while who whom why will with would you your")
    .split(" "),
);

/** The words of a text: NFKC, lower case, runs of letters and digits. */
export function wordsOf(text: string): string[] {
  return text.normalize("NFKC").toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Stems seen lately: chunk texts repeat their words, and a search stems a few thousand of them. */
const stems = new Map<string, string>();
const MAX_CACHED_STEMS = 50_000;

/** Porter's stem of a lower-cased word ("capitals" and "capital" meet), cached. */
export function stemOf(word: string): string {
  let stem = stems.get(word);
  if (stem === undefined) {
    if (stems.size >= MAX_CACHED_STEMS) stems.clear();
    stem = stemmer(word);
    stems.set(word, stem);
  }
  return stem;
}
