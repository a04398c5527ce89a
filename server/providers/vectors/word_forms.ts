// Related word forms for a question's words (issue 20, fourth round): the passage that answers "Whom did she
// marry?" often says "marriage", and "a French king" is in "the King of France". Neither BM25 (stemmed) nor the
// built-in embedder joins such forms, so the hybrid search also looks for them, at a low weight.
import { type FusionOptions, RELATED_SHARE } from "./fusion.ts";
import { stemOf, STOPWORDS, wordsOf } from "./words.ts";

/** At most this many related forms are added to a question (a long paste stays one cheap query). */
export const MAX_RELATED_FORMS = 24;

/** Porter stem → related word forms (word_forms_table.ts, derived from WordNet by scripts/build_word_forms.ts). */
export type WordForms = ReadonlyMap<string, readonly string[]>;

let loading: Promise<WordForms> | undefined;

/** The table, read on first use (about 130 kB of text: no cost for a server that never runs a hybrid search). */
export function wordForms(): Promise<WordForms> {
  return loading ??= import("./word_forms_table.ts").then(({ WORD_FORMS }) => parseWordForms(WORD_FORMS));
}

/** The table's text ("stem form form…" per line) as a map. */
export function parseWordForms(text: string): WordForms {
  const forms = new Map<string, string[]>();
  for (const line of text.split("\n")) {
    const [stem, ...related] = line.split(" ");
    if (stem && related.length > 0) forms.set(stem, related);
  }
  return forms;
}

/**
 * The forms related to the question's content words whose stems the question does not already hold, each
 * once, in the question's order: "Whom did Chopin marry?" → ["marriage"]. Empty when none is known.
 */
export function relatedForms(question: string, forms: WordForms, max = MAX_RELATED_FORMS): string[] {
  const words = wordsOf(question).filter((word) => !STOPWORDS.has(word));
  const stems = new Set(words.map(stemOf));
  const added = new Set<string>();
  for (const word of words) {
    for (const form of forms.get(stemOf(word)) ?? []) {
      if (added.size >= max) break;
      if (!stems.has(stemOf(form))) added.add(form);
    }
  }
  return [...added];
}

/**
 * The fusion options of a hybrid search with the question's related forms added when the weights count them
 * (`relatedShare`, default `RELATED_SHARE`); the table is read only then.
 */
export async function withRelatedForms(question: string, options: FusionOptions): Promise<FusionOptions> {
  if ((options.relatedShare ?? RELATED_SHARE) <= 0 || options.relatedForms) return options;
  return { ...options, relatedForms: relatedForms(question, await wordForms()) };
}
