import assert from "node:assert/strict";
import { fuseHybrid, RELATED_SHARE, relatedStems } from "./fusion.ts";
import {
  MAX_RELATED_FORMS,
  parseWordForms,
  relatedForms,
  withRelatedForms,
  wordForms,
} from "./word_forms.ts";
import { stemOf } from "./words.ts";

Deno.test("wordForms: the WordNet table joins derivations, pertainyms and irregular inflections by Porter stem", async () => {
  const forms = await wordForms();
  assert.ok(forms.size > 1000, `${forms.size} stems`);
  assert.ok(forms.get(stemOf("marry"))?.includes("marriage"));
  assert.ok(forms.get(stemOf("die"))?.includes("death"));
  assert.ok(forms.get(stemOf("french"))?.includes("france"), "a pertainym: the adjective's country");
  assert.ok(forms.get(stemOf("sold"))?.includes("sell"), "an irregular inflection's lemma");
  assert.ok(forms.get(stemOf("wrote"))?.includes("write"));
  // Agent nouns and the like are left out (they matched passages about something else).
  assert.equal(forms.get(stemOf("play"))?.includes("player") ?? false, false);
  for (const [stem, related] of forms) {
    for (const form of related) assert.notEqual(stemOf(form), stem, `${stem} → ${form}: the same stem`);
  }
  assert.equal(await wordForms(), forms, "read once");
});

Deno.test("relatedForms: the forms of the question's content words that it lacks, each once, at most 24", () => {
  const table = parseWordForms("marri marriage\ndie death dead\nchopin\nwed marriage wedding nuptial");
  assert.deepEqual(relatedForms("Whom did Chopin marry, and when did he die?", table), [
    "marriage",
    "death",
    "dead",
  ]);
  assert.deepEqual(
    relatedForms("Whom did he wed after the marriage?", table),
    ["nuptial"],
    "forms with its own stems (marriage, wedding) are not added",
  );
  assert.deepEqual(relatedForms("Who is it?", table), []);
  const long = parseWordForms(Array.from({ length: 40 }, (_, at) => `w${at} f${at}a f${at}b`).join("\n"));
  const question = Array.from({ length: 40 }, (_, at) => `w${at}`).join(" ");
  assert.equal(relatedForms(question, long).length, MAX_RELATED_FORMS);
});

Deno.test("withRelatedForms: the table is read only when the weights count related forms", async () => {
  assert.equal(RELATED_SHARE, 0);
  const options = { question: "Whom did Chopin marry?" };
  assert.equal(await withRelatedForms(options.question, options), options, "off by default: unchanged");
  const counted = await withRelatedForms(options.question, { ...options, relatedShare: 0.5 });
  assert.deepEqual(counted.relatedForms, ["marriage"]);
});

Deno.test("relatedStems: the forms' stems the question lacks, weighed at their share of IDF", () => {
  assert.equal(relatedStems(["marri"], ["marriage"], 0), null);
  assert.equal(relatedStems(["marri"], [], 0.5), null);
  assert.equal(relatedStems(["marri"], ["married"], 0.5), null, "a form with the question's own stem");
  const related = relatedStems(["marri", "chopin"], ["marriage", "Liaison"], 0.5);
  assert.deepEqual(related?.stems, [stemOf("marriage"), stemOf("liaison")]);
  const idf = related!.weigh(() => 2);
  assert.equal(idf(stemOf("marriage")), 1);
  assert.equal(idf("chopin"), 2);
});

Deno.test("fuseHybrid: a related form in a sentence with the question's words counts with relatedShare", () => {
  const hit = (id: string, text: string) => ({ id, score: 0.4, text });
  const question = "Whom did Chopin marry?";
  const other = hit("o", "Chopin played in Paris. He was famous.");
  const married = hit("m", "Chopin's marriage plans with Maria ended. He was famous.");
  const sides = [[], [other, married], [5.2, 5]] as const;
  const off = { question, phraseWeight: 0, titleWeight: 0, relatedForms: ["marriage"] };
  assert.deepEqual(
    fuseHybrid(...sides, 2, off).map((item) => item.id),
    ["o", "m"],
    "share 0 (default): BM25 leads",
  );
  assert.deepEqual(
    fuseHybrid(...sides, 2, { ...off, relatedShare: 0.5 }).map((item) => item.id),
    ["m", "o"],
    "the sentence holding Chopin and marriage wins",
  );
});
